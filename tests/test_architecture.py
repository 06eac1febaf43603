"""The engine never imports Qt or the UI: the import-linter contract in pyproject.toml."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_import_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    r = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 kept, 0 broken" in r.stdout


def test_manager_imports_headless():
    code = "import sys, manager.cli, manager.simulate; assert 'PySide6' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
