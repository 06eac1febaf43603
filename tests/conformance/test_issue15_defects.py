"""Issue 15's listed defects, each with what guards it (tests/conformance/<ruleset>/
issue15_defects.toml): every listed case exists, carries no xfail and passes; every listed
pytest test exists (the suite runs it); every defect has at least one guard."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from conformance.runner import load_cases, run_case

ROOT = Path(__file__).resolve().parents[2]
FILES = {r: Path(__file__).parent / r / "issue15_defects.toml" for r in ("featherstone", "harman")}
CASES = {(c.ruleset, c.id): c for c in load_cases()}


def _defects():
    for ruleset, path in FILES.items():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["ruleset"] == ruleset, path
        for d in data["defect"]:
            yield pytest.param(ruleset, d, id=f"{ruleset}::{d['id']}")


def _test_names(path: Path) -> set:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("ruleset, defect", list(_defects()))
def test_every_listed_defect_is_guarded_and_its_cases_pass(ruleset, defect):
    cases, tests = defect.get("cases", []), defect.get("tests", [])
    assert cases or tests, f"{defect['id']}: no guard listed"
    for cid in cases:
        case = CASES.get((ruleset, cid))
        assert case is not None, f"{defect['id']}: no case {cid!r} in tests/conformance/{ruleset}"
        assert not case.data.get("xfail"), f"{defect['id']}: {cid} is still an expected failure"
        run_case(case)
    for t in tests:
        path, _, name = t.partition("::")
        assert (ROOT / path).is_file(), f"{defect['id']}: no file {path}"
        assert name in _test_names(ROOT / path), f"{defect['id']}: no test {name} in {path}"
