"""The Rally column and its modifiers, the general's influence and its risk, the recall."""
import pytest

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.model.forces import mark
from manager.rules.featherstone.moves import SoundRecall

FS = "featherstone"


def rally_session(kind="militia", hits=None, leaders=None, extra=(), y=18.0, options=None):
    """Blue's unit at (20, 18), disordered; the enemy to the north (by default far off)."""
    u = piece("b", "blue", kind, (20, y), **({"hits": hits} if hits else {}))
    extra = list(extra) or [piece("r", "red", "line_infantry", (20, 3))]
    b = build_table([u, *extra], FS, leaders=leaders, options=options)
    s, src = session_at(b, "initiative")
    s.battle.update_unit("b", disordered=True)
    s.execute(ga.EndPhase())                      # into blue's rally step
    return s, src


@pytest.mark.parametrize("face, kind, result", [
    (1, "militia", "rout"), (2, "militia", "fall_back"), (3, "militia", "no_rally"),
    (4, "militia", "rally_hold"), (5, "militia", "rally_half"), (6, "militia", "rally_full"),
    (5, "guard_infantry", "rally_charge"), (6, "line_infantry", "rally_charge")])
def test_the_rally_column(face, kind, result):
    s, src = rally_session(kind)
    src.push(face, 3)                             # the rout's D6 figures, if it comes
    s.execute(ga.Rally("", "b"))
    u = s.battle.units["b"]
    expect = {"rout": (True, 0), "fall_back": (True, 0), "no_rally": (True, 0),
              "rally_hold": (False, 0), "rally_half": (False, 0.5),
              "rally_full": (False, 1), "rally_charge": (False, 1)}[result]
    assert (u.disordered, mark(u, "allow", 1)) == expect
    if result == "rout":
        assert u.hits == 21 and u.y > 18 + 10
    if result == "fall_back":
        assert u.y > 18 + 5
    assert bool(mark(u, "must_charge")) == (result == "rally_charge")


def test_a_unit_that_lost_everything_worth_a_quarter_and_rolls_low_disperses():
    s, src = rally_session("militia", hits=17)    # 7 lost: -1
    src.push(1)
    s.execute(ga.Rally("", "b"))
    assert s.battle.units["b"].eliminated


@pytest.mark.parametrize("quality, attached, score", [(6, True, 3 + 2), (1, True, 3 - 2),
                                                      (5, False, 3 + 1), (2, False, 3 - 1)])
def test_generals_attached_or_within_four_inches_by_rating(quality, attached, score):
    pos = [20, 18] if attached else [20, 21]
    s, src = rally_session(leaders={"b1": {"pos": pos, "quality": quality}},
                           options={"general_influence": "rating"})
    src.push(3, 6)                               # morale 3, then the stray-round die if any
    events = s.execute(ga.Rally("" if attached else "b1-ldr", "b"))
    checks = [e for e in events if hasattr(e, "score")]
    assert checks[0].score == score


@pytest.mark.parametrize("attached, influence, score", [
    (True, None, 3 + 2), (True, -1, 3 - 1), (True, 0, 3), (False, None, 3 + 1),
    (False, -1, 3 - 1)])
def test_the_player_chooses_the_generals_modifier(attached, influence, score):
    """The design notes: commanders influence the roll "at the player's whim", up to
    +/-2 (attached) or +/-1 (within 4 inches); a poor rating does not cap it."""
    pos = [20, 18] if attached else [20, 21]
    s, src = rally_session(leaders={"b1": {"pos": pos, "quality": 1}})
    src.push(3)
    events = s.execute(ga.Rally("b1-ldr", "b", influence))
    assert [e for e in events if hasattr(e, "score")][0].score == score


def test_a_generals_modifier_beyond_his_reach_is_refused():
    s, _ = rally_session(leaders={"b1": {"pos": [20, 21], "quality": 5}})
    with pytest.raises(IllegalAction, match="-1 to \\+1"):
        s.execute(ga.Rally("b1-ldr", "b", 2))


def test_influence_near_the_enemy_risks_a_stray_round():
    s, src = rally_session(leaders={"b1": {"pos": [20, 21], "quality": 5}},
                           extra=[piece("r", "red", "line_infantry", (20, 14))])
    src.push(6, 1)                               # morale 6; then the stray round: a 1 kills
    s.execute(ga.Rally("b1-ldr", "b"))
    assert s.battle.leaders["b1-ldr"].eliminated
    s, src = rally_session(leaders={"b1": {"pos": [20, 21], "quality": 5}})
    src.push(6)                                  # no enemy within 8: no stray-round roll
    s.execute(ga.Rally("b1-ldr", "b"))
    assert not s.battle.leaders["b1-ldr"].eliminated and not src.pending


def test_a_general_beyond_four_inches_cannot_lend_influence():
    s, _ = rally_session(leaders={"b1": {"pos": [20, 24], "quality": 5}})
    with pytest.raises(IllegalAction, match="more than 4 inches"):
        s.check(ga.Rally("b1-ldr", "b"))


def test_rally_checks_are_mandatory_end_phase_rolls_them():
    s, src = rally_session()
    src.push(6)
    s.execute(ga.EndPhase())
    assert not s.battle.units["b"].disordered


def test_canister_range_or_contact_costs_one_on_the_rally_only():
    s, src = rally_session(extra=[piece("g", "red", "foot_artillery", (20, 12))])
    src.push(5)                                  # 5 - 1 = 4: rally, no move
    s.execute(ga.Rally("", "b"))
    assert mark(s.battle.units["b"], "allow") == 0


def test_sound_the_recall():
    s, src = rally_session("light_cavalry", y=12,
                           extra=[piece("r", "red", "line_infantry", (20, 6))])
    src.push(3)                                  # 3 + 1 = 4: rally, no move, within 8 in
    s.execute(ga.Rally("", "b"))
    while s.battle.state.phase != "moves":
        s.execute(ga.EndPhase())
    y = s.battle.units["b"].y
    s.execute(SoundRecall("b"))
    u = s.battle.units["b"]
    assert u.y > y + 10 and u.disordered


def test_the_recall_is_refused_the_turn_after_a_charge():
    s, src = rally_session("light_cavalry", y=12,
                           extra=[piece("r", "red", "line_infantry", (20, 6))])
    s.battle.mark_unit("b", impetuous=s.battle.state.turn - 1)
    src.push(3)
    s.execute(ga.Rally("", "b"))
    while s.battle.state.phase != "moves":
        s.execute(ga.EndPhase())
    with pytest.raises(IllegalAction, match="recalled"):
        s.check(SoundRecall("b"))


def test_initiative_high_roller_chooses_step_by_step():
    b = build_table([piece("b", "blue", "line_infantry", (20, 30))], FS, first="roll")
    s, src = session_at(b, "initiative", faces=[2, 5])
    assert s.battle.state.active == "red"
    s.execute(ga.ChooseInitiative("blue", ("charges",)))
    s.execute(ga.EndPhase())
    assert (s.battle.state.phase, s.battle.state.active) == ("rally", "red")
    while s.battle.state.phase != "charges":
        s.execute(ga.EndPhase())
    assert s.battle.state.active == "blue"
