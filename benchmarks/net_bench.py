"""Several laptops, one battle: the network's figures (issue 18).

    python benchmarks/net_bench.py [--seconds 120] [--tiny] [--json]

The host is the real `berthier host` in its own process, recording to a battle file on
the project's disk (each entry committed before it is sent); the laptops are `Laptop`s in
this process, playing Austerlitz with the automatic commander for their sectors.

- round trip: one laptop holding every command sends actions one after another (at most 15
  a second, under the host's rate limit, so none waits on pacing); the time from sending
  an action to its result (the host checked, executed, recorded and sent the entry back
  first). Target < 20 ms median.
- load: four laptops (sectors of 4, 3, 3 and 3 commands), each at most 200 actions a
  minute, for two minutes (a few seconds with --tiny) or until the battle ends. Every
  action the host accepted must be in every laptop's log once, at the index the host
  answered, and every log must equal the host's file: "lost or duplicated" counts the
  ones that are not. Also the round trip under that load.
- the host's CPU per action: the host process's user+system time over the load run
  (from /proc), divided by the entries it executed.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from manager.net.laptop import Laptop  # noqa: E402
from manager.net.pilot import play_auto  # noqa: E402

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


class TimedLaptop(Laptop):
    """A laptop that keeps each accepted action, its index and round trip, at a set pace."""

    def __init__(self, *args, per_minute: float | None = None, **kw):
        super().__init__(*args, **kw)
        self.gap = 60.0 / per_minute if per_minute else 0.0
        self.accepted: list[tuple[int, dict]] = []
        self.trips: list[float] = []
        self.refusals = 0
        self._last = 0.0

    async def act(self, action, dice=None, timeout: float = 30.0) -> int:
        wait = self._last + self.gap - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last = t0 = time.perf_counter()
        try:
            index = await super().act(action, dice, timeout)
        except Exception:
            self.refusals += 1
            raise
        self.trips.append(time.perf_counter() - t0)
        self.accepted.append((index, action.to_dict()))
        return index


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def start_host(folder: Path, name: str, turns: int):
    env = dict(os.environ, PYTHONPATH=str(ROOT), BERTHIER_DATA=str(folder / "data"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "manager.cli", "host", str(AUSTERLITZ), "--save",
        str(folder / f"{name}.berthier"), "--port", "0", "--bind", "127.0.0.1", "--turns",
        str(turns), cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    lines = {}
    for _ in range(3):
        key, _, value = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip() \
            .partition(" ")
        lines[key] = value
    return proc, lines["address"], lines["code"]


async def stop_host(proc) -> None:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()


def sectors(n: int) -> list[list[str]]:
    from manager.scenario_io import load_scenario
    cmds = sorted(load_scenario(AUSTERLITZ).commands)
    return [cmds[i::n] for i in range(n)]


async def round_trip(folder: Path, actions: int) -> list[float]:
    proc, address, code = await start_host(folder, "trip", 24)
    # at 15 actions a second: under the host's rate limit (20 a second), so no send waits
    # on the laptop's own pacing and the time is the round trip alone
    lap = TimedLaptop(address, code, sectors(1)[0], name="alone", per_minute=900)
    try:
        await lap.start()
        stop = asyncio.Event()
        player = asyncio.ensure_future(play_auto(lap, stop=stop))
        await lap.wait_until(lambda: len(lap.trips) >= actions or player.done(), 600)
        stop.set()
        await lap.close()
        await asyncio.wait_for(player, 30)
        return lap.trips
    finally:
        await lap.close()
        await stop_host(proc)


async def load(folder: Path, seconds: float, per_minute: float) -> dict:
    from manager.store.battle_file import load_battle
    proc, address, code = await start_host(folder, "load", 24)
    laps = [TimedLaptop(address, code, part, name=f"sector {i}", per_minute=per_minute)
            for i, part in enumerate(sectors(4))]
    try:
        for lap in laps:
            await lap.start()
        cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
        stop = asyncio.Event()
        players = [asyncio.ensure_future(play_auto(lap, stop=stop)) for lap in laps]
        done, _ = await asyncio.wait(players, timeout=seconds)
        stop.set()
        for lap in laps:               # wake the pilots waiting on the next entry
            lap._bump()
        await asyncio.wait_for(asyncio.gather(*players), 60)
        wall = time.perf_counter() - t0
        head = len(laps[0].session.entries)
        for lap in laps:
            await lap.wait_until(lambda: len(lap.session.entries) >= head, 30)
        cpu = cpu_seconds(proc.pid) - cpu0
        await stop_host(proc)
        saved, _ = load_battle(folder / "load.berthier")
        host_log = [(e.action.to_dict(), [r.to_dict() for r in e.rolls]) for e in saved.entries]
        bad = 0
        indices = [i for lap in laps for i, _ in lap.accepted]
        bad += len(indices) - len(set(indices))                    # duplicated
        for lap in laps:
            mine = [(e.action.to_dict(), [r.to_dict() for r in e.rolls])
                    for e in lap.session.entries]
            bad += sum(1 for a, b in zip(mine, host_log) if a != b) + abs(len(mine) - len(host_log))
            bad += sum(1 for i, a in lap.accepted if i >= len(host_log) or host_log[i][0] != a)
        sent = sum(len(lap.accepted) for lap in laps)
        return {"entries": len(saved.entries), "sent": sent, "bad": bad, "cpu": cpu,
                "wall": wall, "trips": [t for lap in laps for t in lap.trips],
                "refused": sum(lap.refusals for lap in laps), "executed": head}
    finally:
        for lap in laps:
            await lap.close()
        await stop_host(proc)


def figures(tiny: bool = False, seconds: float = 120.0) -> list[dict]:
    from bench_common import figure
    folder = Path(tempfile.mkdtemp(prefix="net-bench-", dir=ROOT / "benchmarks"))
    try:
        trips = asyncio.run(round_trip(folder, 20 if tiny else 300))
        result = asyncio.run(load(folder, 3.0 if tiny else seconds, 200.0))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    med = statistics.median
    per_action = result["cpu"] / max(result["executed"], 1) * 1000
    return [
        figure("net: action round trip on loopback, median", med(trips) * 1000, "ms", 20,
               note=f"{len(trips)} actions, one laptop"),
        figure("net: action round trip, 90th percentile", sorted(trips)[int(0.9 * len(trips))]
               * 1000, "ms"),
        figure("net: round trip under 4 laptops x 200 actions/min, median",
               med(result["trips"]) * 1000 if result["trips"] else float("nan"), "ms", 20),
        figure("net: actions lost or duplicated (4 laptops x 200/min)", result["bad"], "", 1,
               note=f"{result['sent']} accepted in {result['wall']:.0f} s, "
                    f"{result['refused']} refused with a reason"),
        figure("net: host CPU per action", per_action, "ms",
               note=f"{result['executed']} entries, checked, recorded and sent to 4"),
    ]


def main(argv=None) -> int:
    from bench_common import emit, parser
    ap = parser(__doc__)
    ap.add_argument("--seconds", type=float, default=120.0, help="length of the load run")
    args = ap.parse_args(argv)
    emit(figures(args.tiny, args.seconds), args.json, "Several laptops on loopback",
         tiny=args.tiny)
    return 0


if __name__ == "__main__":
    sys.exit(main())
