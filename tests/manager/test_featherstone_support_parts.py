"""Support fire's first looks shared between the answers of one charge (issue 17,
eleventh session). A charge's odds weigh each answer of the charged unit (it wavers,
stands, fires first, forms square) on battles that differ only in the charged unit's
record; answers of another formation get their own support fire, but the friends near
the melee, which of them may shoot and their first looks at the charger are the same,
kept in `parts` (support.supporters) with the very records they read. Each answer's
supporters must be those a call without `parts` finds: in play, on every charge of
Austerlitz's first turns, and on a charge whose target may form square or not.
"""
from __future__ import annotations

from pathlib import Path
import sys

import pytest

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone import melee_odds as mo
from manager.rules.featherstone import melee_parts
from manager.rules.featherstone import support as sp
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def spied(monkeypatch):
    """Every supporters call with `parts`, checked against a call without; the count of
    calls that found parts kept by an earlier one."""
    plain = sp.supporters
    seen = {"calls": 0, "kept": 0}

    def checked(battle, melee, side, chosen=None, parts=None):
        if parts is not None:
            seen["calls"] += 1
            seen["kept"] += any(k[0] == "near" and k[1] == side for k in parts)
        got = plain(battle, melee, side, chosen, parts)
        want = plain(battle, melee, side, chosen)
        assert [(u, e) for u, e in got] == [(u, e) for u, e in want]
        return got
    monkeypatch.setattr(melee_parts, "supporters", checked)
    return seen


def test_in_play_each_answers_supporters_are_the_plain_ones(monkeypatch):
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=3))
    seen = spied(monkeypatch)
    charges = []

    def execute(action):
        if type(action).__name__ == "Charge":
            charges.append(action)
            try:
                s.ruleset.odds(s.battle, action)              # exact: the panel's
                mo.charge_odds(s.battle, action, exact=False)  # the commander's
            except IllegalAction:
                pass
        return s.execute(action)

    from manager.autopilot import Autopilot
    ap = Autopilot(s, execute=execute)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(charges) >= 5
    assert seen["kept"] >= 5, seen            # the answers of another formation


@pytest.mark.parametrize("support", [True, False])
@pytest.mark.parametrize("tform", ["line", "column", "square"])
@pytest.mark.parametrize("kind", ["light_cavalry", "heavy_cavalry", "line_infantry"])
def test_a_charge_whose_target_may_form_square(monkeypatch, support, tform, kind):
    """Friends of both sides about a charge at foot: their lines of sight pass by the
    target, whose base differs in square."""
    units = [piece("b", "blue", kind, (20, 24 if "cavalry" in kind else 19)),
             piece("r", "red", "line_infantry", (20, 16), formation=tform),
             piece("r2", "red", "line_infantry", (26, 15), facing=270),
             piece("r3", "red", "foot_artillery", (14, 14), facing=120),
             piece("b2", "blue", "line_infantry", (15, 19), facing=60),
             piece("b3", "blue", "foot_artillery", (25, 21), facing=300)]
    options = {"pursuit": False, "support_fire": support}
    s, _ = session_at(build_table(units, "featherstone", options=options), "charges",
                      side="blue")
    seen = spied(monkeypatch)
    try:
        mo.charge_odds(s.battle, ga.Charge("b", "r"))
        mo.charge_odds(s.battle, ga.Charge("b", "r"), exact=False)
    except IllegalAction:
        pytest.skip("the charge is refused here")
    assert seen["calls"] >= (2 if support else 0)


@pytest.mark.parametrize("first,then", [("square", "line"), ("line", "square")])
def test_looks_at_a_target_of_another_formation_are_its_own(first, then):
    """A friend in square 10.9 inches from the target's centre, along its line's
    diagonal: the first looks' circles keep it for the target's line (3 x 1 inches),
    pass it over for its square (2 x 2). The looks kept for one answer are not the
    other's."""
    from manager.rules.common import Melee
    b = build_table([piece("b", "blue", "light_cavalry", (20, 17.5)),
                     piece("r", "red", "line_infantry", (20, 16)),
                     piece("f", "blue", "line_infantry", (30.341, 19.447), facing=60,
                           formation="square")],
                    "featherstone", options={"support_fire": True})
    b.mark_unit("b", charging="r")
    m, parts, got = Melee("r", ("b",)), {}, {}
    for form in (first, then):
        b.update_unit("r", formation=form)
        got[form] = [u.id for u, _ in sp.supporters(b, m, "blue", None, parts)]
        assert got[form] == [u.id for u, _ in sp.supporters(b, m, "blue")]
    assert got == {"line": ["f"], "square": []}
