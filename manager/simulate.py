"""Fight battles with the automatic commander on both sides and report them.

`fight` plays one seed; `report` turns the finished session into the JSON the CLI
prints (the same keys `berthier report` will use for saved battles); `balance`
fights many seeds across the machine's cores and summarises who wins and how.
"""
from __future__ import annotations

import math
import os
import sys
from dataclasses import replace

from .autopilot import Autopilot
from .events import HitsTaken, TurnBegan
from .scenario_io import load_scenario
from .session import Session


def fight(scenario_path, ruleset=None, seed=None, turns=None, save=None) -> Session:
    """Play a scenario with the commander on both sides; `save` records it as it plays."""
    battle = load_scenario(scenario_path, ruleset)
    info = battle.info
    if seed is not None or turns is not None:
        battle.set_info(replace(info, seed=info.seed if seed is None else int(seed),
                                turns=info.turns if turns is None else int(turns)))
    session = Session(battle)
    record = None
    if save is not None:
        from .store import create_battle
        record = create_battle(save, session)
    try:
        Autopilot(session).play()
    finally:
        if record is not None:
            record.close()
    if record is not None and record.error:
        from .errors import StoreError
        raise StoreError(record.error)
    return session


def hits_by_unit(session) -> dict[str, int]:
    """Gross hits each unit took over the battle (rallies do not undo them)."""
    taken: dict[str, int] = {}
    for entry in session.entries:
        for e in entry.events:
            if isinstance(e, HitsTaken):
                taken[e.uid] = taken.get(e.uid, 0) + e.hits
    return taken


def engaged_by_unit(session) -> tuple[set, dict]:
    """(units that fired, struck in a melee or took hits; {arrival id: turn it came on})."""
    b = session.battle
    by_name = {u.name: u.id for u in b.all_units().values()}
    fought, came = set(hits_by_unit(session)), {}
    for entry in session.entries:
        a = entry.action
        if a.verb in ("Fire", "Charge", "TableFire") and hasattr(a, "unit"):
            fought.add(a.unit)
        for e in entry.events:
            name = e.__class__.__name__
            if name == "MeleeResolved":
                fought.update(by_name.get(n, n) for n in tuple(e.attackers) + tuple(e.defenders))
            elif name == "ReinforcementsArrived":
                came[a.arrival] = entry.turn
    return fought, came


def report(session, scenario_name: str | None = None) -> dict:
    b = session.battle
    h = b.hierarchy
    taken = hits_by_unit(session)
    fought, came = engaged_by_unit(session)
    sides = {}
    for side in b.sides:
        commands = {}
        for cid in h.commands_of(side):
            units = h.units_of(cid)
            lid = h.leader_of_command(cid)
            to_come = [u.id for a in b.pending for k, u in a.units if k == cid]
            commands[b.commands[cid].name] = {
                "units_start": len(units),
                "units_left": sum(1 for u in units if not b.units[u].eliminated),
                "units_eliminated": sum(1 for u in units if b.units[u].eliminated),
                "units_to_come": len(to_come),        # reinforcements that never arrived
                "arrived_turn": came.get(cid),        # a command that came as reinforcements
                "fought": any(u in fought for u in units),
                "hits_taken": sum(taken.get(u, 0) for u in units),
                "shaken": cid in b.state.shaken,
                "leader_lost": bool(lid) and lid in b.leaders and b.leaders[lid].eliminated,
            }
        sides[side] = {"commands": commands}
    return {"scenario": scenario_name or b.info.name, "ruleset": b.info.ruleset,
            "seed": b.info.seed, "turns": b.state.turn,
            "result": {"winner": b.state.winner, "reason": b.state.reason},
            "sides": sides}


def turn_rows(session) -> list[dict]:
    """Per turn: {"turn", "hits": {side: hits taken}, "lost": {side: units lost},
    "shaken": [commands]} (the report's table and the CLI's lines)."""
    b = session.battle
    # a unit the umpire removed mid-battle is gone from the battle now, not from its log
    side_of = {u.id: u.side for u in session.initial_battle().units.values()}
    side_of.update({u.id: u.side for u in b.units.values()})

    def fresh(turn):
        return {"turn": turn, "hits": dict.fromkeys(b.sides, 0), "lost": dict.fromkeys(b.sides, 0),
                "shaken": []}

    rows = [fresh(1)]
    for entry in session.entries:
        for e in entry.events:
            name = e.__class__.__name__
            row = rows[-1]
            if isinstance(e, TurnBegan) and e.turn > row["turn"]:
                rows.append(fresh(e.turn))
            elif isinstance(e, HitsTaken) and side_of.get(e.uid) in row["hits"]:
                row["hits"][side_of[e.uid]] += e.hits
            elif name == "UnitEliminated" and side_of.get(e.uid) in row["lost"]:
                row["lost"][side_of[e.uid]] += 1
            elif name == "CommandShaken":
                row["shaken"].append(e.command)
    return rows


def turn_lines(session) -> list[str]:
    """A line per turn: hits and units lost by each side, commands Shaken."""
    b = session.battle
    lines = []
    for row in turn_rows(session):
        parts = [f"{b.sides[s].name} -{row['hits'][s]} hits, {row['lost'][s]} units lost"
                 for s in b.sides]
        lines.append(f"Turn {row['turn']:2d}: " + "; ".join(parts) +
                     (f"; Shaken: {', '.join(row['shaken'])}" if row["shaken"] else ""))
    return lines


# ---- many seeds ------------------------------------------------------------------------------
def _one(args):
    path, ruleset, seed, turns = args
    return report(fight(path, ruleset, seed, turns))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def balance(path, runs: int, ruleset=None, seed=1, turns=None, progress=True) -> dict:
    jobs = [(str(path), ruleset, seed + i, turns) for i in range(runs)]
    results = []
    workers = max(1, min(os.cpu_count() or 1, runs))
    bar = _Progress(runs) if progress else None
    if workers == 1:
        for job in jobs:
            results.append(_one(job))
            bar and bar.tick()
    else:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(workers) as pool:
            for r in pool.imap(_one, jobs):
                results.append(r)
                bar and bar.tick()
    bar and bar.close()
    return summarise(results)


def summarise(results: list[dict]) -> dict:
    n = len(results)
    first = results[0]
    sides = list(first["sides"])
    wins = {s: sum(1 for r in results if r["result"]["winner"] == s) for s in sides}
    draws = sum(1 for r in results if r["result"]["winner"] is None)
    out = {"scenario": first["scenario"], "ruleset": first["ruleset"], "runs": n,
           "seeds": [r["seed"] for r in results],
           "wins": {s: {"count": wins[s], "rate": wins[s] / n,
                        "ci95": list(wilson(wins[s], n))} for s in sides},
           "undecided": {"count": draws, "rate": draws / n},
           "mean_turns": sum(r["turns"] for r in results) / n,
           "by_morale": sum(1 for r in results if "concedes" in r["result"]["reason"]) / n,
           "commands": {}}
    for s in sides:
        out["commands"][s] = {}
        for name, c in first["sides"][s]["commands"].items():
            lost = [r["sides"][s]["commands"][name]["units_start"] -
                    r["sides"][s]["commands"][name]["units_left"] for r in results]
            out["commands"][s][name] = {
                "units_start": c["units_start"],
                "mean_units_lost": sum(lost) / n,
                "mean_hits_taken": sum(r["sides"][s]["commands"][name]["hits_taken"]
                                       for r in results) / n,
                "shaken_rate": sum(r["sides"][s]["commands"][name]["shaken"] for r in results) / n,
                "fought_rate": sum(bool(r["sides"][s]["commands"][name].get("fought"))
                                   for r in results) / n,
            }
            came = [r["sides"][s]["commands"][name].get("arrived_turn") for r in results]
            if any(t is not None for t in came):
                turns = [t for t in came if t is not None]
                out["commands"][s][name]["arrived"] = {
                    "rate": len(turns) / n, "mean_turn": sum(turns) / len(turns),
                    "by_turn": {t: turns.count(t) for t in sorted(set(turns))}}
    return out


class _Progress:
    def __init__(self, total: int):
        self.total, self.done = total, 0
        self.live = sys.stderr.isatty()

    def tick(self):
        self.done += 1
        width = 30
        filled = width * self.done // self.total
        text = f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} battles"
        if self.live or self.done == self.total:
            raw = getattr(sys.stderr, "_stream", sys.stderr)   # numbers only: the \r may pass
            raw.write(text)
            raw.flush()

    def close(self):
        sys.stderr.write("\n")
