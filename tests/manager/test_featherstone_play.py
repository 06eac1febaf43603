"""Featherstone-like play as a whole: random legal play never breaks an invariant, a
battle replays to the same state, and the demo and Austerlitz play from the CLI."""
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone.state import footprint
from manager.scenario_io import load_scenario
from manager.session import Session
from play_checks import no_overlaps, play_and_replay, plays_from_cli

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "scenarios" / "quatre_bras.toml"


def candidates(b, pick):
    """A few random legal-looking orders for the side to act (formation changes too)."""
    side, phase = b.state.active, b.state.phase
    units = [u for u in b.live_units(side)]
    enemies = b.live_units(b.enemy_of(side))
    out = []
    if phase in ("fire_first", "fire") and units and enemies:
        u, e = pick(units), pick(enemies)
        out.append(ga.Fire(u.id, e.id))
    if phase == "charges" and units and enemies:
        out.append(ga.Charge(pick(units).id, pick(enemies).id))
    if phase == "moves" and units:
        u = pick(units)
        ang = pick(range(0, 360, 15))
        d = pick([1.0, 3.0, 6.0, 9.0])
        to = (u.x + d * math.sin(math.radians(ang)), u.y - d * math.cos(math.radians(ang)))
        out.append(ga.MoveUnit(u.id, to, pick([u.facing, ang])))
        out.append(ga.ChangeFormation(u.id, pick(["line", "column", "square", "march_column"])))
    return out


def invariants(b):
    for u in b.units.values():
        assert 0 <= u.hits <= u.max_hits
    no_overlaps(b, footprint)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 10_000))
def test_random_legal_play_keeps_every_invariant_and_replays(rnd, seed):
    play_and_replay(lambda: _fresh(seed), rnd, lambda b, r: candidates(b, r.choice), invariants,
                    steps=250)


def _fresh(seed):
    from dataclasses import replace
    b = load_scenario(DEMO)
    b.set_info(replace(b.info, seed=seed, turns=3))
    return b


def test_eliminated_units_are_refused_every_order():
    s = Session(load_scenario(DEMO))
    s.execute(ga.StartBattle())
    uid = next(iter(s.battle.units))
    s.battle.update_unit(uid, eliminated=True)
    for action in (ga.MoveUnit(uid, (1, 1), 0), ga.Fire(uid, "nl-7l"), ga.Charge(uid, "nl-7l")):
        try:
            s.ruleset.check(s.battle, action)
        except IllegalAction:
            continue
        raise AssertionError(f"{action} was allowed")


def test_the_demo_and_austerlitz_play_from_the_cli_on_a_table_in_inches():
    report = plays_from_cli("featherstone", DEMO)
    taken = sum(c["hits_taken"] for side in report["sides"].values()
                for c in side["commands"].values())
    assert taken > 0


def test_a_featherstone_battle_is_recorded_and_reopens_to_the_same_state(tmp_path):
    from manager.simulate import fight
    from manager.store.battle_file import load_battle
    played = fight(DEMO, turns=3, save=tmp_path / "qb.berthier")
    session, meta = load_battle(tmp_path / "qb.berthier")
    assert session.battle.fingerprint() == played.battle.fingerprint()
    assert [e.action for e in session.entries] == [e.action for e in played.entries]


def test_traits_are_edited_as_an_action_and_undone():
    from manager.editor_actions import EditUnit
    s = Session(load_scenario(DEMO))
    s.execute(EditUnit("fr-1chass", (("traits", ("lancers",)),)))
    assert s.battle.units["fr-1chass"].traits == ("lancers",)
    try:
        s.execute(EditUnit("fr-1chass", (("traits", ("dragoons",)),)))
        raise AssertionError("an unknown trait was accepted")
    except IllegalAction as exc:
        assert "dragoons" in str(exc)
    s.undo()
    assert s.battle.units["fr-1chass"].traits == ()
