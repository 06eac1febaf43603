"""Issue 17, thirteenth session: support fire's friends near a melee weighed on a
charge's trial copies are found on the grid of the battle the copies were made from
(`support.FRIENDS_FROM`, set by charge_odds), kept from version to version, not on each
copy's own grid built afresh. The copies differ from it only in the melee's own units
(the charger at its contact spot, the target's answer), which the near list leaves out:
each list must be the one the copy's own scan finds, in the same order."""
from __future__ import annotations

from pathlib import Path
import sys

import pytest

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone import melee_odds as mo
from manager.rules.featherstone import support as sp
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def spied(monkeypatch) -> dict:
    """Every `_near` call: its friends and rows against the copy's own scan (no parts);
    the count of calls that read another battle's grid."""
    plain = sp._near
    seen = {"calls": 0, "other": 0}

    def checked(battle, melee, side, chosen, fighting, parts):
        got = plain(battle, melee, side, chosen, fighting, parts)
        want = plain(battle, melee, side, chosen, fighting, None)
        assert [u.id for u in got[0]] == [u.id for u in want[0]]
        assert all(a is b for a, b in zip(got[0], want[0])) and got[1] == want[1]
        seen["calls"] += 1
        seen["other"] += parts is not None and parts.get(sp.FRIENDS_FROM, battle) \
            is not battle
        return got
    monkeypatch.setattr(sp, "_near", checked)
    return seen


def test_in_play_the_friends_near_are_the_copys_own(monkeypatch):
    """4 Austerlitz turns, the commander's odds (its charges, the threats its stances
    weigh) and the exact odds of each charge given."""
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=4))
    seen = spied(monkeypatch)

    def execute(action):
        if type(action).__name__ == "Charge":
            try:
                s.ruleset.odds(s.battle, action)
            except IllegalAction:
                pass
        return s.execute(action)

    from manager.autopilot import Autopilot
    ap = Autopilot(s, execute=execute)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 4:
        ap.play_turn()
    assert seen["other"] >= 50, seen


@pytest.mark.parametrize("general", [False, True])
@pytest.mark.parametrize("kind", ["light_cavalry", "line_infantry"])
def test_friends_about_the_charger_start_and_its_spot(monkeypatch, general, kind):
    """Friends of both sides about the charger's start and its contact spot, a general
    attached to the charger (he rides with it on the copies) or not: each answer's
    friends near are its own copy's."""
    units = [piece("b", "blue", kind, (20, 26 if "cavalry" in kind else 20)),
             piece("r", "red", "line_infantry", (20, 16)),
             piece("b2", "blue", "line_infantry", (23, 22), facing=300),
             piece("b3", "blue", "foot_artillery", (14, 20), facing=60),
             piece("r2", "red", "line_infantry", (26, 15), facing=270),
             piece("r3", "red", "foot_artillery", (13, 13), facing=120)]
    # b's general on its base (attached: he rides with it to the contact spot), or afar
    at = {"pos": [20.0, units[0]["pos"][1]]} if general else None
    b = build_table(units, "featherstone", options={"support_fire": True},
                    leaders={"b1": at} if at else None)
    if general:
        from manager.rules.featherstone.nearby import attached_leaders
        assert attached_leaders(b, b.units["b"])
    s, _ = session_at(b, "charges", side="blue")
    seen = spied(monkeypatch)
    try:
        mo.charge_odds(s.battle, ga.Charge("b", "r"))
        mo.charge_odds(s.battle, ga.Charge("b", "r"), exact=False)
    except IllegalAction:
        pytest.skip("the charge is refused here")
    assert seen["other"] >= 2, seen
