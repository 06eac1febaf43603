"""Fight battles with the automatic commander on both sides and report them.

`fight` plays one seed; `report` turns the finished session into the JSON the CLI
prints (the same keys `berthier report` will use for saved battles); `balance`
fights many seeds across the machine's cores and summarises who wins and how.
"""
from __future__ import annotations

from dataclasses import replace

from .autopilot import Autopilot
from .balance import Progress, read_scenario, run_jobs, summarise, wilson  # noqa: F401
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


# ---- many seeds (the machinery is in balance.py) ----------------------------------------------
def balance(path, runs: int, ruleset=None, seed=1, turns=None, progress=True,
            workers: int | None = None, cluster: str | None = None, options=()) -> dict:
    """Fight seeds seed..seed+runs-1 on the local cores (or a Dask cluster at `cluster`)
    and summarise who wins and how."""
    sc = read_scenario(path, ruleset, options)
    jobs = [(sc, seed + i, turns) for i in range(runs)]
    bar = Progress(runs) if progress else None
    results = run_jobs(jobs, workers, cluster, bar.tick if bar else lambda: None)
    bar and bar.close()
    return summarise(results)


def sweep(path, runs: int, option: str, values: list, ruleset=None, seed=1, turns=None,
          progress=True, workers: int | None = None, cluster: str | None = None) -> dict:
    """The same seeds under each value of one option: a balance summary per setting."""
    scenarios = [read_scenario(path, ruleset, ((option, v),)) for v in values]
    jobs = [(sc, seed + i, turns) for sc in scenarios for i in range(runs)]
    bar = Progress(len(jobs)) if progress else None
    results = run_jobs(jobs, workers, cluster, bar.tick if bar else lambda: None)
    bar and bar.close()
    return {"option": option, "runs": runs,
            "settings": [{"value": v, **summarise(results[k * runs:(k + 1) * runs])}
                         for k, v in enumerate(values)]}
