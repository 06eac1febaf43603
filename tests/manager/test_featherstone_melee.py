"""Featherstone-like charges, melee and morale with the dice typed in.

Units of 10 figures roll 2 melee dice. Blue at (20, 20) faces north; red at (20, 16)
faces south: 3 inches apart, one charge move for foot.
"""
import pytest

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.model.forces import mark
from manager.rules.featherstone.melee import melees, striker
from manager.rules.featherstone.melee_odds import melee_odds

FS = "featherstone"
NO_SUPPORT = {"support_fire": False, "pursuit": False}


def fight(blue="line_infantry", red="line_infantry", options=None, blue_kw=None,
          red_kw=None, red_y=16.0, extra=()):
    units = [piece("b", "blue", blue, (20, 20), **(blue_kw or {})),
             piece("r", "red", red, (20, red_y), **(red_kw or {})), *extra]
    b = build_table(units, FS, options={**NO_SUPPORT, **(options or {})})
    return session_at(b, "charges", side="blue")


def test_the_charged_unit_checks_at_once_and_a_stand_brings_a_melee():
    s, src = fight(blue_kw={"hits": 10}, red_kw={"hits": 10})
    src.push(6)                                   # charged: 6 + 1 regulars - 2 (50% down) = 5
    s.execute(ga.Charge("b", "r"))
    assert mark(s.battle.units["r"], "reaction") == "stand"
    assert [m.defender for m in melees(s.battle)] == ["r"]
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    # blue 4, 3 -> 7 hits; red saves 5 of 1,1,1,1,1,1 -> 6 lost
    # red 2, 5 -> 2 hits; blue saves 1, 1 -> 2 lost
    # scores: blue 6 + 1 = 7, red 2 + 1 = 3: red loses; lost melee 3 + 1 - 3 (75%) = 1: rout
    # rout: D6 = 2 figures more
    src.push(4, 3, 2, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 3, 2)   # both strike, then both save
    s.execute(ga.ResolveMelee("r"))
    r, b = s.battle.units["r"], s.battle.units["b"]
    assert (r.hits, b.hits) == (2, 8)
    assert r.y < 16 - 10                          # routed two moves north
    assert r.facing == 0                          # facing away from the enemy


def test_ties_go_to_the_defender():
    s, src = fight(blue_kw={"hits": 10}, red_kw={"hits": 10})
    src.push(6)
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    # blue 2 hits (saves 6, 1 -> 1 lost); red 2 hits (saves 1, 6 -> 1 lost): 2 v 2, blue loses
    src.push(2, 6, 6, 1, 2, 6, 1, 6, 6)            # blue's lost melee: 6 + 1 - 2 = 5: falls back
    events = s.execute(ga.ResolveMelee("r"))
    text = " ".join(e.describe() for e in events)
    assert "b checks morale (lost melee)" in text and s.battle.units["b"].y > 20


@pytest.mark.parametrize("face, kind, result", [(0, "militia", "break"), (1, "militia", "fall_back"),
                                                (3, "militia", "fall_back"), (4, "militia", "waver"),
                                                (5, "militia", "stand"), (6, "militia", "first_fire"),
                                                (5, "guard_infantry", "counter")])
def test_the_charged_column(face, kind, result):
    hits = {"hits": 18} if face == 0 else {}      # 25% down: -1 to reach 0 on a 1
    s, src = fight(red=kind, red_kw=hits)
    src.push(max(face, 1))
    s.execute(ga.Charge("b", "r"))
    r = s.battle.units["r"]
    if result in ("break", "fall_back"):
        assert r.disordered and r.y < 16 and not melees(s.battle)
    else:
        expected = {"counter": "first_fire"}.get(result, result)   # foot v foot at 7: fire first
        assert mark(r, "reaction") == expected


def test_infantry_charged_by_cavalry_forms_square_on_a_five_or_six():
    s, src = fight(blue="heavy_cavalry", red="militia", red_y=12)
    src.push(5)
    s.execute(ga.Charge("b", "r"))
    assert s.battle.units["r"].formation == "square"


def test_infantry_may_not_charge_cavalry():
    s, _ = fight(red="light_cavalry")
    with pytest.raises(IllegalAction, match="infantry may not charge cavalry"):
        s.check(ga.Charge("b", "r"))


def test_skirmishers_flee_a_charge_and_are_disordered():
    s, src = fight(red="skirmishers", red_kw={"formation": "extended"}, red_y=15.5)
    s.execute(ga.Charge("b", "r"))
    r = s.battle.units["r"]
    assert r.disordered and r.y < 12


def test_cavalry_counts_double_against_infantry_on_the_charge_light_horse_half_again():
    s, _ = fight(blue="heavy_cavalry")
    b = s.battle
    assert striker(b, b.units["b"], b.units["r"], 12, True).dice == 5     # 24 -> 5 dice
    s, _ = fight(blue="light_cavalry")
    b = s.battle
    assert striker(b, b.units["b"], b.units["r"], 12, True).dice == 3     # 2 x 1.5


def test_against_a_square_no_impetus_and_halved_unless_lancers():
    s, _ = fight(blue="heavy_cavalry", red_kw={"formation": "square"})
    b = s.battle
    st = striker(b, b.units["b"], b.units["r"], 12, True)
    assert (st.dice, st.halvings) == (2, 1)
    s, _ = fight(blue="light_cavalry", blue_kw={"traits": ["lancers"]},
                 red_kw={"formation": "square"})
    b = s.battle
    assert striker(b, b.units["b"], b.units["r"], 12, True).halvings == 0


def test_cavalry_must_inflict_four_on_a_square_or_recoil():
    s, src = fight(blue="heavy_cavalry", red="militia", red_y=12)
    src.push(5)                                   # forms square
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    # cavalry 2 dice: 3, 3 -> 6 hits halved -> 3; the square saves none (1,1,1): 3 < 4
    # square 12 figures fight -> 2 dice: 6, 6 -> 0 hits
    src.push(3, 3, 6, 6, 1, 1, 1)           # both strike, then the saves
    s.execute(ga.ResolveMelee("r"))
    assert s.battle.units["b"].y > 20 and s.battle.units["b"].disordered
    assert s.battle.units["r"].hits == 21


def test_grenadiers_re_roll_a_missed_die():
    s, src = fight(blue="grenadiers", blue_kw={"hits": 10}, red_kw={"hits": 10})
    src.push(6)
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    src.push(6, 2, 3, 6, 6, *[1] * 5, 6, 6, 6, 6)  # the 6 re-rolled into a 3: 5 hits
    events = s.execute(ga.ResolveMelee("r"))
    assert any("re-rolled a 6" in e.describe() for e in events)
    assert s.battle.units["r"].hits == 5


def test_first_fire_that_takes_a_quarter_halts_the_charge():
    s, src = fight(red_kw={}, blue_kw={"hits": 12})
    src.push(6)                                    # 6 + 1 = 7: foot against foot fires first
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    # red 24 figures fire 5 dice at 4 or less: 1, 1, 1, 6, 6 -> 3 hits; saves fail: 3 >= 12/4
    # the halted foot return fire in disorder: 12 figures, 2 dice: 6, 6 -> nothing
    src.push(1, 1, 1, 6, 6, 1, 1, 1, 6, 6)
    events = s.execute(ga.ResolveMelee("r"))
    assert any("halted" in e.describe() for e in events)
    assert s.battle.units["b"].hits == 9 and s.battle.units["b"].disordered


def test_melee_odds_are_a_distribution_and_match_enumeration():
    from fractions import Fraction
    from itertools import product
    s, src = fight(blue_kw={"hits": 5}, red_kw={"hits": 5})
    src.push(6)
    s.execute(ga.Charge("b", "r"))
    s.battle.update_unit("r", disordered=False)
    s.battle.mark_unit("r", reaction="stand")     # a plain simultaneous melee
    odds = melee_odds(s.battle, melees(s.battle)[0])
    assert sum(odds.outcomes.values()) == 1
    win = Fraction(0)
    for a, d in product(range(1, 7), repeat=2):       # one die each, simultaneous
        ha, hd = (a if a <= 4 else 0), (d if d <= 4 else 0)
        for sa in product(range(1, 7), repeat=ha):
            for sd in product(range(1, 7), repeat=hd):
                la, ld = sum(1 for f in sa if f < 5), sum(1 for f in sd if f < 5)
                p = Fraction(1, 36 * 6 ** (ha + hd))
                if la + 1 > ld + 1:
                    win += p
    assert odds.outcomes["attacker wins"] == win


def test_a_six_hit_volley_dices_for_the_attached_general():
    units = [piece("b", "blue", "line_infantry", (20, 20)),
             piece("r", "red", "line_infantry", (20, 17.5))]
    b = build_table(units, FS, leaders={"r1": {"pos": [20, 17.5], "quality": 3}})
    s, src = session_at(b, "fire_first", side="blue")
    src.push(4, 4, 1, 6, 6, *[6] * 9, 2)          # 9 hits, all saved; leader die 2: he falls
    s.execute(ga.Fire("b", "r"))
    assert s.battle.leaders["r1-ldr"].eliminated


def test_a_disordered_unit_charged_takes_the_combined_check():
    s, src = fight()
    s.battle.update_unit("r", disordered=True)
    src.push(5)                                   # rally 5 + 1 = 6 stands; charged 6: fires first
    events = s.execute(ga.Charge("b", "r"))
    cols = [e.column for e in events if hasattr(e, "column")]
    assert cols == ["rally", "charged"] and mark(s.battle.units["r"], "reaction") == "first_fire"


def test_a_battery_charged_fires_canister_then_its_crew_shelter():
    s, src = fight(red="foot_artillery", red_y=16.5,
                   extra=[piece("r2", "red", "line_infantry", (23.5, 16.5))])
    src.push(3, 1, 1, 1, 1, 1)                    # close canister on foot: 2 dice = 4, no saves
    src.push(6)             # casualties while charging: the charger checks (6 + 1: goes on)
    events = s.execute(ga.Charge("b", "r"))
    assert any("b checks morale (charged)" in e.describe() for e in events)
    assert s.battle.units["b"].hits == 20
    assert mark(s.battle.units["r"], "sheltered") == "r2"
