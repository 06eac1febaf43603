"""Featherstone's exact melee and charge odds in whole numbers (issue 17) are the very
odds of the stepwise walk in Fractions they replace (melee_odds.stepwise(exact=True),
the reference: the issue-15 code, kept as the commander's float path).

Equal means equal: the same outcomes in the same order with the same Fractions, the
same casualty lines (weights and total), the same notes. In play on Austerlitz (every
melee and charge the commanders order, and each melee under every reaction), and on
random small melees and charges with hypothesis (kinds, lancers, strengths, disorder,
the charge's losses and checks, a second attacker, supporters, a general's stray
round, a square, a battery, the options the walk reads).
"""
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.model.forces import evolve
from manager.rules import get_ruleset
from manager.rules.common import Melee
from manager.rules.featherstone import battery_odds as bo
from manager.rules.featherstone import melee_parts
from manager.rules.featherstone import melee_odds as mo
from manager.rules.featherstone.melee import find
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def reference_melee(battle, m, support=None, exact=True, shared=None):
    """The Fraction walk (melee_odds before issue 17's whole numbers)."""
    return mo.stepwise(battle, m, support, exact, shared)


@contextmanager
def copied_trial(b, units=(), leaders=()):
    """A copy of b for each trial (the odds before issue 17 changed b itself and put
    it back: battery_odds.on_trial)."""
    yield b.copy()


def reference_charge(monkeypatch, battle, action, exact=True):
    """charge_odds with every melee it weighs (batteries' too) by the reference, each
    answer's and each canister branch's on a copy."""
    with monkeypatch.context() as mp:
        mp.setattr(mo, "melee_odds", reference_melee)
        mp.setattr(mo, "on_trial", copied_trial)
        mp.setattr(bo, "on_trial", copied_trial)
        return mo.charge_odds(battle, action, exact=exact)


def same(a, b) -> None:
    assert a.kind == b.kind
    assert list(a.outcomes.items()) == list(b.outcomes.items())
    assert [(l.label, l.target, l.dist.weights, l.dist.total) for l in a.lines] == \
        [(l.label, l.target, l.dist.weights, l.dist.total) for l in b.lines]
    assert a.notes == b.notes


# ---- in play: the orders of 3 Austerlitz turns --------------------------------------------
@pytest.fixture(scope="module")
def in_play():
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=3))
    cases = []

    def execute(action):
        if type(action).__name__ in ("ResolveMelee", "Charge"):
            cases.append((s.battle.copy(), action))
        return s.execute(action)

    from manager.autopilot import Autopilot
    ap = Autopilot(s, execute=execute)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    return s.ruleset, cases


def test_in_play_melee_and_charge_odds_are_the_fraction_walks(in_play, monkeypatch):
    ruleset, cases = in_play
    kinds = {"ResolveMelee": 0, "Charge": 0}
    supported = 0
    for battle, action in cases:
        try:
            shown = ruleset.odds(battle.copy(), action)          # what the panel shows
        except IllegalAction:
            continue
        name = type(action).__name__
        kinds[name] += 1
        if name == "Charge":
            same(shown, reference_charge(monkeypatch, battle.copy(), action))
            # the commander's floats: the very numbers the answers on copies gave
            fast = mo.charge_odds(battle.copy(), action, exact=False)
            same(fast, reference_charge(monkeypatch, battle.copy(), action, exact=False))
        else:
            m = find(battle, action.defender)
            same(shown, reference_melee(battle.copy(), m, action.support))
            supported += len(shown.lines[0].dist.weights) > 1
    assert kinds["ResolveMelee"] >= 5 and kinds["Charge"] >= 5, kinds
    assert supported >= 3                          # support fire weighed, not only strikes


@pytest.mark.parametrize("reaction", ["stand", "first_fire", "counter", "caught", "waver"])
def test_in_play_melees_under_every_reaction_are_the_fraction_walks(in_play, reaction):
    """Each in-play melee again as if its defender had answered otherwise (first fire,
    lancer-free first strikes, a counter-charge, caught), with and without the
    charger's check: the branches the orders of 3 turns do not all reach."""
    _, cases = in_play
    done = 0
    for battle, action in cases:
        if type(action).__name__ != "ResolveMelee":
            continue
        m = find(battle, action.defender)
        for check in ("charged_column", "none"):
            b = battle.copy()
            b.mark_unit(m.defender, reaction=reaction)
            b.set_info(evolve(b.info, options={**b.info.options, "charger_check": check}))
            same(mo.melee_odds(b, m, action.support), reference_melee(b, m, action.support))
            done += 1
    assert done >= 10


def test_an_answer_weighed_on_the_battle_itself_puts_it_back(in_play, monkeypatch):
    """_answered changes the charged unit (and a fallen general) on charge_odds' own
    copy and restores them (on_trial): the same records after, the same odds as on a
    copy."""
    _, cases = in_play
    done = 0
    for battle, action in cases:
        if type(action).__name__ != "ResolveMelee":
            continue
        m = find(battle, action.defender)
        general = next(iter(battle.leaders.values()))
        for k in (("counter", True, True, True), ("first_fire", False, False, False)):
            b = battle.copy()
            before = b.fingerprint()
            got = mo._answered(b, m, k, general, True, None)
            assert b.fingerprint() == before
            assert all(b.units[u] is battle.units[u] for u in battle.units)
            assert all(b.leaders[g] is battle.leaders[g] for g in battle.leaders)
            with monkeypatch.context() as mp:
                mp.setattr(mo, "on_trial", copied_trial)
                same(got, mo._answered(battle.copy(), m, k, general, True, None))
            done += 1
    assert done >= 10


# ---- random small melees -----------------------------------------------------------------
ATTACKERS = ["line_infantry", "grenadiers", "militia", "light_cavalry", "heavy_cavalry",
             "guard_cavalry"]
DEFENDERS = ["line_infantry", "grenadiers", "militia", "skirmishers", "light_cavalry",
             "heavy_cavalry"]
MAX = {"light_cavalry": 12, "heavy_cavalry": 12, "guard_cavalry": 12}


HORSE = ["light_cavalry", "heavy_cavalry", "guard_cavalry"]


@st.composite
def small_melee(draw, horse=False):
    """horse: cavalry against cavalry, one side with lances (who strikes first)."""
    a_kind = draw(st.sampled_from(HORSE if horse else ATTACKERS))
    d_kind = draw(st.sampled_from(HORSE if horse else DEFENDERS))
    a_hits = draw(st.integers(1, MAX.get(a_kind, 24)))
    d_hits = draw(st.integers(1, MAX.get(d_kind, 24)))
    a_lances = draw(st.booleans())
    d_lances = (not a_lances) if horse else draw(st.booleans())
    units = [piece("b", "blue", a_kind, (20, 20), hits=a_hits,
                   traits=["lancers"] if a_lances else []),
             piece("r", "red", d_kind, (20, 18.5), hits=d_hits,
                   traits=["lancers"] if d_lances else [])]
    second = draw(st.booleans())
    if second:
        units.append(piece("b2", "blue", draw(st.sampled_from(ATTACKERS)), (21.5, 20),
                           hits=draw(st.integers(1, 12))))
    if draw(st.booleans()):
        units.append(piece("r2", "red", "line_infantry", (25, 18), facing=270,
                           hits=draw(st.integers(1, 24))))
    if draw(st.booleans()):
        units.append(piece("b3", "blue", "line_infantry", (15, 18), facing=90,
                           hits=draw(st.integers(1, 24))))
    options = {"pursuit": False, "support_fire": draw(st.booleans()),
               "charger_check": draw(st.sampled_from(["charged_column", "none"])),
               "melee_disorder": draw(st.sampled_from(["halve", "full"]))}
    near_general = draw(st.booleans())
    leaders = {"b1": {"pos": [20.5, 21.5]}} if near_general else None
    battle = build_table(units, "featherstone", options=options, leaders=leaders)
    battle.update_unit("b", disordered=draw(st.booleans()))
    battle.update_unit("r", disordered=draw(st.booleans()))
    if d_kind not in MAX and draw(st.booleans()):
        battle.update_unit("r", formation="square")
    strength = a_hits + draw(st.sampled_from([0, 0, 0, 1, 2, 5]))   # lost to fire so far
    marks = {"charging": "r", "charge_strength": strength}
    if draw(st.booleans()):
        marks["checked_at"] = draw(st.integers(a_hits, strength))
    if near_general:
        marks["lend"] = f"b1-ldr:1:{battle.state.turn}"
    battle.mark_unit("b", **marks)
    battle.mark_unit("r", reaction=draw(st.sampled_from(
        ["stand", "first_fire", "counter", "caught", "waver", "square"])),
        pre_melee=draw(st.integers(0, 2)), first_fired=draw(st.booleans()) or None)
    return battle, Melee("r", ("b", "b2") if second else ("b",))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_melee())
def test_random_melee_odds_are_the_fraction_walks(case):
    battle, m = case
    same(mo.melee_odds(battle, m), reference_melee(battle, m))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_melee(horse=True))
def test_random_lancer_melee_odds_are_the_fraction_walks(case):
    """Lancers strike first: the other side strikes back with the figures left, in the
    disorder the first strike caused."""
    battle, m = case
    same(mo.melee_odds(battle, m), reference_melee(battle, m))


@st.composite
def small_charge(draw):
    a_kind = draw(st.sampled_from(ATTACKERS))
    d_kind = draw(st.sampled_from(DEFENDERS + ["foot_artillery"]))
    units = [piece("b", "blue", a_kind, (20, 20), hits=draw(st.integers(2, MAX.get(a_kind, 24)))),
             piece("r", "red", d_kind, (20, 16), hits=draw(st.integers(
                 1, {"foot_artillery": 4}.get(d_kind, MAX.get(d_kind, 24)))))]
    if draw(st.booleans()):
        units.append(piece("r2", "red", "line_infantry", (25, 18), facing=270,
                           hits=draw(st.integers(1, 24))))
    options = {"pursuit": False, "support_fire": draw(st.booleans()),
               "charger_check": draw(st.sampled_from(["charged_column", "none"]))}
    s, _ = session_at(build_table(units, "featherstone", options=options), "charges",
                      side="blue")
    return s.battle, ga.Charge("b", "r")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_charge())
def test_random_charge_odds_are_the_fraction_walks(case):
    battle, action = case
    try:
        fast = mo.charge_odds(battle.copy(), action)
    except IllegalAction:
        return                                    # out of reach: no odds either way
    with pytest.MonkeyPatch.context() as mp:
        same(fast, reference_charge(mp, battle.copy(), action))


@st.composite
def battery_charge(draw):
    """A charge at a battery: its canister (hits, saves, a general on the charger's base
    or its officer falling), the charger's check, the halt, the crew's melee."""
    a_kind = draw(st.sampled_from(["line_infantry", "grenadiers", "heavy_cavalry",
                                   "light_cavalry"]))
    units = [piece("b", "blue", a_kind, (20, 20), hits=draw(st.integers(2, MAX.get(a_kind, 24)))),
             piece("r", "red", "foot_artillery", (20, 16), hits=draw(st.integers(1, 4)))]
    if draw(st.booleans()):
        units.append(piece("r2", "red", "line_infantry", (25, 18), facing=270,
                           hits=draw(st.integers(1, 24))))
    options = {"pursuit": False, "support_fire": draw(st.booleans()),
               "unit_officers": draw(st.booleans()),
               "charger_check": draw(st.sampled_from(["charged_column", "none"]))}
    leaders = {"b1": {"pos": [20, 20]}} if draw(st.booleans()) else None
    s, _ = session_at(build_table(units, "featherstone", options=options, leaders=leaders),
                      "charges", side="blue")
    return s.battle, ga.Charge("b", "r")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battery_charge())
def test_random_battery_charge_odds_are_the_fraction_walks_on_copies(case):
    """The panel's exact odds, and the commander's floats, as on a copy per branch."""
    battle, action = case
    try:
        shown = get_ruleset("featherstone").odds(battle.copy(), action)   # the panel's
    except IllegalAction:
        return
    fast = mo.charge_odds(battle.copy(), action, exact=False)
    with pytest.MonkeyPatch.context() as mp:
        same(shown, reference_charge(mp, battle.copy(), action))
        same(fast, reference_charge(mp, battle.copy(), action, exact=False))


def kept_pieces_are_plain(battle, m) -> int:
    from dataclasses import replace

    from manager.rules.featherstone.shot_odds import casualty_dist
    from manager.rules.featherstone.fire import close_shot
    from manager.rules.featherstone.losses import save_for
    from manager.rules.featherstone.state import dice_for, firing_figures
    d, lead = battle.units[m.defender], battle.units[m.attackers[0]]
    pm = melee_parts._Pmfs(battle, True)
    done = 0
    for figures in range(1, d.hits + 1, 3):
        for dis in (False, True):
            shot = replace(close_shot(battle, d, lead, dis),
                           dice=dice_for(firing_figures(d, figures)))
            save, b = save_for(battle, lead, False)
            plain = casualty_dist(replace(shot, save=save, save_bonus=b))
            assert pm.first_fire(d, lead, figures, dis) == plain.probabilities()
            for unit, enemy in ((d, lead), (lead, d)):
                u = replace(unit, disordered=dis)
                plain = melee_parts.lost_dist(battle, u, enemy, figures, False, enemy)
                assert pm.lost(unit, enemy, figures, dis, False, enemy) == plain.probabilities()
            done += 1
    return done


def test_kept_pieces_of_a_melee_are_the_plain_ones(in_play):
    """_Pmfs keeps the target's melee save and the first-fire volley but its dice, once a
    melee: every casualty distribution it gives equals the one built afresh (the plain
    close_shot, save_for and lost_dist of issue 15), for every strength and disorder;
    in play, and for skirmishers charging (their save against shooting is not their
    melee save: the volley at them is saved as in melee)."""
    _, cases = in_play
    done = sum(kept_pieces_are_plain(battle, find(battle, action.defender))
               for battle, action in cases if type(action).__name__ == "ResolveMelee")
    assert done >= 20
    battle = build_table([piece("b", "blue", "skirmishers", (20, 20), hits=12),
                          piece("r", "red", "line_infantry", (20, 18.5), hits=20)],
                         "featherstone", options={"pursuit": False})
    battle.mark_unit("b", charging="r", charge_strength=12)
    battle.mark_unit("r", reaction="first_fire")
    assert kept_pieces_are_plain(battle, Melee("r", ("b",))) >= 10
