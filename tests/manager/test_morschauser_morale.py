"""Command and army morale, leaders, rally, and the turn sequence."""
import pytest

from builders import build, centre, session, unit
from manager import game_actions as ga
from manager.dice import QueueSource
from manager.errors import IllegalAction
from manager.grid import box_distance
from manager.session import Session


def box(s, uid):
    u = s.battle.units[uid]
    return int(u.x // 3), int(u.y // 3)


def two_unit_command():
    return [unit("b", "blue", "light_infantry", (5, 5)),
            unit("r1u", "red", "militia", (7, 5), hits=1),
            unit("r2u", "red", "line_infantry", (10, 5)),
            unit("x", "red", "line_infantry", (10, 9), command="r2")]


def test_half_the_units_removed_shakes_the_command_which_retreats_four_boxes():
    s, src = session(build(two_unit_command(), width=20), [6, 1, 1])
    events = s.execute(ga.Fire("b", "r1u"))
    assert s.battle.units["r1u"].eliminated
    assert s.battle.state.shaken == {"r1"}
    assert box(s, "r2u") == (14, 5), "12 inches = 4 boxes toward red's home edge (east)"
    assert box(s, "x") == (10, 9), "another command is untouched"
    assert any(e.__class__.__name__ == "CommandShaken" for e in events)


def test_army_concedes_when_all_commands_are_shaken():
    s, _ = session(build(two_unit_command(), width=20), [6, 1, 1])
    s.execute(ga.Fire("b", "r1u"))
    assert not s.battle.state.over, "one of red's two commands is Shaken: not all"


def test_army_concedes_at_half_with_the_large_battle_option():
    s, _ = session(build(two_unit_command(), width=20, options={"army_morale": "half"}), [6, 1, 1])
    s.execute(ga.Fire("b", "r1u"))
    st = s.battle.state
    assert st.over and st.winner == "blue" and "concedes" in st.reason
    with pytest.raises(IllegalAction, match="battle is over"):
        s.check(ga.EndPhase())


def test_kutusov_russian_infantry_neither_fall_back_nor_retreat():
    opts = {"national_characteristics": True}
    gens = {"red": {"trait": "kutusov", "at": [19, 0]}}
    s, _ = session(build(two_unit_command(), width=20, options=opts, generals=gens), [6, 1, 1])
    s.execute(ga.Fire("b", "r1u"))
    assert s.battle.state.shaken == {"r1"} and box(s, "r2u") == (10, 5)
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5))]
    s, _ = session(build(units, options=opts, generals=gens), [5, 5, 5])
    s.execute(ga.Fire("b", "r"))
    assert box(s, "r") == (7, 5) and s.battle.units["r"].hits == 5


@pytest.mark.parametrize("quality,face,regained", [
    (3, 2, 0), (3, 3, 1), (4, 6, 1), (5, 6, 2), (6, 5, 2), (1, 4, 0), (2, 3, 0), (2, 4, 1),
])
def test_rally_table_with_leader_quality(quality, face, regained):
    units = [unit("b", "blue", "grenadiers", (5, 5), hits=2)]
    b = build(units, leaders={"b1": {"at": (3, 5), "quality": quality}})
    s, src = session(b, [face], phase="rally")
    s.execute(ga.Rally("b1-ldr", "b"))
    assert s.battle.units["b"].hits == 2 + regained
    assert not s.is_legal(ga.Rally("b1-ldr", "b")), "one unit a turn"


def test_rally_never_exceeds_full_strength_and_needs_a_loss_and_six_boxes():
    units = [unit("b", "blue", "line_infantry", (5, 5), hits=4), unit("c", "blue", "line_infantry", (12, 5), hits=1),
             unit("f", "blue", "line_infantry", (5, 7))]
    b = build(units, leaders={"b1": {"at": (4, 5), "quality": 6}})
    s, _ = session(b, [6], phase="rally")
    with pytest.raises(IllegalAction, match="lost no hits"):
        s.check(ga.Rally("b1-ldr", "f"))
    with pytest.raises(IllegalAction, match="8 boxes from"):
        s.check(ga.Rally("b1-ldr", "c"))
    s.execute(ga.Rally("b1-ldr", "b"))
    assert s.battle.units["b"].hits == 5


def test_napoleon_adds_one_to_french_rallies():
    opts = {"national_characteristics": True}
    units = [unit("b", "blue", "line_infantry", (5, 5), hits=1)]
    b = build(units, options=opts, generals={"blue": {"trait": "napoleon", "at": [0, 0]}},
              leaders={"b1": {"at": (4, 5), "quality": 5}})
    s, _ = session(b, [5], phase="rally")
    s.execute(ga.Rally("b1-ldr", "b"))
    assert s.battle.units["b"].hits == 3, "5 + 1 (good) + 1 (Napoleon) = 7: two hits"


@pytest.mark.parametrize("faces,after", [([3, 4], 3), ([1, 6], 1), ([6, 1], 1)])
def test_archduke_charles_two_attempts_a_one_is_a_seizure(faces, after):
    """Two rally attempts (two Rally actions); a 1 on either and no rallying that turn."""
    opts = {"national_characteristics": True}
    units = [unit("b", "blue", "grenadiers", (5, 5), hits=1)]
    b = build(units, options=opts, generals={"blue": {"trait": "archduke_charles", "at": [4, 5]}})
    s, _ = session(b, faces, phase="rally")
    s.execute(ga.Rally("blue-gen", "b"))
    if faces[0] != 1:
        s.execute(ga.Rally("blue-gen", "b"))
    assert s.battle.units["b"].hits == after
    assert not s.is_legal(ga.Rally("blue-gen", "b"))


def test_leader_with_two_hits_falls_and_his_units_move_half_speed():
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5)),
             unit("r2u", "red", "light_cavalry", (10, 8))]
    b = build(units, leaders={"r1": {"at": (7, 5)}})
    b.update_leader("r1-ldr", hits=1)
    s, _ = session(b, [1, 1, 1, 1, 2])
    events = s.execute(ga.Fire("b", "r"))
    assert s.battle.leaders["r1-ldr"].eliminated
    assert "LeaderFell" in [e.__class__.__name__ for e in events]
    for _ in range(3):                                   # blue melee, red rally, red move
        s.execute(ga.EndPhase())
    assert (s.battle.state.active, s.battle.state.phase) == ("red", "move")
    assert s.is_legal(ga.MoveUnit("r2u", centre((7, 8)), 270))
    assert not s.is_legal(ga.MoveUnit("r2u", centre((6, 8)), 270)), "5 halved, rounded up, is 3"


def test_leader_quality_rolled_at_the_start_when_the_option_says():
    b = build([unit("b", "blue", "line_infantry", (5, 5))], options={"leader_quality": "rolled"})
    leaders = sorted(b.leaders)                          # rolled in id order
    src = QueueSource([1, 6] + [5] * (len(leaders) - 2))
    s = Session(b, src)
    s.execute(ga.StartBattle())
    assert s.battle.leaders[leaders[0]].quality == 1
    assert s.battle.leaders[leaders[1]].quality == 6
    assert all("leader quality" in r.purpose for r in s.entries[0].rolls)


def test_first_side_is_diced_for_ties_rolled_again():
    b = build([unit("b", "blue", "line_infantry", (5, 5))], first="roll")
    s = Session(b, QueueSource([3, 3, 2, 5]))
    s.execute(ga.StartBattle())
    assert s.battle.state.active == "red" and s.battle.state.order == ("red", "blue")
    assert len(s.entries[0].rolls) == 4


def test_phases_alternate_by_side_and_turns_count():
    s, _ = session(build([unit("b", "blue", "line_infantry", (5, 5))], turns=2), phase="rally")
    seen = []
    while not s.battle.state.over:
        st = s.battle.state
        seen.append((st.turn, st.active, st.phase))
        s.execute(ga.EndPhase())
    assert seen == [(t, side, p) for t in (1, 2) for side in ("blue", "red")
                    for p in ("rally", "move", "melee")]
    assert s.battle.state.winner is None and "turn limit" in s.battle.state.reason


def test_actions_outside_their_phase_are_refused_with_the_phase_named():
    s, _ = session(build([unit("b", "blue", "line_infantry", (5, 5))]), phase="rally")
    with pytest.raises(IllegalAction, match="not allowed in the Rally phase"):
        s.check(ga.MoveUnit("b", centre((6, 5)), 90))


def test_spanish_militia_leave_guerillas_five_boxes_from_any_enemy():
    opts = {"national_characteristics": True}
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "militia", (7, 5), hits=1),
             unit("r2u", "red", "militia", (12, 9)), unit("r3u", "red", "militia", (13, 9))]
    s, _ = session(build(units, width=20, options=opts, nations=("france", "spain")), [6, 1, 1])
    events = s.execute(ga.Fire("b", "r"))
    g = s.battle.units["guerillas-1"]
    gbox = (int(g.x // 3), int(g.y // 3))
    assert g.hits == 1 and g.kind == "militia" and g.side == "red"
    assert box_distance(gbox, (5, 5)) >= 5, "at least 5 boxes from the enemy"
    assert "guerillas-1" in s.battle.hierarchy.units_of("r1")
    assert any(e.__class__.__name__ == "UnitPlaced" for e in events)
    s.undo()
    assert "guerillas-1" not in s.battle.units, "undo takes the stand back"


def test_army_composition_refuses_british_militia():
    from manager.dice import QueueSource
    units = [unit("b", "blue", "militia", (5, 5)), unit("r", "red", "line_infantry", (9, 5))]
    b = build(units, options={"army_composition": True}, nations=("britain", "france"))
    s = Session(b, QueueSource())
    with pytest.raises(IllegalAction, match="Great Britain fields no Militia"):
        s.execute(ga.StartBattle())


@pytest.mark.parametrize("quality,hits,trait", [(3, 2, ""), (5, 1, ""), (6, 4, ""),
                                                (3, 1, "archduke_charles")])
def test_rally_odds_match_the_resolver_face_by_face(quality, hits, trait):
    """The exact rally odds (issue 21: the turn runner shows them) agree with what the
    resolver does on every combination of faces."""
    from fractions import Fraction
    from itertools import product
    opts = {"national_characteristics": True}
    units = [unit("b", "blue", "grenadiers", (5, 5), hits=hits)]
    gens = {"blue": {"trait": trait, "at": [4, 5]}} if trait else None

    def fresh():
        return build(units, options=opts, generals=gens,
                     leaders=None if trait else {"b1": {"at": (3, 5), "quality": quality}})
    leader = "blue-gen" if trait else "b1-ldr"
    s, _ = session(fresh(), [], phase="rally")
    odds = s.ruleset.odds(s.battle, ga.Rally(leader, "b"))
    n = 1                                   # one die an attempt (Karl makes two attempts)
    seen = [Fraction(0)] * 7
    for faces in product(range(1, 7), repeat=n):
        probe, _ = session(fresh(), list(faces), phase="rally")
        probe.execute(ga.Rally(leader, "b"))
        seen[probe.battle.units["b"].hits - hits] += Fraction(1, 6 ** n)
    dist = odds.lines[0].dist.probabilities()
    assert [Fraction(p) for p in dist] == seen[:len(dist)] and sum(seen[len(dist):]) == 0
