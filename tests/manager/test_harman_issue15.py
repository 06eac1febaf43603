"""Issue 15: the Harman defects found by the independent reading, with typed dice.

Faces: 1 Officer, 2-3 Target, 4 Flag, 5 Fire, 6 Sabre. A trained unit throws 3 dice and
has CV 7. Blue faces east, red west; blue moves first.
"""
from fractions import Fraction

import pytest

from builders import build, unit
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.model.forces import mark
from manager.rules.harman.board import box, spent
from manager.rules.harman.fire import fire_odds
from manager.rules.harman.tactical import suffer
from manager.dice import QueueSource
from manager.session import Session


def battle(units, **kw):
    return build(units, ruleset="harman",
                 options={"army_morale": "off", **kw.pop("options", {})}, **kw)


def to_move(b):
    """Through both artillery phases and the initiative: blue rolls low and moves first."""
    src = QueueSource()
    s = Session(b, src)
    s.execute(ga.StartBattle())
    s.execute(ga.EndPhase())
    src.push(1, 6)
    s.execute(ga.EndPhase())
    s.execute(ga.EndPhase())
    return s, src


def where(s, uid):
    return box(s.battle, s.battle.units[uid])


def next_blue_move(s, src):
    s.execute(ga.EndPhase())                 # blue's move ends: red moves
    s.execute(ga.EndPhase())                 # red's move ends: turn 2, artillery
    s.execute(ga.EndPhase())
    src.push(1, 6)                           # blue rolls low and chooses
    s.execute(ga.EndPhase())
    s.execute(ga.EndPhase())
    assert (s.battle.state.phase, s.battle.state.active) == ("move", "blue")


def test_a_retreat_goes_directly_away_from_the_enemy():
    s, src = to_move(battle([unit("b", "blue", "line_infantry", (5, 5)),
                             unit("r", "red", "line_infantry", (7, 5))]))
    src.push(4, 4, 4)                        # three Flags = quality: halts and retires
    s.execute(ga.Fire("b", "r"))
    assert where(s, "r") == (8, 5)           # east, away from blue; not north or south


def test_halt_and_retire_is_not_spent_and_a_general_who_joins_it_rallies_it_on_a_six():
    b = battle([unit("b", "blue", "line_infantry", (5, 5)),
                unit("r", "red", "line_infantry", (7, 5))], leaders={"r1": (8, 5)})
    s, src = to_move(b)
    src.push(4, 4, 4)
    s.execute(ga.Fire("b", "r"))
    r = s.battle.units["r"]
    assert mark(r, "retiring") and not spent(r) and r.hits == 7
    events: list = []
    suffer(s.battle, "r", 1, 0, 0, None, events, (5, 5))     # one more Target hit
    assert not s.battle.units["r"].eliminated and s.battle.units["r"].hits == 6
    s.execute(ga.EndPhase())                 # red's move: the General has joined it:
    assert where(s, "r") == (8, 5) and not s.battle.units["r"].moved     # it halts
    with pytest.raises(IllegalAction, match="fired upon"):   # "not charged or fired upon
        s.check(ga.Rally("r1-ldr", "r"))                     # that turn"
    src.push(1, 2)                           # turn 2's initiative: blue throws low
    while (s.battle.state.turn, s.battle.state.phase, s.battle.state.active) != (2, "move", "red"):
        s.execute(ga.EndPhase())
    assert where(s, "r") == (8, 5) and not s.battle.units["r"].moved     # held for the rally
    src.push(6)
    s.execute(ga.Rally("r1-ldr", "r"))
    assert not mark(s.battle.units["r"], "retiring")


def test_a_spent_unit_still_routs_on_any_further_hit():
    s, src = to_move(battle([unit("b", "blue", "line_infantry", (5, 5)),
                             unit("r", "red", "line_infantry", (7, 5), hits=1)]))
    src.push(2, 5, 5)                        # a Target: all CV lost
    s.execute(ga.Fire("b", "r"))
    assert spent(s.battle.units["r"])
    events: list = []
    suffer(s.battle, "r", 1, 0, 0, None, events, (5, 5))
    assert s.battle.units["r"].eliminated


def test_close_combat_with_no_decision_after_two_turns_both_retire():
    s, src = to_move(battle([unit("b", "blue", "line_infantry", (5, 5)),
                             unit("r", "red", "line_infantry", (7, 5))]))
    src.push(5, 5, 5, 5, 5, 5)               # no Flag, no Sabre; the defenders fire, no Target
    s.execute(ga.Charge("b", "r"))           # turn 1 of the close combat
    assert mark(s.battle.units["b"], "engaged") == "r"
    next_blue_move(s, src)
    src.push(5, 5, 5, 5, 5, 5)               # turn 2: no decision
    s.execute(ga.ResolveMelee("r"))
    assert not mark(s.battle.units["b"], "engaged")
    assert where(s, "b") == (5, 5) and where(s, "r") == (8, 5)


def test_infantry_that_fired_may_not_then_march_two_squares():
    s, src = to_move(battle([unit("b", "blue", "line_infantry", (3, 5)),
                             unit("r", "red", "line_infantry", (5, 5))]))
    src.push(5, 5, 5)
    s.execute(ga.Fire("b", "r"))
    with pytest.raises(IllegalAction, match="cannot reach"):
        s.check(ga.MoveUnit("b", (1.5 * 3, 5.5 * 3), 90))   # two squares back
    s.execute(ga.MoveUnit("b", (2.5 * 3, 5.5 * 3), 90))     # one square: a tactical move


def test_foot_artillery_that_moved_and_unlimbered_fires_next_turn():
    s, src = to_move(battle([unit("g", "blue", "foot_artillery", (2, 5), formation="limbered"),
                             unit("r", "red", "line_infantry", (6, 5))]))
    s.execute(ga.MoveUnit("g", (3.5 * 3, 5.5 * 3), 90, "line"))   # a square, unlimbered
    with pytest.raises(IllegalAction, match="next turn"):
        s.check(ga.Fire("g", "r"))


def test_flags_from_two_volleys_in_a_turn_add_up():
    s, src = to_move(battle([unit("x1", "blue", "line_infantry", (5, 4)),
                             unit("x2", "blue", "line_infantry", (5, 6)),
                             unit("r", "red", "line_infantry", (7, 5))]))
    src.push(4, 5, 5)
    s.execute(ga.Fire("x1", "r"))            # one Flag: a die less
    assert mark(s.battle.units["r"], "halted") is None
    src.push(4, 5, 5)
    s.execute(ga.Fire("x2", "r"))            # a second Flag this turn: it halts
    assert mark(s.battle.units["r"], "halted") == 1


def test_flags_judged_throw_by_throw_is_an_option():
    s, src = to_move(battle([unit("x1", "blue", "line_infantry", (5, 4)),
                             unit("x2", "blue", "line_infantry", (5, 6)),
                             unit("r", "red", "line_infantry", (7, 5))],
                            options={"flags_add": "throw"}))
    src.push(4, 5, 5, 4, 5, 5)
    s.execute(ga.Fire("x1", "r"))
    s.execute(ga.Fire("x2", "r"))
    assert mark(s.battle.units["r"], "halted") is None


def test_skirmishers_do_not_fire_through_an_enemy_skirmish_screen():
    s, src = to_move(battle([unit("s1", "blue", "skirmishers", (5, 5)),
                             unit("sk", "red", "skirmishers", (6, 5)),
                             unit("r", "red", "line_infantry", (7, 5))]))
    with pytest.raises(IllegalAction, match="screened"):
        s.check(ga.Fire("s1", "r"))


def test_cavalry_charged_by_infantry_never_fire_back():
    s, src = to_move(battle([unit("b", "blue", "line_infantry", (5, 5)),
                             unit("r", "red", "light_cavalry", (7, 5))]))
    src.push(5, 5, 5, 2, 2, 2)               # the horse throws Targets: no hits (no fire)
    s.execute(ga.Charge("b", "r"))
    assert s.battle.units["b"].hits == 7 and mark(s.battle.units["b"], "engaged") == "r"


def test_a_general_killed_costs_nothing_more_than_the_general():
    b = battle([unit("b", "blue", "line_infantry", (5, 5)),
                unit("r", "red", "line_infantry", (7, 5))], leaders={"r1": (7, 5)})
    s, src = to_move(b)
    src.push(2, 1, 5, 1)                     # a Target and an Officer; his die: 1, killed
    events = s.execute(ga.Fire("b", "r"))
    text = " ".join(e.describe() for e in events)
    assert s.battle.leaders["r1-ldr"].eliminated and "killed" in text
    assert "half speed" not in text


def test_fire_odds_show_a_die_less_and_at_least_one_flag():
    s, _ = to_move(battle([unit("b", "blue", "line_infantry", (5, 5)),
                           unit("r", "red", "line_infantry", (7, 5))]))
    out = fire_odds(s.battle, ga.Fire("b", "r")).outcomes
    assert out["at least one Flag"] == 1 - Fraction(5, 6) ** 3
    assert out["a die less this turn (one Flag)"] == 3 * Fraction(1, 6) * Fraction(5, 6) ** 2
