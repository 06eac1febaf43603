"""The rulesets after Morschauser (featherstone, d3, quickplay in inches; harman on a
grid): how fast they play and answer.

    python benchmarks/rulesets_bench.py [--turns 3]

Reports, for each: its demo battle played whole by the automatic commander on both
sides; Austerlitz (163 units) under the ruleset, seconds per game turn; the time to
judge a dragged move (what the UI asks on every mouse move); exact odds of a volley
and of a melee (what the turn runner shows before a click).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from manager import game_actions as ga  # noqa: E402
from manager.autopilot import Autopilot  # noqa: E402
from manager.scenario_io import load_scenario  # noqa: E402
from manager.session import Session  # noqa: E402


def timed(fn, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out), sorted(out)[int(0.9 * (len(out) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=3)
    args = ap.parse_args()

    qb = ROOT / "scenarios" / "quatre_bras.toml"
    for ruleset, demo in (("featherstone", qb), ("d3", ROOT / "scenarios" / "hanau.toml"),
                          ("quickplay", ROOT / "scenarios" / "maida.toml"),
                          ("harman", ROOT / "scenarios" / "arcole.toml")):
        t = time.perf_counter()
        s = Session(load_scenario(demo))
        Autopilot(s).play()
        print(f"{ruleset}: {demo.stem}, whole battle ({s.battle.state.turn} turns, "
              f"{len(s.entries)} actions): {time.perf_counter() - t:.2f} s")
        b = load_scenario(ROOT / "scenarios" / "austerlitz.toml", ruleset)
        b.set_info(replace(b.info, turns=args.turns))
        s = Session(b)
        t = time.perf_counter()
        Autopilot(s).play()
        per = (time.perf_counter() - t) / args.turns
        print(f"{ruleset}: Austerlitz, {per:.2f} s per game turn ({args.turns} turns, "
              f"{len(s.entries)} actions)")
        if ruleset == "d3":
            _d3_odds(s)

    s = Session(load_scenario(qb))
    s.execute(ga.StartBattle())
    while s.battle.state.phase != "moves" or s.battle.state.active != "french":
        s.execute(ga.EndPhase())
    u = s.battle.units["fr-92"]
    med, p90 = timed(lambda: s.check(ga.MoveUnit(u.id, (u.x + 1, u.y - 4), 0))
                     if s.is_legal(ga.MoveUnit(u.id, (u.x + 1, u.y - 4), 0)) else None, 200)
    print(f"featherstone: judge a dragged move: median {med * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms")

    b = s.battle
    b.update_unit("nl-5m", x=45.0, y=33.0)
    while s.battle.state.phase != "fire_first":
        s.execute(ga.EndPhase())
    shooter, target = (("fr-92", "nl-5m") if s.battle.state.active == "french"
                       else ("nl-5m", "fr-92"))
    fire = ga.Fire(shooter, target)
    if s.is_legal(fire):
        med, p90 = timed(lambda: s.ruleset.odds(s.battle, fire), 50)
        print(f"featherstone: exact odds of a volley: median {med * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms")
    from manager.rules.featherstone.melee import Melee
    from manager.rules.featherstone.melee_odds import melee_odds
    med, p90 = timed(lambda: melee_odds(s.battle, Melee("nl-5m", ("fr-92",))), 20)
    print(f"featherstone: exact odds of a melee (with support fire): median {med * 1000:.1f} ms, "
          f"p90 {p90 * 1000:.1f} ms")


def _d3_odds(s) -> None:
    """Odds of a shot and of a charge somewhere on the Austerlitz table under d3."""
    b = s.battle
    for u in b.live_units():
        for e in b.live_units(b.enemy_of(u.side)):
            try:
                from manager.rules.d3.combat import shot
                shot(b, u, e)
            except Exception:
                continue
            from manager.rules.d3.combat import Melee, melee_odds
            med, p90 = timed(lambda: s.ruleset.odds(b, ga.Fire(u.id, e.id)), 200)
            print(f"d3: exact odds of a shot: median {med * 1000:.3f} ms, p90 {p90 * 1000:.3f} ms")
            med, p90 = timed(lambda: melee_odds(b, Melee(e.id, (u.id,))), 200)
            print(f"d3: exact odds of a charge's blow: median {med * 1000:.3f} ms")
            return


if __name__ == "__main__":
    main()
