"""Featherstone-like shooting, clause by clause, with the dice typed in.

Blue stands at (20, 20) facing north; a line is 3 x 1 inches, so a red line facing
south at (20, y) is 19 - y inches away, edge to edge.
"""
import pytest

from builders import build_table, piece, rect, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone.shot_odds import casualty_dist
from manager.rules.featherstone.fire import shot_spec
from manager.rules.featherstone.state import dice_for, firing_figures, melee_figures

FS = "featherstone"


def duel(red_y, blue_kind="line_infantry", red_kind="line_infantry", terrain=(), **kw):
    units = [piece("b", "blue", blue_kind, (20, 20), **kw.pop("blue", {})),
             piece("r", "red", red_kind, (20, red_y), **kw.pop("red", {}))]
    return build_table(units, FS, terrain=terrain, **kw)


@pytest.mark.parametrize("figures, dice", [(24, 5), (23, 5), (22, 4), (20, 4), (8, 2),
                                           (7, 1), (5, 1), (3, 1), (2, 0)])
def test_a_die_per_five_figures_three_or_four_left_over_roll_one_more(figures, dice):
    assert dice_for(figures) == dice


@pytest.mark.parametrize("formation, fire, melee", [("line", 24, 24), ("column", 16, 24),
                                                    ("march_column", 8, 12),
                                                    ("square", 6, 12), ("extended", 24, 24)])
def test_two_ranks_fire_three_fight_a_square_a_quarter_and_a_half(formation, fire, melee):
    b = duel(10, blue={"formation": formation} if formation != "extended" else {},
             blue_kind="light_infantry" if formation == "extended" else "line_infantry")
    if formation == "extended":
        b = duel(10, blue_kind="light_infantry", blue={"formation": "extended"})
    u = b.units["b"]
    assert (firing_figures(u), melee_figures(u)) == (fire, melee)


@pytest.mark.parametrize("red_y, band, number", [(17.5, "short", 4), (16.0, "medium", 3),
                                                  (12.0, "long", 2)])
def test_musket_range_bands_give_the_number_to_roll_under(red_y, band, number):
    b = duel(red_y)
    shot = shot_spec(b, b.units["b"], b.units["r"])
    assert (shot.band, shot.number, shot.dice) == (band, number, 5)


def test_beyond_long_range_is_refused_and_rifles_reach_sixteen():
    b = duel(10)
    with pytest.raises(IllegalAction, match="beyond"):
        shot_spec(b, b.units["b"], b.units["r"])
    b = duel(10, blue_kind="rifles")
    assert shot_spec(b, b.units["b"], b.units["r"]).band == "long"     # 9 in: rifle long


def test_the_worked_example_dice_at_or_under_the_number_are_summed_then_saved():
    # 5 dice at short range (4 or less): 1, 4, 5, 2, 6 -> 1 + 4 + 2 = 7 hits
    # 7 saving dice at 5+: 5, 6 save -> 5 figures lost
    s, src = session_at(duel(17.5), "fire_first", side="blue")
    src.push(1, 4, 5, 2, 6, 5, 6, 1, 1, 1, 1, 1)
    events = s.execute(ga.Fire("b", "r"))
    assert s.battle.units["r"].hits == 19 and s.battle.units["r"].disordered
    assert any("saves 2 of 7" in e.describe() for e in events)


def test_disordered_shooters_halve_rounding_up_and_a_flank_adds_one():
    b = duel(17.5, blue={"facing": 0})
    s, src = session_at(b, "fire_first", side="blue")
    s.battle.update_unit("b", disordered=True)
    s.battle.mark_unit("b", was_disordered=True)    # disordered as the fire step began
    src.push(1, 4, 5, 2, 6, *[1] * 4)          # 7 hits halved -> 4; four saving dice fail
    s.execute(ga.Fire("b", "r"))
    assert s.battle.units["r"].hits == 20
    # the same shot into the target's flank: red faces east, blue is beyond its side
    b = duel(17.5, red={"facing": 90})
    shot = shot_spec(b, b.units["b"], b.units["r"])
    assert shot.number == 5


def test_units_and_woods_block_the_line_of_sight():
    b = build_table([piece("b", "blue", "line_infantry", (20, 20)),
                     piece("r", "red", "line_infantry", (20, 13)),
                     piece("b2", "blue", "line_infantry", (20, 16.5))], FS)
    with pytest.raises(IllegalAction, match="in the way"):
        shot_spec(b, b.units["b"], b.units["r"])
    b = duel(13, terrain=[rect("woods", 15, 15.5, 25, 17)])
    with pytest.raises(IllegalAction, match="woods blocks"):
        shot_spec(b, b.units["b"], b.units["r"])


@pytest.mark.parametrize("where, save", [((), 5), ("skirmish", 4), ("town", 4),
                                         ("fortified", 3), ("armoured", 4)])
def test_saving_rolls_by_troop_type_and_cover(where, save):
    terrain, red_kind, red = [], "line_infantry", {}
    if where == "skirmish":
        red_kind, red = "skirmishers", {"formation": "extended"}
    elif where in ("town", "fortified"):
        terrain = [rect("town", 16, 11, 24, 15, **({"variant": "fortified"}
                                                     if where == "fortified" else {}))]
    elif where == "armoured":
        red_kind, red = "heavy_cavalry", {"traits": ["armoured"]}
    b = duel(13, blue_kind="rifles", red_kind=red_kind, terrain=terrain, red=red)
    assert shot_spec(b, b.units["b"], b.units["r"]).save == save


def test_infantry_in_woods_add_one_to_the_saving_die():
    b = duel(12, blue_kind="rifles", terrain=[rect("woods", 16, 8, 24, 12.6)])
    shot = shot_spec(b, b.units["b"], b.units["r"])
    assert (shot.save, shot.save_bonus) == (5, 1)


@pytest.mark.parametrize("gap, band, to_hit", [(7, "canister", 0), (12, "short", 2),
                                               (20, "medium", 3), (30, "long", 4),
                                               (38, "extreme", 5)])
def test_field_artillery_bands(gap, band, to_hit):
    b = build_table([piece("g", "blue", "foot_artillery", (20, 45)),
                     piece("r", "red", "line_infantry", (20, 45 - 0.75 - 0.5 - gap))],
                    FS, height=60)
    shot = shot_spec(b, b.units["g"], b.units["r"])
    assert (shot.band, shot.to_hit) == (band, to_hit)


def test_canister_close_range_rolls_two_damage_dice_and_formation_adds_damage():
    b = build_table([piece("g", "blue", "foot_artillery", (20, 20)),
                     piece("r", "red", "line_infantry", (20, 17.25 - 0.5))], FS)
    shot = shot_spec(b, b.units["g"], b.units["r"])
    assert (shot.band, shot.damage_dice) == ("canister", 2)
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("r", "red", "line_infantry", (20, 15), formation="column")], FS)
    assert shot_spec(b, b.units["g"], b.units["r"]).damage_bonus == 1
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("r", "red", "line_infantry", (20, 15), formation="square")], FS)
    assert shot_spec(b, b.units["g"], b.units["r"]).damage_bonus == 2


def test_a_gun_hit_rolls_damage_then_the_target_saves():
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("r", "red", "line_infantry", (20, 15), formation="column")], FS)
    s, src = session_at(b, "fire_first", side="blue")
    # short range needs 2+: a 3 hits; damage 4 + 1 (column) = 5; saves 5, 1, 1, 1, 1
    src.push(3, 4, 5, 1, 1, 1, 1)
    s.execute(ga.Fire("g", "r"))
    assert s.battle.units["r"].hits == 20
    assert dict(s.battle.units["g"].marks)["shots"] == 1


@pytest.mark.parametrize("total, in_open, crew_left, destroyed", [
    (7, True, 4, False), (8, True, 3, False), (8, False, 4, False), (9, False, 3, False),
    (10, True, 2, False), (11, True, 4, True), (11, False, 1, False), (12, False, 4, True)])
def test_the_counter_battery_table(total, in_open, crew_left, destroyed):
    terrain = [] if in_open else [rect("town", 17, 12, 23, 16)]
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("h", "red", "foot_artillery", (20, 14))], FS, terrain=terrain)
    s, src = session_at(b, "fire_first", side="blue")
    a = total // 2
    src.push(6, a, total - a, *[1] * 3)       # hit; 2D6; failed saves for any gunners hit
    s.execute(ga.Fire("g", "h"))
    h = s.battle.units["h"]
    assert h.eliminated == destroyed
    if not destroyed:
        assert h.hits == crew_left


def test_ten_shots_a_battery_and_crew_rules():
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("r", "red", "line_infantry", (20, 15))], FS)
    s, src = session_at(b, "fire_first", side="blue")
    s.battle.mark_unit("g", shots=10)
    with pytest.raises(IllegalAction, match="10 shots"):
        s.check(ga.Fire("g", "r"))
    s.battle.mark_unit("g", shots=0)
    s.battle.update_unit("g", hits=2, moved=1)
    with pytest.raises(IllegalAction, match="move or fire"):
        s.check(ga.Fire("g", "r"))
    s.battle.update_unit("g", hits=1, moved=0)
    s.battle.mark_unit("g", fired_turn=s.battle.state.turn - 1)
    with pytest.raises(IllegalAction, match="every other turn"):
        s.check(ga.Fire("g", "r"))


def test_skirmishers_halve_gun_damage_beyond_canister():
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("r", "red", "skirmishers", (20, 15), formation="extended")], FS)
    assert shot_spec(b, b.units["g"], b.units["r"]).half_damage


def test_fire_odds_agree_with_enumerating_every_face():
    from itertools import product
    from fractions import Fraction
    b = duel(16)                             # medium range: 3 or less
    shot = shot_spec(b, b.units["b"], b.units["r"])
    shot = type(shot)(**{**shot.__dict__, "dice": 2, "halve": True})
    d = casualty_dist(shot)
    counts = {}
    for faces in product(range(1, 7), repeat=2):
        hits = -(-sum(f for f in faces if f <= 3) // 2)
        for saves in product(range(1, 7), repeat=hits):
            lost = sum(1 for f in saves if f < 5)
            counts[lost] = counts.get(lost, 0) + Fraction(1, 36 * 6 ** hits)
    assert {k: d.p(k) for k in counts} == counts


def test_a_square_fires_once_from_each_face():
    b = build_table([piece("b", "blue", "line_infantry", (20, 20), formation="square"),
                     piece("r", "red", "line_infantry", (20, 15)),
                     piece("r2", "red", "line_infantry", (26, 20), facing=270)], FS)
    s, src = session_at(b, "fire_first", side="blue")
    src.push(6, 6, 6)                           # 6 figures a face: 1 die, misses
    s.execute(ga.Fire("b", "r"))
    with pytest.raises(IllegalAction, match="face"):
        s.check(ga.Fire("b", "r"))
    s.execute(ga.Fire("b", "r2"))
