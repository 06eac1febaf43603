"""Balance at scale: many seeded battles on the local cores or a Dask cluster.

A job is (scenario, seed): the scenario file is read and parsed once per process (the
parent reads the text, each worker parses it once and copies the battle for every
seed), so a run costs only its battle. Results come back in seed order whatever the
number of workers or machines: a battle depends on nothing but its scenario and seed.

`--grid option=v1,v2` fights the same seeds under each setting of one option (common
random numbers: the settings are compared on identical dice streams where they agree).
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import os
import sys
import threading
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from .errors import BerthierError, ScenarioError


@dataclass(frozen=True)
class Scenario:
    """What a worker needs to build the battle: the file's text, not its path (a
    cluster's machines need not share the disk)."""
    name: str
    text: str
    ruleset: str | None
    options: tuple = ()                 # (key, value) overrides, e.g. from --grid

    @property
    def key(self) -> str:
        return hashlib.sha256(repr((self.text, self.ruleset, self.options)).encode()).hexdigest()


_PARSED: dict = {}                       # per process: Scenario.key -> Battle, parsed once


def scenario_battle(sc: Scenario):
    """The parsed battle (a fresh copy each call), parsing the text once per process."""
    battle = _PARSED.get(sc.key)
    if battle is None:
        from .scenario_io import battle_from_dict
        try:
            data = tomllib.loads(sc.text)
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(sc.name, "", f"not valid TOML: {exc}") from None
        battle = battle_from_dict(data, sc.name, sc.ruleset)
        if sc.options:
            from .rules import get_ruleset
            rules = get_ruleset(battle.info.ruleset)
            try:
                opts = rules.check_options({**battle.info.options, **dict(sc.options)})
            except ValueError as exc:
                raise BerthierError(f"--grid: {exc}") from None
            battle.set_info(replace(battle.info, options=MappingProxyType(opts)))
        _PARSED[sc.key] = battle
    return battle.copy()


def run_job(job: tuple) -> dict:
    """One battle: (Scenario, seed, turn limit or None) -> its report."""
    sc, seed, turns = job
    from .autopilot import Autopilot
    from .session import Session
    from .simulate import report
    battle = scenario_battle(sc)
    info = battle.info
    battle.set_info(replace(info, seed=int(seed), turns=info.turns if turns is None else int(turns)))
    session = Session(battle)
    Autopilot(session).play()
    return report(session)


def read_scenario(path, ruleset=None, options=()) -> Scenario:
    from .scenario_io import read_text
    path = Path(path)
    sc = Scenario(str(path), read_text(path, ScenarioError), ruleset, tuple(options))
    scenario_battle(sc)                  # a bad file or option fails here, before any worker
    return sc


def parse_grid(spec: str) -> tuple[str, list]:
    """'option=v1,v2' -> (option, [values]); values read as TOML (numbers, booleans,
    "strings"), bare words as strings."""
    key, sep, values = spec.partition("=")
    if not sep or not key.strip() or not values.strip():
        raise BerthierError(f"--grid {spec!r}: expected option=value1,value2")
    out = []
    for v in values.split(","):
        v = v.strip()
        try:
            out.append(tomllib.loads(f"v = {v}")["v"])
        except tomllib.TOMLDecodeError:
            out.append(v)
    return key.strip(), out


# ---- running jobs ---------------------------------------------------------------------------
def run_jobs(jobs: list, workers: int | None = None, cluster: str | None = None,
             tick=lambda: None) -> list[dict]:
    """Every job's report, in the jobs' order."""
    if cluster:
        return _on_cluster(cluster, jobs, tick)
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    if workers == 1:
        out = []
        with battle_gc():
            for job in jobs:
                out.append(run_job(job))
                tick()
        return out
    import multiprocessing as mp
    # fork shares the parsed modules with the workers (no re-import per worker); spawn
    # where fork is unsafe (other threads running) or unavailable
    method = "fork" if (sys.platform == "linux" and threading.active_count() == 1) else "spawn"
    out = []
    with mp.get_context(method).Pool(workers, initializer=_worker_gc) as pool:
        # a few battles per message: less traffic, and still balanced across workers
        chunk = max(1, min(4, len(jobs) // (workers * 8)))
        for r in pool.imap(run_job, jobs, chunksize=chunk):
            out.append(r)
            tick()
    return out


# Garbage collection while battles are fought: a battle allocates millions of small
# records and tuples, nearly all freed by reference counting, so the default first
# generation (700 allocations) collects ~10 times a turn and the full collections scan
# every cached base; fewer, larger collections cost a whole battle ~2% less CPU. The
# collector decides nothing a battle computes, so results are the same.
BATTLE_GC = (20_000, 20, 20)


@contextlib.contextmanager
def battle_gc():
    """The battle collection thresholds, put back afterwards (a run in the caller's own
    process: the CLI's single core, tests)."""
    before = gc.get_threshold()
    gc.set_threshold(*BATTLE_GC)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _worker_gc() -> None:
    """A pool worker: everything inherited at the fork (modules, the parsed scenario) is
    never garbage: left out of every collection; then the battle thresholds."""
    gc.freeze()
    gc.set_threshold(*BATTLE_GC)


def _on_cluster(address: str, jobs: list, tick, connect_timeout: float = 30) -> list[dict]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise BerthierError("--cluster needs Dask distributed: pip install -e \".[cluster]\"") \
            from None
    try:
        client = Client(address, timeout=connect_timeout)
    except (OSError, TimeoutError) as exc:
        raise BerthierError(f"--cluster {address}: cannot reach the scheduler ({exc})") from None
    with client:
        futures = client.map(run_job, jobs, pure=False)
        where = {f.key: k for k, f in enumerate(futures)}
        out: list = [None] * len(jobs)
        for f in as_completed(futures):
            out[where[f.key]] = f.result()
            tick()
    return out


# ---- summaries ------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


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
           "undecided": {"count": draws, "rate": draws / n,
                         "ahead": _ahead_counts(results, sides)},
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
            if any(t is not None for t in came):       # reinforcements: how often and when
                turns = [t for t in came if t is not None]
                out["commands"][s][name]["arrived"] = {
                    "rate": len(turns) / n, "mean_turn": sum(turns) / len(turns),
                    "by_turn": {t: turns.count(t) for t in sorted(set(turns))}}
    return out


def losses(side_report: dict) -> tuple[float, float]:
    """(share of the side's units that came to the battle and were eliminated, hits taken
    per such unit): the order a club umpire weighs losses in at the end of a game."""
    cmds = side_report["commands"].values()
    came = sum(c["units_start"] - c.get("units_to_come", 0) for c in cmds)
    if not came:
        return 0.0, 0.0
    return (sum(c["units_eliminated"] for c in cmds) / came,
            sum(c.get("hits_taken", 0) for c in cmds) / came)


def ahead_on_losses(result: dict) -> str | None:
    """A battle the turn limit ended undecided: the side that lost the smaller share of
    its units, then took fewer hits per unit (None if even). Most inch Austerlitz battles
    reach the limit, so a designer needs to know who was winning them; the battle itself
    stays undecided (the texts give no verdict at a turn limit)."""
    weighed = {s: losses(r) for s, r in result["sides"].items()}
    best = min(weighed.values())
    leaders = [s for s, v in weighed.items() if v == best]
    return leaders[0] if len(leaders) == 1 else None


def _ahead_counts(results: list[dict], sides: list) -> dict:
    out = {s: 0 for s in sides}
    out["even"] = 0
    for r in results:
        if r["result"]["winner"] is None:
            out[ahead_on_losses(r) or "even"] += 1
    return out


class Progress:
    """A bar on stderr (redrawn in place on a terminal; the last line only otherwise)."""

    def __init__(self, total: int, what: str = "battles", stream=None):
        self.total, self.done, self.what = total, 0, what
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()

    def tick(self):
        self.done += 1
        width = 30
        filled = width * self.done // max(self.total, 1)
        text = f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.what}"
        if self.live or self.done == self.total:
            # past the CLI's control-character escaping: the bar's \r must pass
            raw = getattr(self.stream, "_stream", self.stream)
            raw.write(text)
            raw.flush()

    def close(self):
        self.stream.write("\n")
