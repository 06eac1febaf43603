"""The one-page quick-play rules, clause by clause, with the dice typed in.

A 16-figure line is 8 files of 0.5 inch (4 x 1 inches). Blue at (20, 20) faces north;
a red line at (20, y) facing south is 19 - y inches away, edge to edge.
"""
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builders import build_table, piece, polyline, rect, session_at
from play_checks import no_overlaps, play_and_replay, plays_from_cli, table_orders
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.model.forces import mark
from manager.rules.quickplay.combat import volley
from manager.rules.quickplay.melee import fighter
from manager.rules.quickplay.melee_odds import fire_odds
from manager.rules.quickplay.moves import FollowMe
from manager.rules.quickplay.units import footprint
from manager.scenario_io import load_scenario
from manager.dice import QueueSource
from manager.session import Session

QP = "quickplay"
ROOT = Path(__file__).resolve().parents[2]
MAIDA = ROOT / "scenarios" / "maida.toml"


def table(units, first="blue", **kw):
    opts = {"army_morale": "off", **kw.pop("options", {})}
    return build_table(units, QP, options=opts, first=first, **kw)


def act(units, faces=(), **kw):
    """At blue's activation (blue won the initiative)."""
    return session_at(table(units, **kw), "act", faces=faces, side="blue")


def moves_of(s, uid):
    return [e for e in s.entries[-1].events if getattr(e, "unit", None) == s.battle.units[uid].name]


# ---- movement ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, formation, faces, inches", [
    ("line_infantry", "line", [3], 9), ("line_infantry", "column", [3, 4], 13),
    ("militia", "line", [2, 3, 4], 9), ("light_cavalry", "line", [3], 18),
    ("foot_artillery", "line", [5], 5), ("foot_artillery", "limbered", [5], 11)])
def test_the_variable_move_table(kind, formation, faces, inches):
    s, src = act([piece("b", "blue", kind, (20, 30), formation=formation)], height=40)
    src.push(*faces)
    s.execute(ga.MoveUnit("b", (20, 30 - inches), 0))
    assert s.battle.units["b"].y == pytest.approx(30 - inches)


def test_a_move_is_declared_then_rolled_and_a_short_roll_stops_short():
    s, src = act([piece("b", "blue", "line_infantry", (20, 30))], height=40)
    src.push(2)                                   # 6 + 2 = 8 of the 11 declared
    s.execute(ga.MoveUnit("b", (20, 19), 0))
    assert s.battle.units["b"].y == pytest.approx(22, abs=0.01)


def test_road_bonus_for_guns_and_wagons():
    road = [polyline("road", (20, 40), (20, 0))]
    s, src = act([piece("b", "blue", "heavy_artillery", (20, 30))], terrain=road, height=40)
    src.push(2, 3)                                # D6 + D6 on the road
    s.execute(ga.MoveUnit("b", (20, 24), 0))
    assert s.battle.units["b"].y == pytest.approx(25)


def test_half_speed_back_or_sideways_full_speed_retiring_with_backs_to_the_enemy():
    s, src = act([piece("b", "blue", "line_infantry", (20, 20))])
    assert not s.is_legal(ga.MoveUnit("b", (26.5, 20), 0))   # 13 at half speed: beyond 12
    src.push(2)                                   # 8 inches: 4 sideways at half speed
    s.execute(ga.MoveUnit("b", (26, 20), 0))
    assert s.battle.units["b"].x == pytest.approx(24, abs=0.05)
    s, src = act([piece("b", "blue", "line_infantry", (20, 10))])
    src.push(6)                                   # turned about: retiring at full speed
    s.execute(ga.MoveUnit("b", (20, 22), 180))
    assert s.battle.units["b"].y == pytest.approx(22)


@pytest.mark.parametrize("kind, formation, terrain, ok", [
    ("line_infantry", "line", rect("woods", 10, 10, 30, 18.5), False),
    ("line_infantry", "column", rect("woods", 10, 10, 30, 18.5), True),
    ("skirmishers", "line", rect("woods", 10, 10, 30, 18.5), True),
    ("light_cavalry", "line", rect("marsh", 10, 10, 30, 18.5), False),
    ("line_infantry", "line", rect("lake", 10, 10, 30, 18.5), False)])
def test_difficult_ground_and_lakes(kind, formation, terrain, ok):
    s, _ = act([piece("b", "blue", kind, (20, 20), formation=formation)], terrain=[terrain])
    assert s.is_legal(ga.MoveUnit("b", (20, 16), 0)) == ok


def test_broken_ground_halves_formed_troops_not_skirmishers():
    rough = [rect("rough", 10, 5, 30, 19.4)]
    s, src = act([piece("b", "blue", "line_infantry", (20, 20))], terrain=rough)
    src.push(1)              # 7 inches: 0.6 in the open, then every scrub inch counts 2
    s.execute(ga.MoveUnit("b", (20, 14), 0))
    assert s.battle.units["b"].y == pytest.approx(20 - 3.8, abs=0.05)
    s, src = act([piece("b", "blue", "skirmishers", (20, 20))], terrain=rough)
    src.push(2, 2, 2)
    s.execute(ga.MoveUnit("b", (20, 14), 0))
    assert s.battle.units["b"].y == pytest.approx(14)


@pytest.mark.parametrize("kind, face, moves", [("line_infantry", 3, False),
                                               ("line_infantry", 4, True),
                                               ("grenadiers", 3, True), ("militia", 4, False)])
def test_command_control_four_plus_beyond_twelve_inches(kind, face, moves):
    s, src = act([piece("b", "blue", kind, (20, 20))], options={"command_control": True},
                 leaders={"b1": {"pos": [45, 35]}})
    src.push(face, 6, 6, 6)
    s.execute(ga.MoveUnit("b", (20, 17), 0))
    assert (s.battle.units["b"].y == 17) == moves


# ---- shooting ------------------------------------------------------------------------------
def duel(red_y, kind="line_infantry", red_kind="line_infantry", blue=None, red=None, **kw):
    return [piece("b", "blue", kind, (20, 20), **(blue or {})),
            piece("r", "red", red_kind, (20, red_y), **(red or {}))]


@pytest.mark.parametrize("kind, formation, red_y, dice", [
    ("line_infantry", "line", 15, 8), ("line_infantry", "column", 15, 2),
    ("skirmishers", "line", 15, 6), ("foot_artillery", "line", 15, 4),
    ("line_infantry", "line", 10, 4)])
def test_dice_per_two_figures_in_two_ranks_per_gunner_half_at_long_range(kind, formation,
                                                                          red_y, dice):
    s, _ = act(duel(red_y, kind, blue={"formation": formation}))
    assert volley(s.battle, s.battle.units["b"], s.battle.units["r"]).dice == dice


def test_five_or_six_hits_with_first_fire_column_and_inferior_modifiers():
    s, _ = act(duel(15))
    v = volley(s.battle, s.battle.units["b"], s.battle.units["r"])
    assert v.plus == 1                                   # a regular unit's first volley
    s.battle.mark_unit("b", first_fired=True)
    s.battle.update_unit("r", formation="column")
    assert volley(s.battle, s.battle.units["b"], s.battle.units["r"]).plus == 1
    s, _ = act(duel(15, "militia"))
    assert volley(s.battle, s.battle.units["b"], s.battle.units["r"]).plus == -1


@pytest.mark.parametrize("terrain, red_kind, faces, hits", [
    ((), "line_infantry", [5, 6, 5, 4, 1, 1, 1, 1], 3),          # three 5-6s
    ((rect("woods", 14, 12, 26, 16),), "line_infantry", [5, 6, 5, 4, 1, 1, 1, 1], 2),
    ((rect("town", 14, 12, 26, 16),), "line_infantry", [5, 6, 5, 4, 1, 1, 1, 1], 1),
    ((), "skirmishers", [5, 6, 5, 4, 1, 1, 1, 1], 2)])
def test_cover_and_skirmishers_halve_rounding_up_in_partial_down_in_full(terrain, red_kind,
                                                                         faces, hits):
    s, src = act(duel(14.5, red_kind=red_kind), terrain=list(terrain))
    s.battle.mark_unit("b", first_fired=True)            # no first-fire bonus: 5-6 hit
    src.push(*faces, 6)
    s.execute(ga.Fire("b", "r"))
    r = s.battle.units["r"]
    assert r.max_hits - r.hits == hits


def test_shoot_instead_of_moving_or_at_the_end_of_the_turn_once():
    s, src = act(duel(10))
    src.push(1)
    s.execute(ga.MoveUnit("b", (20, 19), 0))
    with pytest.raises(IllegalAction, match="already acted"):
        s.check(ga.Fire("b", "r"))
    while s.battle.state.phase != "end_fire":
        s.execute(ga.EndPhase())
    assert s.battle.state.active == "blue"
    src.push(*[1] * 8)
    s.execute(ga.Fire("b", "r"))
    with pytest.raises(IllegalAction, match="has shot"):
        s.check(ga.Fire("b", "r"))


def test_a_quarter_lost_to_fire_tests_morale():
    s, src = act(duel(15, blue={"formation": "line"}))
    # first volley: 8 dice at 4+ (first fire): six hits (25% of 16 is 4); morale 6: steady
    src.push(4, 4, 4, 5, 5, 6, 1, 1, 6)
    events = s.execute(ga.Fire("b", "r"))
    assert any(getattr(e, "result", "").startswith("steady") for e in events)
    s, src = act(duel(15))
    src.push(4, 4, 4, 5, 5, 6, 1, 1, 2)                 # morale 2: retreat in disorder
    s.execute(ga.Fire("b", "r"))
    r = s.battle.units["r"]
    assert r.disordered and r.y < 15


def test_fire_odds_match_counting_the_faces():
    s, _ = act(duel(10))                                 # long range: 4 dice, 4+ (first fire)
    odds = fire_odds(s.battle, ga.Fire("b", "r"))
    d = odds.lines[0].dist
    counts = {}
    for faces in product(range(1, 7), repeat=4):
        k = sum(1 for f in faces if f + 1 >= 5)
        counts[k] = counts.get(k, 0) + Fraction(1, 6 ** 4)
    assert {k: d.p(k) for k in counts} == counts


# ---- charges and melee -------------------------------------------------------------------------
def test_a_charge_that_reaches_pins_the_target_and_short_rolls_fall_short():
    s, src = act(duel(12, "light_cavalry"))
    src.push(1, *[1] * 8)           # (6 + 1) x 2 = 14 reaches; the reaction volley (8 dice at
    #                                 close range: measured as the charger comes in) misses
    s.execute(ga.Charge("b", "r"))
    assert mark(s.battle.units["b"], "charging") == "r"
    assert mark(s.battle.units["r"], "pinned") == s.battle.state.turn
    s, src = act(duel(8, "line_infantry"))
    src.push(1)                                          # 6 + 1 = 7 of the 11 needed
    s.execute(ga.Charge("b", "r"))
    assert not mark(s.battle.units["b"], "charging")


def test_unmoved_cavalry_counter_charge_and_skirmishers_retreat():
    s, src = act(duel(12, "light_cavalry", "light_cavalry"))
    src.push(3)
    events = s.execute(ga.Charge("b", "r"))
    assert any("counter-charge" in e.describe() for e in events)
    s, src = act(duel(12, "light_cavalry", "skirmishers"))
    src.push(3)                          # the charger still rolls its move (declared, rolled)
    s.execute(ga.Charge("b", "r"))
    assert s.battle.units["r"].y < 12 and not mark(s.battle.units["b"], "charging")


def test_the_enemy_must_be_visible_to_the_front():
    s, _ = act([piece("b", "blue", "light_cavalry", (20, 20)),
                piece("r", "red", "line_infantry", (32, 20), facing=270)])
    with pytest.raises(IllegalAction, match="front"):
        s.check(ga.Charge("b", "r"))


def test_melee_dice_ranks_and_modifiers():
    s, _ = act(duel(12, "heavy_cavalry"))
    b = s.battle
    assert fighter(b, b.units["b"], b.units["r"], True) == (8, 2)    # a die a trooper; shock +1, charging +1
    assert fighter(b, b.units["r"], b.units["b"], False) == (8, 0)   # two ranks of 8: 16 -> 8 dice
    b.update_unit("r", facing=90)                                    # taken in flank: one rank
    assert fighter(b, b.units["r"], b.units["b"], False)[0] == 4


def test_the_unit_taking_more_tests_morale():
    s, src = act(duel(12, "heavy_cavalry"))
    src.push(3, *[2] * 8)               # the reaction volley, 8 dice at close range, misses
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    # cavalry 8 dice at +2: 3,3,3,1,1,1,1,1 -> three 5s; infantry 8 dice: all 1 -> none
    src.push(3, 3, 3, 1, 1, 1, 1, 1, *[1] * 8, 1)       # red morale 1: retreats in disorder
    s.execute(ga.ResolveMelee("r"))
    r = s.battle.units["r"]
    assert r.hits == 13 and r.disordered


# ---- commanders ------------------------------------------------------------------------------
def test_rally_men_cancels_a_hit_on_four_plus_and_risks_the_commander_on_a_one():
    units = duel(15)
    for face, back, ko in ((5, 1, False), (1, 0, True)):
        b = table(units, leaders={"b1": {"pos": [20, 26]}}, first="red")
        s, src = session_at(b, "act", side="red")
        src.push(*[6] * 8, 6)                            # 8 hits, then b's morale: steady
        s.execute(ga.Fire("r", "b"))
        s.execute(ga.EndPhase())
        lost = s.battle.units["b"].max_hits - s.battle.units["b"].hits
        src.push(face)
        s.execute(ga.Rally("b1-ldr", "b"))
        assert s.battle.units["b"].max_hits - s.battle.units["b"].hits == lost - back
        assert s.battle.leaders["b1-ldr"].eliminated == ko


def test_follow_me_adds_a_d6_to_the_move():
    s, src = act([piece("b", "blue", "line_infantry", (20, 30))], height=40,
                 leaders={"b1": {"pos": [20, 36]}})
    src.push(4)
    s.execute(FollowMe("b1-ldr", "b"))
    src.push(6)                                          # 6 + 6 + 4 = 16
    s.execute(ga.MoveUnit("b", (20, 14), 0))
    assert s.battle.units["b"].y == pytest.approx(14)


def test_disordered_units_shoot_only_as_a_reaction_and_recover_after_a_halted_turn():
    s, _ = act(duel(15))
    s.battle.update_unit("b", disordered=True)
    with pytest.raises(IllegalAction, match="reaction"):
        s.check(ga.Fire("b", "r"))
    s.source.push(6, 1)                                  # turn 2's initiative
    while s.battle.state.turn == 1:
        s.execute(ga.EndPhase())
    assert not s.battle.units["b"].disordered


# ---- the card deck --------------------------------------------------------------------------
def test_the_card_deck_one_activation_a_card():
    units = [piece("b", "blue", "line_infantry", (20, 30)), piece("b2", "blue", "line_infantry", (30, 30)),
             piece("r", "red", "line_infantry", (20, 5))]
    b = table(units, options={"activation": "cards"}, height=40)
    s = Session(b, QueueSource([1]))
    s.execute(ga.StartBattle())    # deck: blue (red cards) 3 pieces, red (black) 2; a 1: blue
    assert (s.battle.state.phase, s.battle.state.active) == ("act", "blue")
    s.source.push(3)
    s.execute(ga.MoveUnit("b", (20, 25), 0))
    with pytest.raises(IllegalAction, match="card has been used"):
        s.check(ga.MoveUnit("b2", (30, 25), 0))
    s.source.push(4)                          # the next card: 4 of 2 + 2 left -> black (red side)
    s.execute(ga.EndPhase())
    assert s.battle.state.active == "red"


# ---- play ------------------------------------------------------------------------------------------
def _fresh(seed, activation="initiative"):
    b = load_scenario(MAIDA)
    opts = dict(b.info.options, activation=activation)
    from types import MappingProxyType
    b.set_info(replace(b.info, seed=seed, turns=4, options=MappingProxyType(opts)))
    return b


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 10_000),
       st.sampled_from(["initiative", "cards"]))
def test_random_legal_play_keeps_every_invariant_and_replays(rnd, seed, activation):
    def check(b):
        for u in b.units.values():
            assert 0 <= u.hits <= u.max_hits
        no_overlaps(b, footprint)
    play_and_replay(lambda: _fresh(seed, activation), rnd, table_orders([2.0, 6.0, 10.0]),
                    check, steps=220)


def test_the_demo_and_austerlitz_play_from_the_cli():
    plays_from_cli(QP, MAIDA)
