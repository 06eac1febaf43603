"""Berthier is MIT: nothing may pull in Qt Charts (GPL-3 or commercial only). The campaign
chart is pyqtgraph (MIT), a declared dependency."""
from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_no_source_file_imports_qt_charts():
    offenders = [str(p.relative_to(ROOT)) for folder in ("ui", "manager", "benchmarks")
                 for p in (ROOT / folder).rglob("*.py")
                 if any("QtCharts" in m for m in imported_modules(p))]
    assert offenders == []


def test_the_whole_app_runs_without_loading_qt_charts():
    code = ("import os, sys; os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
            "import ui.app, ui.main_window, ui.docks.campaign_dock\n"
            "assert 'PySide6.QtCharts' not in sys.modules, 'QtCharts loaded'\n"
            "assert 'pyqtgraph' in sys.modules\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_pyqtgraph_is_a_declared_dependency():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.lower().startswith("pyqtgraph") for d in deps)
