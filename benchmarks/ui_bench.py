"""Desktop-app benchmarks (a script, not a timed test: machines are noisy).

    python benchmarks/ui_bench.py [--repeat 3] [--instructions] [--tiny] [--json]

On Austerlitz and on a generated battle of 2,000 units, offscreen:
- open to first paint: read the scenario, build the window and docks, paint once
  (target under 1.5 s);
- frame time of a pan and of a zoom: scroll or scale the view and repaint the viewport
  synchronously (target under 16 ms);
- drop to legality feedback: what a drop costs before the umpire sees the verdict,
  i.e. the engine's check of the move the drop means (target under 50 ms).

Frame times swing with the machine's load (a shared host reads 15-40 ms for the same
Austerlitz zoom frame within minutes). --instructions also counts the instructions of a
zoom frame at each of the three zooms with valgrind (instructions_bench's markers), on
both battles, a figure that does not swing: the one to compare two versions of the
drawing code by. (The 2,000 units' fit-all zoom, 2.6 px an inch, draws the counters as
one map: ui/battlefield/overview.py.)
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("BERTHIER_CONFIG", str(Path(tempfile.mkdtemp()) / "bench.ini"))

from manager.scenario_io import save_scenario, battle_from_dict  # noqa: E402

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"
KINDS = ("line_infantry", "line_infantry", "light_infantry", "grenadiers", "light_cavalry",
         "heavy_cavalry", "foot_artillery", "horse_artillery")


def big_battle(units_per_side: int = 1000, path: Path | None = None) -> Path:
    """A generated battle: two armies of 10 commands on a 120 x 80 box table with terrain."""
    cols, rows, grid = 120, 80, 3
    terrain = []
    for k in range(24):
        x, y = 20 + (k * 37) % 75, 6 + (k * 23) % 68        # clear of both deployments
        kind = ("woods", "town", "hill", "fields")[k % 4]
        terrain.append({"id": f"t{k}", "kind": kind,
                        "points": [[x * 3, y * 3], [x * 3 + 15, y * 3 + 2], [x * 3 + 12, y * 3 + 14],
                                   [x * 3 - 2, y * 3 + 11]]})
    terrain.append({"id": "river", "kind": "stream", "points": [[180.0 + 1.5, 0], [181.5, 240]]})
    terrain.append({"id": "road", "kind": "road", "points": [[0, 121.5], [360, 121.5]]})
    sides = []
    for s, (sid, facing, col0) in enumerate((("west", 90, 1), ("east", 270, cols - 14))):
        cmds = []
        per_cmd = units_per_side // 10
        for c in range(10):
            units = []
            for i in range(per_cmd):
                n = c * per_cmd + i
                col, row = col0 + n % 13, 1 + n // 13          # 13 x 77 boxes a side
                units.append({"id": f"{sid}{n}", "name": f"{sid.title()} {n}",
                              "kind": KINDS[n % len(KINDS)], "at": [col, row], "facing": facing})
            cmds.append({"id": f"{sid}c{c}", "name": f"{sid.title()} Division {c + 1}",
                         "leader": {"id": f"{sid}l{c}", "name": f"General {sid} {c}", "quality": 3,
                                    "at": [col0 + 14 if s == 0 else col0 - 2, 2 + c * 7]},
                         "units": units})
        sides.append({"id": sid, "name": f"{sid.title()} Army", "nation": "france" if s == 0 else "austria",
                      "home_edge": sid, "colour": "#2b4ea2" if s == 0 else "#b03030", "commands": cmds})
    data = {"scenario": {"name": f"Generated {2 * units_per_side}", "ruleset": "morschauser", "seed": 1,
                         "turns": 12, "first_side": "west"},
            "table": {"width": cols * grid, "height": rows * grid, "grid": grid},
            "terrain": terrain, "sides": sides}
    battle = battle_from_dict(data, "<generated>")
    path = path or Path(tempfile.mkdtemp()) / "generated.toml"
    save_scenario(battle, path)
    return path


def open_window(app, path: Path):
    """The main window on `path`, 1600 x 1000, shown and painted once."""
    from ui.main_window import MainWindow
    w = MainWindow()
    w.open_path(path)
    w.resize(1600, 1000)
    w.show()
    app.processEvents()
    w.view.viewport().repaint()
    return w


def measure(path: Path, repeat: int, steps: int = 30) -> dict:
    from manager.game_actions import EndPhase, StartBattle
    from ui.app import application
    app = application()
    opens = []
    for _ in range(repeat):
        t = time.perf_counter()
        w = open_window(app, path)
        opens.append(time.perf_counter() - t)
        if len(opens) < repeat:
            w.close()
            w.deleteLater()
            app.processEvents()
    view = w.view
    vp = view.viewport()
    pans, full, zooms, by_level = [], [], [], {}
    for zoom in (view.zoom, 12.0, 30.0):        # whole table, a corps, a brigade
        view.set_zoom(zoom)
        level = by_level.setdefault(f"{view.zoom:.1f} px/inch", [])
        app.processEvents()
        bar = view.horizontalScrollBar()
        for k in range(steps):
            # a pan as Qt does it: scroll the pixels, paint the strip uncovered
            t = time.perf_counter()
            bar.setValue(bar.value() + (40 if k % 2 == 0 else -40))
            app.processEvents()
            pans.append(time.perf_counter() - t)
            # the worst case: the whole viewport repainted after the step
            t = time.perf_counter()
            bar.setValue(bar.value() + (40 if k % 2 == 0 else -40))
            vp.repaint()
            full.append(time.perf_counter() - t)
        for k in range(max(2, steps * 2 // 3)):
            t = time.perf_counter()
            view.zoom_by(1.1 if k % 2 == 0 else 1 / 1.1)
            vp.repaint()
            zooms.append(time.perf_counter() - t)
            level.append(zooms[-1])
    # drop feedback: in the move phase, the check a drop makes, for ten units
    doc = w.doc
    doc.execute(StartBattle())
    doc.execute(EndPhase())
    tool = w.tools["select"]
    drops = []
    units = [u for u in doc.battle.live_units(doc.battle.state.active)][:10]
    g = doc.battle.battlefield.grid
    for u in units:
        dx = g if u.facing == 90 else -g
        for to in ((u.x + dx, u.y), (u.x + 2 * dx, u.y)):
            doc.battle.touch(("unit", u.id))     # as after the previous order: caches cold
            t = time.perf_counter()
            action, why = tool.best_action(u.id, to)
            drops.append(time.perf_counter() - t)
    doc.undo_stack.setClean()           # no "save before closing?" question offscreen
    w.close()
    return {"units": len(doc.battle.units), "open_s": statistics.median(opens),
            "pan_ms_median": 1000 * statistics.median(pans), "pan_ms_p90": 1000 * sorted(pans)[int(0.9 * len(pans))],
            "full_repaint_ms_median": 1000 * statistics.median(full),
            "full_repaint_ms_p90": 1000 * sorted(full)[int(0.9 * len(full))],
            "zoom_ms_median": 1000 * statistics.median(zooms), "zoom_ms_p90": 1000 * sorted(zooms)[int(0.9 * len(zooms))],
            # the median over three zooms hides a slow one (a whole table of 2,000 counters)
            "zoom_ms_by_level": {k: 1000 * statistics.median(v) for k, v in by_level.items()},
            "drop_ms_median": 1000 * statistics.median(drops), "drop_ms_max": 1000 * max(drops)}


ZOOMS = (None, 12.0, 30.0)      # whole table (the fit), a corps, a brigade: px per inch


def zoom_child(path: str, frames: int) -> None:
    """Run by --instructions under callgrind: at each zoom, `frames` zoom frames between
    the markers (counting starts at os.getppid(), each os.getpgrp() writes a count)."""
    from ui.app import application
    app = application()
    w = open_window(app, Path(path))
    view, vp = w.view, w.view.viewport()
    cpu = []
    for zoom in ZOOMS:
        view.set_zoom(zoom or view.zoom)
        app.processEvents()
        vp.repaint()
        t = time.process_time()
        os.getppid()
        for k in range(frames):
            view.zoom_by(1.1 if k % 2 == 0 else 1 / 1.1)
            vp.repaint()
        os.getpgrp()
        cpu.append((time.process_time() - t) / frames)
    w.doc.undo_stack.setClean()         # no "save before closing?" question offscreen
    w.close()
    print(json.dumps({"cpu_s": cpu}))


def zoom_instructions(path: Path, frames: int, by_cpu: bool) -> list[float]:
    """Per zoom level: the instructions of one zoom frame (CPU seconds when by_cpu)."""
    import instructions_bench as ib
    program = [sys.executable, str(Path(__file__).resolve()), "--zoom-child", str(path),
               str(frames)]
    got = ib.marked(program, by_cpu, "zooms")
    return got if by_cpu else [n / frames for n in got]


def instruction_figures(tiny: bool) -> list[dict]:
    """A zoom frame's instructions at each zoom, Austerlitz's and a 2,000-unit battle's
    (whose fit-all zoom is the map mode's), steady where the frames' wall time is not."""
    import instructions_bench as ib
    from bench_common import figure
    by_cpu = tiny or ib.valgrind() is None
    battles = ({"generated 40": big_battle(20)} if tiny else
               {"Austerlitz": AUSTERLITZ, "generated 2000": big_battle()})
    frames = 2 if tiny else 10
    out = []
    for where, path in battles.items():
        got = zoom_instructions(path, frames, by_cpu)
        note = ", ".join(f"{z or 'fit'}: " + (f"{g * 1000:.1f} ms" if by_cpu else f"{g / 1e6:.1f} M")
                         for z, g in zip(ZOOMS, got))
        if by_cpu:
            out.append(figure(f"app, {where}: zoom frame CPU (no valgrind here, or tiny)",
                              1000 * sum(got) / len(got), "ms", note=note))
            continue
        out += [figure(f"app, {where}: zoom frame instructions, mean of 3 zooms",
                       sum(got) / len(got) / 1e6, "M", note=f"{frames} frames a zoom; {note}"),
                figure(f"app, {where}: zoom frame instructions at its slowest zoom",
                       max(got) / 1e6, "M")]
    return out


def figures(tiny: bool = False, repeat: int = 3, instructions: bool = False) -> list[dict]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import figure
    if tiny:
        runs = {"generated 40": measure(big_battle(20), 1, steps=2)}
    else:
        runs = {"Austerlitz": measure(AUSTERLITZ, repeat),
                "generated 2000": measure(big_battle(), repeat)}
    out = []
    for name, r in runs.items():
        lim = (lambda v: None) if tiny else (lambda v: v)
        out += [figure(f"app, {name}: open to first paint", r["open_s"], "s", lim(1.5)),
                figure(f"app, {name}: pan frame, median", r["pan_ms_median"], "ms", lim(16),
                       note=f"p90 {r['pan_ms_p90']:.1f} ms; full repaint "
                            f"{r['full_repaint_ms_median']:.1f} ms"),
                figure(f"app, {name}: zoom frame, median", r["zoom_ms_median"], "ms", lim(16),
                       note=f"p90 {r['zoom_ms_p90']:.1f} ms"),
                figure(f"app, {name}: zoom frame at its slowest zoom, median",
                       max(r["zoom_ms_by_level"].values()), "ms", lim(16),
                       note=", ".join(f"{k}: {v:.1f} ms" for k, v in r["zoom_ms_by_level"].items())),
                figure(f"app, {name}: drop feedback, median", r["drop_ms_median"], "ms", lim(50),
                       note=f"max {r['drop_ms_max']:.1f} ms")]
    if instructions or tiny:
        out += instruction_figures(tiny)
    return out


def main(argv=None) -> None:
    if argv is None and sys.argv[1:2] == ["--zoom-child"]:
        return zoom_child(sys.argv[2], int(sys.argv[3]))
    from bench_common import emit, parser
    ap = parser(__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--instructions", action="store_true",
                    help="also count a zoom frame's instructions with valgrind (minutes)")
    args = ap.parse_args(argv)
    emit(figures(args.tiny, args.repeat, args.instructions), args.json,
         "Desktop app, offscreen", tiny=args.tiny)


if __name__ == "__main__":
    main()
