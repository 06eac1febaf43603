"""D3's player-turn start keeps the record of a unit already as the turn leaves it
(issue 17): everything kept per record (its base, rows, memos) stays good. Exact: the
battle and the events are those of making every record of the side anew, as before."""
from __future__ import annotations

from builders import build_table, piece
from play_checks import SameDice, austerlitz_phases

D3 = "d3"



def plain_begin_player_turn(begin, battle, side, dice) -> list:
    """flow._begin_player_turn as it was: every live record of the side made anew, then
    the rest of the turn's start (by `begin`, which finds every unit as it leaves it)."""
    for u in battle.units.values():
        if u.side == side and not u.eliminated:
            keep = tuple((k, v) for k, v in u.marks if k == "deployed")
            battle.update_unit(u.id, moved=0, fired=False, disordered=False, marks=keep)
    return begin(battle, side, dice)


def test_a_player_turn_leaves_every_unit_as_making_each_anew_in_play(monkeypatch):
    """Each player-turn start of 6 Austerlitz turns: the same battle (every record's
    fields, the state) and events as making every record of the side anew; most units
    keep their record, some are made anew (both branches asked)."""
    from manager.rules.d3 import flow
    seen = {"starts": 0, "kept": 0, "new": 0}
    begin = flow._begin_player_turn

    def spy(battle, side, dice):
        mine, ref = battle.copy(), battle.copy()
        before = {k: u for k, u in mine.units.items() if u.side == side and not u.eliminated}
        got = begin(mine, side, SameDice())
        want = plain_begin_player_turn(begin, ref, side, SameDice())
        assert got == want
        assert mine.fingerprint() == ref.fingerprint()
        assert all(mine.units[k] == ref.units[k] for k in ref.units)
        seen["starts"] += 1
        seen["kept"] += sum(mine.units[k] is u for k, u in before.items())
        seen["new"] += sum(mine.units[k] is not u for k, u in before.items())
        return begin(battle, side, dice)
    monkeypatch.setattr(flow, "_begin_player_turn", spy)
    for _ in austerlitz_phases(D3, (), 6):
        pass
    assert seen["starts"] >= 10 and seen["kept"] > 100 and seen["new"] > 50, seen


def test_a_player_turn_clears_a_move_a_volley_disorder_and_the_turns_marks():
    """A unit of the side that moved, fired, is disordered or carries a turn's mark is
    made anew; one with only `deployed` keeps its record; the other side is not asked."""
    from manager.rules.d3 import flow
    b = build_table([piece("m", "blue", "heavy_cavalry", (10, 20)),
                     piece("f", "blue", "line_infantry", (20, 20)),
                     piece("d", "blue", "line_infantry", (30, 20)),
                     piece("t", "blue", "line_infantry", (40, 20)),
                     piece("g", "blue", "foot_artillery", (44, 30)),
                     piece("k", "red", "line_infantry", (20, 8))], D3)
    b.update_unit("m", moved=2)
    b.update_unit("f", fired=True)
    b.update_unit("d", disordered=True)
    b.mark_unit("t", charged=1)
    b.mark_unit("g", deployed=1)
    b.update_unit("k", fired=True)
    old = dict(b.units)
    flow._begin_player_turn(b, "blue", SameDice())
    for uid in "mfdt":
        assert b.units[uid] is not old[uid]
    assert b.units["m"].moved == 0 and not b.units["f"].fired and not b.units["d"].disordered
    assert b.units["t"].marks == ()
    assert b.units["g"] is old["g"] and dict(b.units["g"].marks) == {"deployed": 1}
    assert b.units["k"] is old["k"] and b.units["k"].fired


def test_refresh_unit_keeps_a_record_only_when_every_value_is_the_same_and_of_its_type():
    """Battle.refresh_unit: equal values of the same type keep the very record; a value
    equal but of another type (0 for False, 1.0 for 1) or different makes a new one, as
    update_unit would, so the battle is the same field for field either way."""
    b = build_table([piece("a", "blue", "line_infantry", (10, 20)),
                     piece("k", "red", "line_infantry", (20, 8))], D3)
    b.update_unit("a", moved=1, fired=False)
    a = b.units["a"]
    assert b.refresh_unit("a", moved=1, fired=False) is a is b.units["a"]
    for changes in ({"fired": 0}, {"moved": 1.0}, {"moved": 0}, {"moved": 1, "fired": True}):
        got = b.refresh_unit("a", **changes)
        assert got is not a and got is b.units["a"]
        assert all(type(getattr(got, k)) is type(v) and getattr(got, k) == v
                   for k, v in changes.items())
        b.update_unit("a", moved=1, fired=False)
        a = b.units["a"]
