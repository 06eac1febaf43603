"""Instructions of each ruleset's Austerlitz turns, counted by valgrind: a figure that
does not swing with the machine's load as CPU time does (issue 17).

    python benchmarks/instructions_bench.py [--turns 3] [--rulesets d3,quickplay] [--cpu]
                                            [--cycles] [--tiny] [--json]

Each ruleset plays Austerlitz (seed 1, the automatic commander on both sides) in a child
process run under `valgrind --tool=callgrind`. Only the turns are counted: the child
calls os.getppid() once the battle has started, which makes callgrind zero its counters
(--zero-before=getppid), and os.getpgrp() after each turn, which makes it write that
turn's count (--dump-before=getpgrp). So imports, the scenario and the start are not in
the count and no start-up run is subtracted. The child's string hashing is fixed
(PYTHONHASHSEED=0): a random seed lays out its dicts and sets differently in every run.
Reported: the instructions of all the turns (millions) and each inch ruleset's count
over Morschauser's (the issue's "at most 3x the Morschauser turn", counted, not timed).

--cycles also simulates the caches and the branch predictor (callgrind's --cache-sim and
--branch-sim, several times slower) and reports estimated cycles, valgrind's classic
`Ir + 10 x (first-level misses + mispredicted branches) + 100 x last-level misses`: as
steady as the instruction count, and it counts what instructions miss. The inch
rulesets' numpy and shapely calls miss the instruction cache about twice as often per
instruction as the Morschauser turn (the fourteenth session's cachegrind), so their CPU
ratio reads above their instruction ratio; the estimate follows the CPU's way.

Without valgrind on the machine (or with --cpu) the same children time the same turns
by CPU time instead, and the figures' names say so. --tiny plays the test skirmish for
one turn by CPU time (Python's imports alone take a minute under valgrind).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import AUSTERLITZ, SKIRMISH, emit, figure, parser  # noqa: E402

RULESETS = ("morschauser", "featherstone", "d3", "quickplay")
ZERO_AT, DUMP_AT = "getppid", "getpgrp"        # libc calls a battle never makes


def valgrind() -> str | None:
    return shutil.which("valgrind")


def callgrind_command(program: list[str], out: Path, cycles: bool = False) -> list[str]:
    """The command that counts `program`'s instructions between the markers (and, with
    `cycles`, its simulated cache misses and mispredicted branches)."""
    sim = ["--cache-sim=yes", "--branch-sim=yes"] if cycles else []
    return [valgrind() or "valgrind", "--tool=callgrind", *sim, f"--callgrind-out-file={out}",
            f"--zero-before={ZERO_AT}", f"--dump-before={DUMP_AT}", *program]


def summary(text: str, name: str = "callgrind output") -> int:
    """The instruction count of one callgrind dump (its `summary:` line)."""
    for line in text.splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise ValueError(f"{name}: no 'summary:' line (is it a callgrind output file?)")


# valgrind's cycle estimate: each first-level miss and mispredicted branch ~10 cycles,
# each last-level miss ~100, on top of one an instruction
MISS_COST = {"I1mr": 10, "D1mr": 10, "D1mw": 10, "Bcm": 10, "Bim": 10,
             "ILmr": 100, "DLmr": 100, "DLmw": 100}


def estimated_cycles(text: str, name: str = "callgrind output") -> int:
    """Valgrind's estimate of the cycles of one dump made with --cache-sim and
    --branch-sim: its `summary:` line, event by event as its `events:` line names them."""
    events = None
    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:") and events:
            got = dict(zip(events, map(int, line.split()[1:])))
            if "I1mr" not in got or "Bcm" not in got:
                raise ValueError(f"{name}: no cache or branch events (run with --cycles)")
            return got["Ir"] + sum(k * got.get(e, 0) for e, k in MISS_COST.items())
    raise ValueError(f"{name}: no 'events:' and 'summary:' lines (is it a callgrind output file?)")


def counted(program: list[str], timeout: float = 3600,
            cycles: bool = False) -> tuple[list[int], str]:
    """(instructions between the zero marker and each dump marker, in order: one count per
    os.getpgrp() the program calls after its os.getppid(); what the program printed).
    With `cycles`, estimated cycles instead of instructions."""
    read = estimated_cycles if cycles else summary
    with tempfile.TemporaryDirectory(prefix="berthier-ir-") as tmp:
        out = Path(tmp) / "cg.out"
        p = subprocess.run(callgrind_command(program, out, cycles), capture_output=True,
                           text=True, timeout=timeout, env=child_env())
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"valgrind run failed ({p.returncode}): {last}")
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda f: int(f.suffix[1:]))
        return [read(f.read_text(), f.name) for f in dumps], p.stdout


def child_env() -> dict:
    """The child's environment with string hashing fixed: with a random hash seed each
    run lays out its dicts and sets differently, which moves a count by a few million
    instructions between identical runs (the battle's results never depend on it).
    OpenBLAS's own threads are not started: numpy's import starts one a core, and under
    callgrind their waiting loops were counted into the first turns, by chance (the same
    Morschauser turn counted 153-180 M; 143.0 M every time without them)."""
    return {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}


# ---- the child: plays the turns between the markers ----------------------------------
def child(ruleset: str, turns: int, path: str) -> None:
    from bench_common import scenario
    from manager.autopilot import Autopilot
    from manager.session import Session
    s = Session(scenario(Path(path), ruleset, seed=1, turns=turns))
    ap = Autopilot(s)
    ap.step()                                           # StartBattle
    cpu = []
    os.getppid()                                        # callgrind: counting starts here
    while not s.battle.state.over and s.battle.state.turn <= turns:
        t = time.process_time()
        ap.play_turn()
        cpu.append(time.process_time() - t)
        os.getpgrp()                                    # callgrind: this turn's count
    print(json.dumps({"cpu_s": cpu, "units": len(s.battle.units)}))


def child_program(ruleset: str, turns: int, path: Path) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--child", ruleset, str(turns),
            str(path)]


def marked(program: list[str], by_cpu: bool, what: str = "pieces",
           cycles: bool = False) -> list[float]:
    """Run a child that marks its pieces of work (os.getppid() before the first,
    os.getpgrp() after each) and prints {"cpu_s": [one per piece]} last: each piece's
    instructions under callgrind (estimated cycles with `cycles`), or its CPU seconds
    when by_cpu."""
    if by_cpu:
        p = subprocess.run(program, capture_output=True, text=True, check=True, timeout=3600,
                           env=child_env())
        return json.loads(p.stdout.strip().splitlines()[-1])["cpu_s"]
    counts, printed = counted(program, cycles=cycles)
    done = len(json.loads(printed.strip().splitlines()[-1])["cpu_s"])
    if len(counts) != done:             # a marker called by something else: no true count
        raise RuntimeError(f"{len(counts)} callgrind dumps for {done} {what}")
    return [float(n) for n in counts]


def per_turn(ruleset: str, turns: int, path: Path, by_cpu: bool,
             cycles: bool = False) -> tuple[list[float], str]:
    """(each turn's instructions, estimated cycles with `cycles`, or its CPU seconds when
    by_cpu; the unit)."""
    got = marked(child_program(ruleset, turns, path), by_cpu, f"{ruleset} turns",
                 cycles and not by_cpu)
    return got, "CPU s" if by_cpu else "estimated cycles" if cycles else "instructions"


def figures(tiny: bool = False, turns: int = 3, rulesets=None, cpu: bool = False,
            cycles: bool = False) -> list[dict]:
    path, turns = (SKIRMISH, 1) if tiny else (AUSTERLITZ, turns)
    by_cpu = cpu or tiny or valgrind() is None
    why = ("" if not by_cpu else "tiny: timed" if tiny else "asked for CPU time" if cpu
           else "valgrind is not on this machine: timed instead")
    where = "skirmish" if tiny else "Austerlitz"
    what = "CPU" if by_cpu else "estimated cycles" if cycles else "instructions"
    out, base = [], None
    for rs in rulesets or RULESETS:
        got, unit = per_turn(rs, turns, path, by_cpu, cycles)
        total = sum(got)
        note = f"{len(got)} turns: " + ", ".join(
            f"{g * 1000:.0f} ms" if by_cpu else f"{g / 1e6:.0f} M" for g in got)
        if why:
            note += f"; {why}"
        if by_cpu:
            out.append(figure(f"{where} CPU of {len(got)} turns, {rs}", total * 1000, "ms",
                              note=note))
        else:
            out.append(figure(f"{where} {what} of {len(got)} turns, {rs}", total / 1e6,
                              "M", note=note))
        if rs == "morschauser":
            base = total
        elif base:
            out.append(figure(f"{where} {what}, {rs} / morschauser", total / base, "x",
                              None if by_cpu else 3, note="the same turns"))
    return out


def main(argv=None) -> None:
    if argv is None and sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    ap = parser(__doc__)
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--rulesets", default="", help="comma-separated (default: all four)")
    ap.add_argument("--cpu", action="store_true", help="time by CPU, without valgrind")
    ap.add_argument("--cycles", action="store_true",
                    help="estimated cycles (cache and branch simulation; several times slower)")
    args = ap.parse_args(argv)
    rulesets = tuple(r for r in args.rulesets.split(",") if r) or None
    emit(figures(args.tiny, args.turns, rulesets, args.cpu, args.cycles), args.json,
         "Estimated cycles of the turns (valgrind callgrind, caches and branches simulated; "
         "deterministic)" if args.cycles else
         "Instructions of the turns (valgrind callgrind; deterministic)", tiny=args.tiny)


if __name__ == "__main__":
    main()
