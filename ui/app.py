"""`berthier`: the one QApplication entry. With no arguments it opens the main window on
the last battle (Austerlitz the first time); `berthier open FILE` opens a scenario;
`berthier screenshot SCENARIO OUT.png` renders the window offscreen. Every other
subcommand is the headless CLI in manager.cli."""
from __future__ import annotations

import os
import sys
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "scenarios"
FLAGSHIP = SHIPPED / "austerlitz.toml"


def is_shipped(path) -> bool:
    """A scenario installed with Berthier: read-only to the app (Save asks a new name)."""
    try:
        return Path(path).resolve().parent == SHIPPED
    except OSError:
        return False


def application():
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Berthier")
        app.setOrganizationName("Berthier")
    return app


def make_window(path=None):
    """A main window on `path`, else the last battle, else Austerlitz."""
    from .main_window import MainWindow
    window = MainWindow()
    if not path:
        path = window.offer_unnamed()     # a game never named, offered back first
    candidates = [path] if path else [window.settings.last(), FLAGSHIP]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and window.open_path(candidate):
            return window
    if window.doc is None:          # the asked-for file failed: say so over the flagship
        error = window.last_error
        window.open_path(FLAGSHIP)
        if error is not None:
            window.show_error(error.windowTitle(), error.text())
    return window


def run_gui(path=None) -> int:
    app = application()
    window = make_window(path)
    if window.first_launch:
        window.showMaximized()
    else:
        window.show()
    return run_loop(app)


def event_loop(app=None):
    """asyncio's event loop as Qt's own (qasync): a hosted battle's server and a joined
    laptop's connection (manager.net, asyncio) run inside the app, no thread between."""
    import asyncio

    import qasync
    loop = qasync.QEventLoop(app or application())
    asyncio.set_event_loop(loop)
    return loop


def run_loop(app) -> int:
    """Run the app until its last window closes; Qt's exec runs inside asyncio's loop."""
    import asyncio
    loop = event_loop(app)
    try:
        with loop:
            code = loop.run_forever()
            # the last window has closed: let a host stop and a laptop say goodbye (bounded)
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            if pending:
                loop.run_until_complete(asyncio.wait(pending, timeout=3))
            return code
    finally:
        asyncio.set_event_loop(None)


def screenshot(scenario, out, size="1600x1000") -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from manager.errors import ScenarioError
    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise ScenarioError(f"--size must be WIDTHxHEIGHT in pixels, e.g. 1600x1000, not {size!r}") from None
    app = application()
    window = make_window(scenario)
    if window.doc is None or window.doc.path is None or Path(window.doc.path).resolve() != Path(scenario).resolve():
        raise ScenarioError(window.last_error.text() if window.last_error else f"cannot open {scenario}")
    window.resize(w, h)
    window.show()
    app.processEvents()
    window.view.fit_table()
    app.processEvents()
    if not window.grab().save(str(out)):
        raise ScenarioError(f"cannot write the image {out}")
    print(f"wrote {out} ({w}x{h})")
    window.close()
    return 0


def _extend(sub) -> None:
    o = sub.add_parser("open", help="open a scenario in the desktop app")
    o.add_argument("file")
    o.set_defaults(run=lambda a: run_gui(a.file))
    s = sub.add_parser("screenshot", help="render the main window on a scenario to a PNG")
    s.add_argument("scenario")
    s.add_argument("out")
    s.add_argument("--size", default="1600x1000", help="WIDTHxHEIGHT in pixels")
    s.set_defaults(run=lambda a: screenshot(a.scenario, a.out, a.size))


def main(argv=None) -> int:
    from manager.cli import main as cli_main
    return cli_main(argv, extend=_extend, default=run_gui)


if __name__ == "__main__":
    sys.exit(main())
