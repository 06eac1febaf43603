"""Issue 17, Featherstone: the answers remembered per battle version and the commander's
pre-checks give exactly what the full computations give (tests/manager/
test_same_results.py guards whole battles; these, each piece on its own).

- recall.py: the shot, the charge path, the charge check, who could charge a unit, the
  rules' checks of orders: kept until the battle changes, a refusal as its message;
- may_influence: a general farther than GENERAL_NEAR beyond the base's circle is out of
  reach without measuring to the shape;
- counter_possible: no face of the charged unit's roll reads the 7, so its
  counter-charge mark changes no charge's odds (counter_choice has nothing to weigh);
- the commander's _has_target judges the guns' candidate lines of sight together;
- support fire: the lines to one target judged together.

Shapes judged first by circles, arithmetic and arrays: test_featherstone_speed_shapes.py.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone import (charge_reach, choices, fire, fire_sight, melee_parts,
                                        morale, nearby, threats)
from manager.rules.featherstone.commander import Commander
from manager.rules.featherstone.recall import recall


FS = "featherstone"
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))


def outcome(f):
    """What a call answers: its value, or the refusal's message."""
    try:
        return ("ok", f())
    except IllegalAction as e:
        return ("refused", str(e))


def phases_in_play(turns: int = 2, phases=("charges", "moves", "fire", "generals")):
    """(session, side to move) at the start of each listed phase on Austerlitz, the
    automatic commander playing both sides."""
    return austerlitz_phases(FS, phases, turns)


# ---- recall ---------------------------------------------------------------------------
def test_recall_keeps_an_answer_until_the_battle_changes_and_a_refusal_as_its_message():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("e", "red", "line_infantry", (20, 20))], FS)
    calls = []

    def compute():
        calls.append(1)
        if len(calls) % 2 == 0:
            raise IllegalAction("refused the second time")
        return len(calls)
    a = b.units["a"]
    assert recall(b, "t", "k", (a,), compute) == 1
    assert recall(b, "t", "k", (a,), compute) == 1 and len(calls) == 1     # kept
    b.update_unit("e", x=21.0)                                              # a change
    with pytest.raises(IllegalAction, match="refused the second time"):
        recall(b, "t", "k", (b.units["a"],), compute)
    with pytest.raises(IllegalAction, match="refused the second time"):
        recall(b, "t", "k", (b.units["a"],), compute)                       # kept too
    assert len(calls) == 2
    c = b.copy()                                  # a trial copy has its own answers
    assert recall(c, "t", "k", (c.units["a"],), compute) == 3
    b.update_unit("a", x=19.0)
    with pytest.raises(IllegalAction):
        recall(b, "t", "k", (b.units["a"],), compute)               # the 4th call
    assert recall(b, "t", "k", (a,), compute) == 5                  # another record: asked
    assert len(calls) == 5


def test_a_remembered_shot_follows_a_base_moved_across_the_line():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("x", "blue", "line_infantry", (40, 25)),
                     piece("e", "red", "line_infantry", (20, 22))], FS)
    a, e = b.units["a"], b.units["e"]
    assert fire.shot_spec(b, a, e).band
    b.update_unit("x", x=20.0, y=26.0)            # now squarely in the way
    with pytest.raises(IllegalAction, match="in the way"):
        fire.shot_spec(b, b.units["a"], b.units["e"])


def test_remembered_answers_are_the_computed_ones_in_play():
    """On Austerlitz, at each phase: the shot, the charge path and check, who could
    charge a unit, asked twice (computed, then remembered), equal the computation."""
    from manager.footprint import distance
    pairs = 0
    for s, side in phases_in_play(turns=2):
        b = s.battle
        for u in b.live_units(side)[::3]:
            for e in b.live_units(b.enemy_of(side)):
                if distance(u.pos, e.pos) > 30:
                    continue
                pairs += 1
                for _ in range(2):
                    if choices.arm(u) != "cavalry":           # horse does not shoot
                        assert outcome(lambda: fire.shot_spec(b, u, e)) == \
                            outcome(lambda: fire._shot_spec(b, u, e, False, ""))
                    assert outcome(lambda: charge_reach.charge_path(b, u, e)) == \
                        outcome(lambda: charge_reach._charge_path(b, u, e))
                    assert outcome(lambda: charge_reach.check_charge(b, ga.Charge(u.id, e.id))) \
                        == outcome(lambda: charge_reach._check_charge(b, ga.Charge(u.id, e.id)))
            for _ in range(2):
                assert threats.threats(b, u) == threats._threats(b, u, ("infantry", "cavalry"))
                assert threats.threats(b, u, ("infantry",)) == \
                    [e for e in threats._threats(b, u, ("infantry", "cavalry"))
                     if e.kind in ("line_infantry", "light_infantry", "grenadiers",
                                   "guard_infantry", "militia", "rifles", "skirmishers")]
    assert pairs > 200


# ---- may_influence: the circle first -----------------------------------------------------
def by_shape(b, leader, unit) -> bool:
    from shapely.geometry import Point
    from manager.rules.featherstone.state import footprint
    from manager.rules.featherstone.tables import GENERAL_NEAR
    return footprint(b, unit).polygon().distance(Point(*leader.pos)) > GENERAL_NEAR


_TABLES: dict = {}


def one_unit_table(kind):
    """A table with unit 'u' and its general 'b1-ldr' (built once per kind; copied)."""
    if kind not in _TABLES:
        _TABLES[kind] = build_table([piece("u", "blue", kind, (40, 40))], FS,
                                    leaders={"b1": {"pos": [50, 50]}}, width=80, height=80)
    return _TABLES[kind].copy()


@settings(max_examples=200, deadline=None)
@given(spot, st.floats(-12, 12), st.floats(-12, 12), st.integers(0, 359),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.sampled_from(["line", "column", "square"]))
def test_may_influence_says_out_of_reach_exactly_when_the_shape_is_beyond_4(
        at, dx, dy, facing, kind, form):
    b = one_unit_table(kind)
    at = (at[0] + 15, at[1] + 15)
    b.update_unit("u", x=at[0], y=at[1], facing=facing,
                  formation=form if kind == "line_infantry" else "line")
    b.update_leader("b1-ldr", x=at[0] + dx, y=at[1] + dy)
    u, l = b.units["u"], b.leaders["b1-ldr"]
    assert bool(morale.may_influence(b, l, u)) == by_shape(b, l, u)


def test_may_influence_in_play():
    judged = far = 0
    for s, side in phases_in_play(turns=1, phases=("generals", "charges")):
        b = s.battle
        for u in b.live_units(side):
            for l in b.live_leaders(side):
                judged += 1
                far += by_shape(b, l, u)
                assert bool(morale.may_influence(b, l, u)) == by_shape(b, l, u)
    assert judged > 1000 and 0 < far < judged


# ---- counter_possible: the 7 out of reach -------------------------------------------------
def worst_both_ways(b, unit, chargers):
    return (threats.worst_threat(b, unit, None, chargers),
            threats.worst_threat(b, unit, {"counter_seven": True}, chargers))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["line_infantry", "militia", "grenadiers"]), st.integers(0, 17),
       st.booleans(), st.booleans(), st.floats(-3, 3))
def test_without_a_seven_the_counter_mark_changes_no_odds(kind, lost, disordered, checked,
                                                          dx):
    s, _ = __import__("test_featherstone_choices").threatened(kind=kind)
    b = s.battle
    b.update_unit("r", hits=24 - lost, disordered=disordered)
    b.update_unit("b", x=20 + dx)
    if checked:
        b.mark_unit("r", checked=b.state.turn)
    r = b.units["r"]
    chargers = threats.threats(b, r, ("infantry",))
    if not choices.counter_possible(b, r) and chargers:
        stay, flip = worst_both_ways(b, r, chargers)
        assert stay == flip
        assert choices.counter_choice(b, r) is None


def test_counter_possible_is_not_vacuous():
    mod = __import__("test_featherstone_choices")
    s, _ = mod.threatened(kind="line_infantry")            # regulars: 6 + 1 reads the 7
    assert choices.counter_possible(s.battle, s.battle.units["r"])
    s, _ = mod.threatened(kind="militia")                  # no modifier: 6 at most
    r = s.battle.units["r"]
    assert not choices.counter_possible(s.battle, r)
    chargers = threats.threats(s.battle, r, ("infantry",))
    assert chargers
    stay, flip = worst_both_ways(s.battle, r, chargers)
    assert stay == flip


def test_counter_possible_in_play():
    """Every unit of Austerlitz counter_choice passes over for want of a 7 has the same
    worst threat with its counter-charge mark flipped."""
    judged = 0
    for s, side in phases_in_play(turns=3, phases=("generals",)):
        b = s.battle
        for u in b.live_units(side):
            if choices.arm(u) != "infantry" or choices.counter_possible(b, u):
                continue
            chargers = threats.threats(b, u, ("infantry",))
            if chargers:
                judged += 1
                stay, flip = worst_both_ways(b, u, chargers)
                assert stay == flip
    assert judged >= 1


# ---- the guns' targets: lines of sight judged together ------------------------------------
def test_has_target_is_the_scan_of_every_enemy_in_play():
    judged = found = 0
    for s, side in phases_in_play(turns=3, phases=("moves",)):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            if choices.arm(u) != "artillery":
                continue
            scan = any(c._shot_value(u, e) > 0
                       for e in nearby.near_units(b, u.pos, 50, b.enemy_of(side)))
            judged += 1
            found += scan
            assert c._has_target(u) == scan
    assert judged > 20 and 0 < found < judged


# ---- support fire: the lines to one target judged together --------------------------------
def old_supporters(battle, melee, side, chosen=None) -> list:
    """supporters as it was before the sight pre-check: every pair measured."""
    from manager.rules.featherstone import support as sp
    fighting = {melee.defender, *melee.attackers}
    enemies = [battle.units[u] for u in fighting if battle.units[u].side != side]
    out = []
    for u in nearby.near_units(battle, battle.units[melee.defender].pos, 60, side):
        if u.id in fighting or (chosen is not None and u.id not in chosen) \
                or fire.may_fire_supporting(battle, u):
            continue
        for e in enemies:
            try:
                sp._spec(battle, u, e)
            except IllegalAction:
                continue
            out.append((u, e))
            break
    return out


def test_supporters_are_the_old_scan_in_play(monkeypatch):
    """Every support-fire question of 3 turns of Austerlitz (the commander's odds and the
    melees resolved) gets the same units as when each pair is measured."""
    from manager.rules.featherstone import support as sp
    seen = []
    real = sp.supporters

    def recording(battle, melee, side, chosen=None, parts=None):
        got = real(battle, melee, side, chosen, parts)
        seen.append((battle.copy(), melee, side, chosen, got))
        return got
    monkeypatch.setattr(sp, "supporters", recording)
    monkeypatch.setattr(melee_parts, "supporters", recording)  # (the odds import it by name)
    for _ in phases_in_play(turns=3, phases=("melee",)):
        pass
    assert len(seen) > 20
    hidden = 0
    for b, m, side, chosen, got in seen:
        old = old_supporters(b, m, side, chosen)
        assert [(u.id, e.id) for u, e in got] == [(u.id, e.id) for u, e in old]
        for e in (b.units[x] for x in (m.defender, *m.attackers) if b.units[x].side != side):
            near = [u for u in nearby.near_units(b, e.pos, 30, side) if u.id != e.id]
            hidden += sum(fire_sight.hidden_from(b, e, near))
    assert hidden > 10


@settings(max_examples=200, deadline=None)
@given(spot, st.integers(0, 359), st.floats(0.05, 0.95), st.floats(-4, 4),
       st.integers(0, 359), st.sampled_from(["line_infantry", "heavy_cavalry",
                                             "foot_artillery", "light_infantry"]),
       st.floats(-40, 40), st.floats(4, 30))
def test_hidden_from_only_when_a_base_is_in_the_way(a, fa, t, side, fb, kb, turn, rng):
    """A blocker near the line from a shooter to a target (across it, beside it, on its
    ends): judged from the target's end, a "hidden" answer always comes with the
    shooter's own sight scan naming a base in the way."""
    from manager.footprint import heading
    a = (a[0] + 35, a[1] + 40)
    hx, hy = heading(fa + turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    px, py = -hy, hx
    blk = (a[0] + hx * rng * t + px * side, a[1] + hy * rng * t + py * side)
    b = build_table([piece("a", "blue", "line_infantry", a, facing=fa),
                     piece("b", "blue", kb, blk, facing=fb),
                     piece("e", "red", "line_infantry", e)], FS, width=120, height=120)
    shooters = [b.units["a"], b.units["b"]]
    for s_, h in zip(shooters, fire_sight.hidden_from(b, b.units["e"], shooters)):
        if h:
            assert "is in the way" in fire_sight.sight_refusal(b, s_, b.units["e"])


def test_hidden_from_sees_a_base_squarely_across_the_line():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("c", "blue", "line_infantry", (32, 30)),
                     piece("x", "blue", "line_infantry", (20, 25)),
                     piece("y", "blue", "line_infantry", (38, 25)),
                     piece("e", "red", "line_infantry", (20, 20))], FS, width=60, height=40)
    # a: x stands across its line to e; c: y stands beside it (not in the way)
    assert fire_sight.hidden_from(b, b.units["e"], [b.units["a"], b.units["c"]]) == [True, False]
