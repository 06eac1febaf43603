"""Berthier benchmarks on Austerlitz (a script, not a timed test: machines are noisy).

    python benchmarks/run.py [--seeds 3] [--tiny] [--json]

Targets on a 2-core machine: a full turn (both sides, every phase, the automatic
commander) under 25 ms (issue 17); replaying a 12-turn log under 1 s; one exact-odds
computation for a volley and for a melee under 5 ms. --tiny: one turn, a few odds.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from manager import game_actions as ga  # noqa: E402
from manager.autopilot import Autopilot  # noqa: E402
from manager.scenario_io import load_scenario  # noqa: E402
from manager.session import Session  # noqa: E402

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


def fresh(seed: int, **options):
    b = load_scenario(AUSTERLITZ)
    opts = dict(b.info.options, **options)
    b.set_info(replace(b.info, seed=seed, options=MappingProxyType(opts)))
    return b


def turn_times(seeds) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of every full turn of each seed's battle."""
    wall, cpu = [], []
    for seed in seeds:
        s = Session(fresh(seed))
        ap = Autopilot(s)
        ap.step()                                   # StartBattle
        while not s.battle.state.over:
            t0, c0 = time.perf_counter(), time.process_time()
            ap.play_turn()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return wall, cpu


def long_log(seed: int):
    """A log of 12 turns: the turn limit is 12, and the army concedes only when all its
    commands are Shaken, so the battle runs to (or very near) the limit."""
    scenario = fresh(seed, army_morale="all")
    scenario.set_info(replace(scenario.info, turns=12))
    s = Session(scenario.copy())
    Autopilot(s).play()
    return scenario, s


def replay_time(scenario, session, repeat=3) -> float:
    best = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = Session.replay(scenario.copy(), session.entries)
        best.append(time.perf_counter() - t0)
        assert r.battle.fingerprint() == session.battle.fingerprint()
    return statistics.median(best)


def odds_times(session, n=2000):
    """Median time of one odds computation for a volley and a melee found in play."""
    b = session.battle
    ruleset = session.ruleset
    fire = None
    for u in b.live_units(b.state.active):
        for e in b.live_units():
            if e.side != u.side and session.is_legal(ga.Fire(u.id, e.id)):
                fire = ga.Fire(u.id, e.id)
                break
        if fire:
            break
    out = {}
    if fire:
        out["fire"] = _time(lambda: ruleset.odds(b, fire), n)
        out["fire_dice"] = ruleset.odds(b, fire).notes[0]
    return out


def melee_odds_time(n=2000):
    """A big melee: Guard infantry (8 hits) attacked by two units, a joiner and leaders."""
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build, session, unit
    units = [unit("a1", "blue", "guard_infantry", (5, 5)), unit("a2", "blue", "grenadiers", (6, 4), facing=180),
             unit("d", "red", "guard_infantry", (6, 5)), unit("j", "red", "line_infantry", (6, 6))]
    s, _ = session(build(units, leaders={"b1": (5, 5), "r1": (6, 5)}), phase="melee")
    action = ga.ResolveMelee("d", ("j",))
    odds = s.ruleset.odds(s.battle, action)
    dice = sum(int(l.label.split("(")[1].split()[0]) for l in odds.lines)
    return _time(lambda: s.ruleset.odds(s.battle, action), n), dice


def _time(fn, n) -> float:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def figures(tiny: bool = False, seeds: int = 3) -> list[dict]:
    from bench_common import figure
    seeds = list(range(1, (1 if tiny else seeds) + 1))
    if tiny:
        return _tiny()
    turn_times(seeds[:1])                           # warm the caches a session would have
    turns, cpu = turn_times(seeds)
    scenario, played = long_log(1)
    rep = replay_time(scenario, played)
    s2 = Session(fresh(2))
    Autopilot(s2).step()
    while s2.battle.state.phase != "move":
        s2.execute(ga.EndPhase())
    odds = odds_times(s2)
    melee, melee_dice = melee_odds_time()
    p90 = sorted(turns)[int(0.9 * (len(turns) - 1))]
    return [
        figure("Austerlitz turn, morschauser (whole battles)", 1000 * statistics.median(turns),
               "ms", 25, note=f"p90 {1000 * p90:.1f} ms, CPU median "
                              f"{1000 * statistics.median(cpu):.1f} ms, {len(turns)} turns"),
        figure(f"replay a {played.battle.state.turn}-turn log", rep, "s", 1,
               note=f"{len(played.entries)} actions"),
        figure("exact odds, morschauser volley", 1000 * odds.get("fire", float("nan")), "ms", 5,
               note=odds.get("fire_dice", "")),
        figure("exact odds, morschauser melee", 1000 * melee, "ms", 5, note=f"{melee_dice} dice"),
    ]


def _tiny() -> list[dict]:
    """One short battle and one odds of each kind: proves the code paths still run."""
    from bench_common import figure
    s = Session(fresh(1))
    ap = Autopilot(s)
    ap.step()
    t0 = time.perf_counter()
    ap.play_turn()
    turn = time.perf_counter() - t0
    s2 = Session(fresh(2))
    Autopilot(s2).step()
    while s2.battle.state.phase != "move":
        s2.execute(ga.EndPhase())
    odds = odds_times(s2, n=3)
    melee, dice = melee_odds_time(n=3)
    return [figure("Austerlitz turn, morschauser (one turn)", 1000 * turn, "ms"),
            figure("exact odds, morschauser volley", 1000 * odds.get("fire", float("nan")), "ms"),
            figure("exact odds, morschauser melee", 1000 * melee, "ms", note=f"{dice} dice")]


def main(argv=None):
    from bench_common import emit, parser
    ap = parser(__doc__)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args(argv)
    emit(figures(args.tiny, args.seeds), args.json,
         f"Austerlitz under morschauser, Python {sys.version.split()[0]}", tiny=args.tiny)


if __name__ == "__main__":
    main()
