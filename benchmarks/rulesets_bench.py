"""Every ruleset on Austerlitz (163 units), in one run: turn time, odds, dragged moves.

    python benchmarks/rulesets_bench.py [--turns 8] [--rounds 3] [--rulesets featherstone,d3]
                                        [--tiny] [--json]

For each ruleset the automatic commander plays Austerlitz on both sides. Reported:
Times are CPU time of this process (time.process_time): on a machine shared with other
work, wall time is inflated by waiting for a core (it is in the notes).
- seconds per game turn: the mean of the first `--turns` turns (8 by default), the
  Morschauser turn measured in the same run over the same turns, and each inch
  ruleset's turn as a multiple of it (target at most 3x). The mean, not the median:
  Austerlitz's turns are uneven (Morschauser's 17, 17, 28 ms; Featherstone's 51, 80,
  95 ms), and a median of a few turns picks a light turn of one ruleset against a
  heavy turn of another (the sixth and seventh sessions' 3-turn medians put
  Featherstone at 4.6x where the same turns' totals give 3.6x);
- exact odds of every fire, melee and charge the commanders order, timed just before
  the order is carried out (median and worst; target under 5 ms, Featherstone's melee
  and charge odds with support fire included since issue 17's whole-number walk);
- judging a dragged move: the engine's check of a MoveUnit to points along a drag, for
  units of the moving side on the open table (target under 1 ms).
Rounds (--rounds, 3 by default): each ruleset plays in a process of its own, the
rulesets taking turns (Morschauser, Featherstone, d3, ... then again), and each figure
is the median over the rounds; a ratio is the median of each round's ratio, its range in
the note. On a shared machine a burst of other work lands on one ruleset's turns: one
in-process run read Featherstone at 2.9x and at 4.0x Morschauser within a minute, the
median of rounds does not swing so. The odds and dragged moves are the first round's.
--rounds 1 plays all in this process, as before.
--tiny plays the small test skirmish for one turn (one round unless --rounds is given).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import AUSTERLITZ, SKIRMISH, emit, figure, parser, scenario  # noqa: E402

from manager import game_actions as ga  # noqa: E402
from manager.autopilot import Autopilot  # noqa: E402
from manager.errors import IllegalAction  # noqa: E402
from manager.session import Session  # noqa: E402

INCH = ("featherstone", "d3", "quickplay")
ODDS_ACTIONS = ("Fire", "ResolveMelee", "Charge")


def play(ruleset: str, path, turns: int, seed: int = 1) -> dict:
    """Play `turns` game turns; time each turn and every odds the orders have."""
    s = Session(scenario(path, ruleset, seed=seed, turns=turns))
    odds_times: dict[str, list[float]] = {}
    in_odds = [0.0]

    def execute(action):
        name = type(action).__name__
        if name in ODDS_ACTIONS and name in s.ruleset._odds:
            t = time.process_time()
            try:
                s.ruleset.odds(s.battle, action)
            except Exception:                     # an order the rules refuse has no odds
                pass
            else:
                odds_times.setdefault(name, []).append(time.process_time() - t)
            in_odds[0] += time.process_time() - t
        return s.execute(action)

    ap = Autopilot(s, execute=execute)
    ap.step()                                            # StartBattle
    turn_s, wall = [], []
    drag = None
    while not s.battle.state.over and s.battle.state.turn <= turns:
        if drag is None and ruleset in INCH:
            drag = judge_drags(s, ap)
        in_odds[0] = 0.0
        t, w = time.process_time(), time.perf_counter()
        ap.play_turn()
        turn_s.append(time.process_time() - t - in_odds[0])
        wall.append(time.perf_counter() - w - in_odds[0])
    return {"turn_s": turn_s, "wall_s": wall, "odds": odds_times, "drag": drag or [],
            "units": len(s.battle.units)}


def judge_drags(s, ap) -> list[float]:
    """Times of checking moves along drags, in the first phase that allows MoveUnit."""
    b = s.battle
    while "MoveUnit" not in s.ruleset.phase(b.state.phase).actions:
        if b.state.over or not ap.step():
            return []
    times = []
    for u in b.live_units(b.state.active)[:20]:
        for k in range(1, 9):                            # a drag forward, a little aside
            dx, dy = 0.7 * k, -0.9 * k if u.y > b.battlefield.height / 2 else 0.9 * k
            action = ga.MoveUnit(u.id, (u.x + dx, u.y + dy), u.facing)
            t = time.process_time()
            try:
                s.check(action)
            except IllegalAction:                        # a refusal is an answer too
                pass
            times.append(time.process_time() - t)
    return times


def in_child(ruleset: str, tiny: bool, turns: int) -> dict:
    """play() in a fresh process: no ruleset's imports, caches or heap flatter another's."""
    cmd = [sys.executable, __file__, "--child", ruleset, "--turns", str(turns)]
    p = subprocess.run(cmd + (["--tiny"] if tiny else []), capture_output=True, text=True,
                       check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def rounds_played(rulesets, tiny: bool, turns: int, rounds: int) -> dict[str, list[dict]]:
    """ruleset -> one play() result a round, the rulesets taking turns in each round."""
    if rounds == 1:
        path = SKIRMISH if tiny else AUSTERLITZ
        return {rs: [play(rs, path, turns)] for rs in rulesets}
    got: dict[str, list[dict]] = {rs: [] for rs in rulesets}
    for _ in range(rounds):
        for rs in rulesets:
            got[rs].append(in_child(rs, tiny, turns))
    return got


def figures(tiny: bool = False, turns: int = 8, rulesets=None, rounds: int = 1) -> list[dict]:
    turns = 1 if tiny else turns
    rulesets = rulesets or ("morschauser",) + INCH + ("harman",)
    where = "skirmish" if tiny else "Austerlitz"
    played = rounds_played(rulesets, tiny, turns, rounds)
    base = played.get("morschauser")
    out = []
    for rs in rulesets:
        runs = played[rs]
        r = runs[0]
        means = [statistics.fmean(x["turn_s"]) for x in runs]
        turn = statistics.median(means)
        note = (f"mean of {len(r['turn_s'])} turns, {r['units']} units; median "
                f"{statistics.median(r['turn_s']) * 1000:.0f} ms, "
                f"{min(r['turn_s']) * 1000:.0f}-{max(r['turn_s']) * 1000:.0f} ms; wall "
                f"{statistics.fmean(r['wall_s']) * 1000:.0f} ms")
        if rounds > 1:
            note = (f"median of {rounds} rounds' means of {len(r['turn_s'])} turns, "
                    f"{min(means) * 1000:.0f}-{max(means) * 1000:.0f} ms; {r['units']} units")
        if rs == "morschauser":
            out.append(figure(f"{where} turn, morschauser", turn * 1000, "ms",
                              None if tiny else 25, note=note))
        else:
            out.append(figure(f"{where} turn, {rs}", turn * 1000, "ms", note=note))
            if rs in INCH and base:
                # each round's ratio of the same turns' totals (so the same as the means')
                ratios = [sum(x["turn_s"]) / sum(m["turn_s"]) for x, m in zip(runs, base)]
                out.append(figure(f"{where} turn, {rs} / morschauser",
                                  statistics.median(ratios), "x", 3,
                                  note="same run" if rounds == 1 else
                                  f"median of {rounds} rounds, "
                                  f"{min(ratios):.2f}-{max(ratios):.2f}x"))
        for name in ODDS_ACTIONS:
            ts = r["odds"].get(name)
            if not ts:
                continue
            out.append(figure(f"exact odds, {rs} {name}, worst", max(ts) * 1000, "ms", 5,
                              note=f"median {statistics.median(ts) * 1000:.2f} ms of {len(ts)}"))
        if r["drag"]:
            d = sorted(r["drag"])
            out.append(figure(f"judge a dragged move, {rs}, median", statistics.median(d) * 1000,
                              "ms", 1, note=f"p90 {d[int(0.9 * (len(d) - 1))] * 1000:.2f} ms "
                                            f"of {len(d)}"))
    return out


def main(argv=None) -> None:
    ap = parser(__doc__)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=None,
                    help="each ruleset in its own process, taking turns; the median "
                         "(default 3, or 1 with --tiny: all in this process)")
    ap.add_argument("--rulesets", default="", help="comma-separated (default: all)")
    ap.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:                            # one play() for in_child, as JSON
        path = SKIRMISH if args.tiny else AUSTERLITZ
        print(json.dumps(play(args.child, path, 1 if args.tiny else args.turns)))
        return
    rulesets = tuple(r for r in args.rulesets.split(",") if r) or None
    rounds = args.rounds or (1 if args.tiny else 3)
    emit(figures(args.tiny, args.turns, rulesets, rounds), args.json,
         "Rulesets (mean turn; odds of the orders given in play; dragged moves)",
         tiny=args.tiny)


if __name__ == "__main__":
    main()
