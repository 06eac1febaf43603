"""Melee clauses: who fights, dice and ratings, the loser's fall back, with manual dice."""
import pytest

from builders import area, build, line, session, unit
from manager import game_actions as ga
from manager.errors import IllegalAction


def box(s, uid):
    u = s.battle.units[uid]
    return int(u.x // 3), int(u.y // 3)


def melee(battle, faces, defender="r", joiners=()):
    s, src = session(battle, faces, phase="melee")
    events = s.execute(ga.ResolveMelee(defender, tuple(joiners)))
    assert not src.pending, f"faces left over: {src.pending}"
    return s, events, s.entries[-1].rolls


HEAD_ON = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (6, 5))]


def test_attackers_facing_into_an_enemy_box_fight():
    s, _ = session(build(HEAD_ON), phase="melee")
    ms = s.ruleset.melees(s.battle)
    assert [(m.defender, m.attackers) for m in ms] == [("r", ["b"])]
    with pytest.raises(IllegalAction, match="still to resolve"):
        s.check(ga.EndPhase())


def test_dice_equal_hits_and_a_die_at_or_under_the_rating_hits():
    # blue: 5 dice, front 3 -> 1,2,3 hit (3); red: 5 dice, front 3 -> 1 hits (1)
    s, events, rolls = melee(build(HEAD_ON), [1, 2, 3, 4, 5, 1, 4, 5, 6, 6])
    assert [len(r.faces) for r in rolls] == [5, 5]
    assert s.battle.units["r"].hits == 2 and s.battle.units["b"].hits == 4
    assert box(s, "r") == (8, 5) and s.battle.units["r"].facing == 270, "red lost: 2 boxes back, facing blue"
    assert box(s, "b") == (5, 5)


def test_a_drawn_melee_moves_nobody():
    s, _, _ = melee(build(HEAD_ON), [1, 6, 6, 6, 6, 2, 6, 6, 6, 6])
    assert box(s, "r") == (6, 5) and box(s, "b") == (5, 5)
    assert s.battle.units["r"].hits == 4 and s.battle.units["b"].hits == 4


def test_attacker_losing_falls_back():
    s, _, _ = melee(build(HEAD_ON), [6, 6, 6, 6, 6, 1, 6, 6, 6, 6])
    assert box(s, "b") == (3, 5) and s.battle.units["b"].facing == 90


def test_flank_attack_defender_uses_its_other_rating():
    units = [unit("b", "blue", "line_infantry", (6, 4), facing=180),
             unit("r", "red", "line_infantry", (6, 5))]           # red faces west: b is on its flank
    s, _, rolls = melee(build(units), [4, 4, 4, 4, 4, 1, 2, 2, 2, 2])
    assert s.battle.units["b"].hits == 4, "Other rating 1: only the 1 hits"
    assert s.battle.units["r"].hits == 5, "blue's 4s miss its front rating 3"


@pytest.mark.parametrize("terrain,why", [
    ([area("hill", 6, 5, 6, 5)], "attacking uphill"),
    ([line("stream", (5, 0), (5, 11))], "attacking from a stream"),
    ([area("town", 6, 5, 6, 5)], "attacking units in buildings"),
])
def test_attacker_minus_one_for_uphill_stream_buildings(terrain, why):
    s, _, _ = melee(build(HEAD_ON, terrain), [3, 3, 2, 6, 6, 6, 6, 6, 6, 6])
    assert s.battle.units["r"].hits == 5 - 1, f"{why}: rating 2, the 3s miss"


def test_attacking_into_woods_is_minus_one():
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "light_infantry", (6, 5))]
    s, _, _ = melee(build(units, [area("woods", 6, 5, 6, 5)]), [2, 1, 1, 1, 6, 6, 6, 6])
    assert s.battle.units["r"].hits == 4 - 3, "light infantry front 2 becomes 1"


def test_shaken_command_fights_at_minus_one():
    b = build(HEAD_ON)
    b.set_state(shaken=frozenset({"r1"}))
    s, _, _ = melee(b, [6, 6, 6, 6, 6, 3, 2, 2, 6, 6])
    assert s.battle.units["b"].hits == 5 - 2


def test_a_defender_with_the_attacker_in_its_zone_may_join():
    units = HEAD_ON + [unit("j", "red", "grenadiers", (6, 6))]  # j faces west: (5,5) is in its zone
    s, _ = session(build(units), phase="melee")
    m = s.ruleset.melees(s.battle)[0]
    assert m.may_join == ["j"]
    faces = [6] * 5 + [6] * 5 + [1, 2, 3, 4, 6, 6]   # j: 6 dice, front 4
    s, _, rolls = melee(build(units), faces, joiners=["j"])
    assert s.battle.units["b"].hits == 1 and box(s, "b") == (3, 5)


def test_a_leader_in_the_box_fights_and_rolls_for_a_hit():
    b = build(HEAD_ON, leaders={"r1": (6, 5)})
    # blue 5 dice, red 5 dice, red's leader 2 dice at 2, then the leader's 2D6 check
    s, _, rolls = melee(b, [6] * 5 + [6] * 5 + [1, 2] + [1, 2])
    assert [r.expression for r in rolls] == ["5D6", "5D6", "2D6", "2D6"]
    assert s.battle.units["b"].hits == 3 and s.battle.leaders["r1-ldr"].hits == 1


def test_fall_back_passes_through_friends():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (6, 5)),
             unit("w", "red", "line_infantry", (7, 5), facing=90),
             unit("w2", "red", "line_infantry", (7, 4), facing=90),
             unit("w3", "red", "line_infantry", (7, 6), facing=90)]
    faces = [1, 1, 1, 6, 6, 6, 6, 6, 6, 6]
    for option in ("stop", "hit_per_box"):
        s, _, _ = melee(build(units, options={"blocked_fall_back": option}), faces)
        assert box(s, "r") == (8, 5) and s.battle.units["r"].hits == 5 - 3


def test_fall_back_blocked_by_enemies_stops_or_costs_a_hit_a_box():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (6, 5)),
             unit("e", "blue", "line_infantry", (7, 5), facing=90),
             unit("e2", "blue", "line_infantry", (7, 4), facing=90),
             unit("e3", "blue", "line_infantry", (7, 6), facing=90)]
    faces = [1, 1, 1, 6, 6, 6, 6, 6, 6, 6]
    s, _, _ = melee(build(units), faces)                      # the text's reading: it stops
    assert box(s, "r") == (6, 5) and s.battle.units["r"].hits == 5 - 3
    s, _, _ = melee(build(units, options={"blocked_fall_back": "hit_per_box"}), faces)
    assert box(s, "r") == (6, 5) and s.battle.units["r"].hits == 5 - 3 - 2


def test_squares_and_columns_roll_an_extra_die_squares_have_no_flank():
    units = [unit("b", "blue", "line_infantry", (6, 4), facing=180),
             unit("r", "red", "line_infantry", (6, 5), formation="square")]
    s, _, rolls = melee(build(units, options={"formations": True}), [6] * 5 + [3, 6, 6, 6, 6, 6])
    assert len(rolls[1].faces) == 6 and s.battle.units["b"].hits == 4, "square: front 3 from any side"


def test_blucher_prussian_militia_add_a_die_attacking():
    opts = {"national_characteristics": True}
    gens = {"blue": {"trait": "blucher", "at": [0, 0]}}
    units = [unit("b", "blue", "militia", (5, 5), nation="prussia"),
             unit("r", "red", "line_infantry", (6, 5))]
    s, _, rolls = melee(build(units, options=opts, generals=gens), [6] * 5 + [6] * 5)
    assert len(rolls[0].faces) == 5, "4 hits + 1 attacking"


def test_eliminated_units_are_removed_and_never_act():
    units = [unit("b", "blue", "guard_infantry", (5, 5)), unit("r", "red", "militia", (6, 5), hits=1),
             unit("r9x", "red", "line_infantry", (15, 5), command="r2")]
    s, events, _ = melee(build(units), [1] + [6] * 7 + [6])
    assert s.battle.units["r"].eliminated
    assert s.ruleset.melees(s.battle) == []
    s.execute(ga.EndPhase())                     # red's turn begins
    s.execute(ga.EndPhase())
    with pytest.raises(IllegalAction, match="eliminated"):
        s.check(ga.MoveUnit("r", (19.5, 16.5), 270))
