"""Quick-play's turn start keeps the record of a unit already as the turn leaves it
(issue 17): everything kept per record (its base, rows, memos) stays good. Exact: the
battle and the events are those of making every live unit's record anew, as before."""
from __future__ import annotations

from builders import build_table, piece
from play_checks import SameDice, austerlitz_phases

QP = "quickplay"



def plain_begin_turn(begin, battle, turn, dice) -> list:
    """flow._begin_turn as it was: every live unit's record made anew, then the rest of
    the turn's start (by `begin`, which then finds every unit as the turn leaves it)."""
    from manager.rules.quickplay import flow
    for u in battle.live_units():
        keep = tuple((k, v) for k, v in u.marks if k in flow.KEEP) + (("turn_start", u.hits),)
        battle.update_unit(u.id, moved=0, fired=False, fell_back=False,
                           marks=tuple(sorted(keep)))
    return begin(battle, turn, dice)


def _spy_turn_starts(monkeypatch, options=(), turns=6) -> dict:
    from manager.rules.quickplay import flow
    seen = {"turns": 0, "kept": 0, "new": 0}
    begin = flow._begin_turn

    def spy(battle, turn, dice):
        mine, ref = battle.copy(), battle.copy()
        before = {k: u for k, u in mine.units.items() if not u.eliminated}
        got = begin(mine, turn, SameDice())
        want = plain_begin_turn(begin, ref, turn, SameDice())
        assert got == want
        assert mine.fingerprint() == ref.fingerprint()
        assert all(mine.units[k] == ref.units[k] for k in ref.units)
        seen["turns"] += 1
        seen["kept"] += sum(mine.units[k] is u for k, u in before.items())
        seen["new"] += sum(mine.units[k] is not u for k, u in before.items())
        return begin(battle, turn, dice)
    monkeypatch.setattr(flow, "_begin_turn", spy)
    for _ in austerlitz_phases(QP, (), turns):
        pass
    return seen


def test_a_new_turn_leaves_every_unit_as_making_each_anew_in_play(monkeypatch):
    """Each turn's start of 6 Austerlitz turns: the same battle (every record's fields,
    the state) and events as making every unit's record anew; most units keep their
    record, some are made anew (so both branches are asked)."""
    seen = _spy_turn_starts(monkeypatch)
    assert seen["turns"] >= 5 and seen["kept"] > 100 and seen["new"] > 50, seen


def test_a_new_turn_clears_a_move_a_volley_a_fall_back_and_a_hit():
    """A unit that moved, fired, fell back or lost a hit since its turn-start mark is made
    anew; one with only the lasting marks and its hits as marked keeps its record."""
    from manager.rules.quickplay import flow
    b = build_table([piece("m", "blue", "heavy_cavalry", (10, 20)),
                     piece("f", "blue", "line_infantry", (20, 20)),
                     piece("r", "blue", "line_infantry", (30, 20)),
                     piece("h", "blue", "line_infantry", (40, 20)),
                     piece("k", "red", "line_infantry", (20, 8))], QP)
    for uid in b.units:
        b.mark_unit(uid, turn_start=b.units[uid].hits)
    b.update_unit("m", moved=2)
    b.update_unit("f", fired=True)
    b.update_unit("r", fell_back=True)
    b.update_unit("h", hits=b.units["h"].hits - 1)
    b.mark_unit("k", first_fired=1)
    old = dict(b.units)
    flow._begin_turn(b, 2, SameDice())
    for uid in "mfrh":
        assert b.units[uid] is not old[uid]
    assert b.units["m"].moved == 0 and not b.units["f"].fired and not b.units["r"].fell_back
    assert dict(b.units["h"].marks)["turn_start"] == old["h"].hits == old["h"].max_hits - 1
    assert b.units["k"] is old["k"]
    assert dict(b.units["k"].marks) == {"first_fired": 1, "turn_start": old["k"].hits}
