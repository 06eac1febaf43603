"""A battle of Leipzig size (600+ units), built from Austerlitz, and its turn time.

    python benchmarks/leipzig.py [--copies 4] [--rulesets morschauser,featherstone] [--tiny] [--json]

`leipzig_data` stacks copies of a scenario's table north to south (4 copies of
Austerlitz: 652 units on a 120 x 360 inch table), each copy's commands, terrain and
objectives shifted with it, ids suffixed; the first copy keeps the army generals. The
automatic commander plays both sides; one game turn is timed (targets: under 1 s under
morschauser, under 3 s under featherstone). --tiny stacks two copies of the test
skirmish and plays one turn.
"""
from __future__ import annotations

import copy
import statistics
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import AUSTERLITZ, SKIRMISH, emit, figure, parser  # noqa: E402

from manager.autopilot import Autopilot  # noqa: E402
from manager.scenario_io import battle_from_dict  # noqa: E402
from manager.session import Session  # noqa: E402

TARGETS = {"morschauser": 1000, "featherstone": 3000}      # ms per game turn


def leipzig_data(source: Path = AUSTERLITZ, copies: int = 4) -> dict:
    """The scenario dict of `copies` tables of `source` stacked north to south."""
    base = tomllib.loads(source.read_text())
    grid = base["table"].get("grid") or 1
    height = base["table"]["height"]
    data = copy.deepcopy(base)
    data["scenario"]["name"] = f"Leipzig-size ({copies} x {base['scenario']['name']})"
    data["table"]["height"] = height * copies
    data["terrain"], data["sides"] = [], []
    for side in base["sides"]:
        s = {k: v for k, v in side.items() if k != "commands"}
        s["commands"] = []
        data["sides"].append(s)
    for k in range(copies):
        dy_in, dy_box = height * k, height * k / grid
        for t in base["terrain"]:
            t = copy.deepcopy(t)
            t["id"] = f"{t['id']}-{k}"
            t["points"] = [[x, y + dy_in] for x, y in t["points"]]
            data["terrain"].append(t)
        for side, out in zip(base["sides"], data["sides"]):
            for c in side["commands"]:
                c = copy.deepcopy(c)
                c["id"] = f"{c['id']}-{k}"
                c["name"] = f"{c['name']} ({k + 1})"
                c["leader"]["id"] = f"{c['leader']['id']}-{k}"
                c["leader"]["at"] = _shift(c["leader"]["at"], dy_box)
                if "objective" in c.get("orders", {}):
                    c["orders"]["objective"] = _shift(c["orders"]["objective"], dy_box)
                # every copy starts on the table under its plain orders: the plans and
                # reinforcements name one Austerlitz's commands and roads
                c.get("orders", {}).pop("plan", None)
                c.pop("arrives", None)
                for u in c["units"]:
                    u.pop("arrives", None)
                    u["id"] = f"{u['id']}-{k}"
                    u["name"] = f"{u['name']} ({k + 1})"
                    u["at"] = _shift(u["at"], dy_box)
                out["commands"].append(c)
    return data


def _shift(at, dy):
    return [at[0], type(at[1])(at[1] + dy) if isinstance(at[1], int) and dy == int(dy)
            else at[1] + dy]


def turn_time(data: dict, ruleset: str, turns: int = 1) -> tuple[list[float], int]:
    battle = battle_from_dict(data, "<leipzig>", ruleset)
    s = Session(battle)
    ap = Autopilot(s)
    ap.step()
    out = []
    for _ in range(turns):
        if s.battle.state.over:
            break
        t = time.process_time()                  # CPU time: the machine may be shared
        ap.play_turn()
        out.append(time.process_time() - t)
    return out, len(battle.units)


def figures(tiny: bool = False, copies: int = 4, rulesets=None, turns: int = 1) -> list[dict]:
    data = leipzig_data(SKIRMISH, 2) if tiny else leipzig_data(AUSTERLITZ, copies)
    out = []
    for rs in rulesets or ("morschauser", "featherstone", "d3", "quickplay"):
        ts, n = turn_time(data, rs, 1 if tiny else turns)
        out.append(figure(f"Leipzig-size turn ({n} units), {rs}", statistics.median(ts) * 1000,
                          "ms", None if tiny else TARGETS.get(rs),
                          note=f"{len(ts)} turn(s)"))
    return out


def main(argv=None) -> None:
    ap = parser(__doc__)
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--turns", type=int, default=1)
    ap.add_argument("--rulesets", default="")
    args = ap.parse_args(argv)
    rulesets = tuple(r for r in args.rulesets.split(",") if r) or None
    emit(figures(args.tiny, args.copies, rulesets, args.turns), args.json,
         "A Leipzig-size battle: Austerlitz stacked four times", tiny=args.tiny)


if __name__ == "__main__":
    main()
