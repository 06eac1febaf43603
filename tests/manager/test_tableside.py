"""Table-side mode (Morschauser): fire and melee with the situation typed, manual dice.

Every case can be checked by hand from the unit table: line infantry has 5 hits, fires
2 dice hitting on 5+ out to 4 boxes (1 die beyond 2), melee 3 in front and 1 otherwise.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from builders import build, session, unit
from manager.errors import IllegalAction
from manager.events import FallBackOrdered, LeaderHit
from manager.game_actions import EndPhase, TableFire, TableMelee

FAR = [unit("bi", "blue", "line_infantry", (2, 2), 90), unit("ri1", "red", "line_infantry", (15, 8), 270),
       unit("ri2", "red", "line_infantry", (15, 9), 270)]


def fire(s, situation, target="ri1", shooter="bi"):
    return s.execute(TableFire(shooter, target, tuple(situation.items())))


@pytest.mark.parametrize("situation, faces, hits", [
    ({"range": 2}, [5, 4], 1),                         # 2 dice, 5+ hits
    ({"range": 2}, [6, 5], 2),
    ({"range": 3}, [6], 1),                            # long range: one die
    ({"range": 2, "cover": "woods"}, [5, 6], 1),        # -1: a 5 becomes 4 and misses
    ({"range": 2, "cover": "two kinds of cover"}, [6, 6], 0),   # -1 once (no stacking)... see below
])
def test_table_fire_uses_the_typed_range_and_cover(situation, faces, hits):
    battle = build(FAR)
    s, src = session(battle, faces)
    fire(s, situation)
    r1 = battle.units["ri1"]
    stacks = battle.option("terrain_penalties_stack")
    if situation.get("cover") == "two kinds of cover" and not stacks:
        hits = 2                                        # without stacking, 6-1 = 5 still hits
    assert r1.hits == 5 - hits
    assert battle.units["ri1"].pos == (46.5, 25.5)       # the map never moves in table-side mode


def test_two_hits_from_fire_order_a_fall_back_on_the_table():
    battle = build(FAR)
    s, _ = session(battle, [6, 6])
    events = fire(s, {"range": 2})
    assert any(isinstance(e, FallBackOrdered) and e.boxes == 2 for e in events)
    assert battle.units["ri1"].fell_back and battle.units["ri1"].pos == (46.5, 25.5)


def test_a_leader_with_the_target_rolls_for_a_hit():
    battle = build(FAR, leaders={"r1": (15, 7)})
    lid = next(l.id for l in battle.leaders.values() if l.side == "red" and
               battle.hierarchy.find_leader_node(l.id)[0] == "command")
    s, _ = session(battle, [1, 1, 1, 2])                # both dice miss; 1+2 = 3: hit
    events = fire(s, {"range": 2, "leader": lid})
    assert battle.leaders[lid].hits == 1 and any(isinstance(e, LeaderHit) for e in events)


@pytest.mark.parametrize("situation, why", [
    ({"range": 5}, "Range in boxes"),                   # beyond 4 boxes
    ({"range": 2, "cover": "a haystack"}, "Target's cover"),
    ({"range": 2, "wind": 3}, "unknown situation wind"),
])
def test_table_fire_refuses_a_situation_it_cannot_read(situation, why):
    s, _ = session(build(FAR))
    with pytest.raises(IllegalAction, match=why):
        fire(s, situation)


def test_only_the_side_to_move_fires():
    s, _ = session(build(FAR))
    with pytest.raises(IllegalAction, match="not on the"):
        fire(s, {"range": 2}, target="bi", shooter="ri1")


def test_table_fire_odds_are_exact():
    s, _ = session(build(FAR))
    odds = s.ruleset.odds(s.battle, TableFire("bi", "ri1", (("range", 2),)))
    assert odds.lines[0].dist.probabilities() == [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]
    assert odds.outcomes["ri1 falls back"] == Fraction(1, 9)


def melee(s, attackers, defenders, **situation):
    return s.execute(TableMelee(tuple(attackers), tuple(defenders), tuple(situation.items())))


def test_table_melee_front_ratings_and_the_loser_told_to_fall_back():
    battle = build(FAR)
    s, _ = session(battle, [1, 2, 3, 4, 5, 4, 5, 6, 6, 6], phase="melee")
    events = melee(s, ["bi"], ["ri1"])
    assert battle.units["ri1"].hits == 2 and battle.units["bi"].hits == 5   # 3 hits on 3 or less
    assert [e.unit for e in events if isinstance(e, FallBackOrdered)] == ["ri1"]
    assert battle.units["ri1"].pos == (46.5, 25.5)
    with pytest.raises(IllegalAction, match="already fought"):
        melee(s, ["bi"], ["ri2"])


def test_table_melee_terrain_minus_and_a_defender_taken_in_the_flank():
    battle = build(FAR)
    s, _ = session(battle, [1, 2, 3, 4, 5, 1, 2, 3, 4, 5], phase="melee")
    odds = s.ruleset.odds(battle, TableMelee(("bi",), ("ri1",), (("attacker_minus", 1),
                                                                   ("defender_front", False))))
    assert odds.lines[0].dist.mean() == Fraction(5 * 2, 6)          # 5 dice, 2 in 6
    assert odds.lines[1].dist.mean() == Fraction(5, 6)              # 5 dice, 1 in 6
    # each outcome once: a side falls back, draws, or its only unit is eliminated
    routed = [k for k in odds.outcomes if k.endswith("eliminated")]
    assert sum(odds.outcomes[k] for k in ("attackers fall back", "defenders fall back", "drawn")) \
        < 1 <= sum(odds.outcomes[k] for k in ("attackers fall back", "defenders fall back",
                                              "drawn", *routed))
    melee(s, ["bi"], ["ri1"], attacker_minus=1, defender_front=False)
    # attackers need 2 or less (3 - 1): 2 hits; the defender rates 1 off its front: 1 hit
    assert battle.units["ri1"].hits == 3 and battle.units["bi"].hits == 4


def test_table_actions_keep_to_their_phase():
    s, _ = session(build(FAR))
    with pytest.raises(IllegalAction, match="not allowed"):
        melee(s, ["bi"], ["ri1"])
    s.execute(EndPhase())
    with pytest.raises(IllegalAction, match="not allowed"):
        fire(s, {"range": 2})
