"""Every conformance case is one test, `ruleset::case-id`; and every clause of each text
is listed in its clauses.toml, every case belongs to a listed clause."""
from __future__ import annotations

import pytest

from conformance.runner import RULESETS, load_cases, load_clauses, run_case

CASES = load_cases()


def _param(case):
    marks = []
    if case.data.get("xfail"):
        marks.append(pytest.mark.xfail(reason=str(case.data["xfail"]), strict=True,
                                       raises=AssertionError))
    return pytest.param(case, id=case.test_id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case):
    run_case(case)


def test_case_ids_unique():
    seen = {}
    for c in CASES:
        assert c.test_id not in seen, f"{c.test_id} is in both {seen[c.test_id]} and {c.file}"
        seen[c.test_id] = c.file


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clause_coverage(ruleset):
    clauses = load_clauses(ruleset)
    if clauses is None:
        pytest.skip(f"tests/conformance/{ruleset}/clauses.toml not written yet")
    ids = [c["id"] for c in clauses]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"{ruleset}/clauses.toml lists clause(s) twice: {dupes}"
    cases = {c.id for c in CASES if c.ruleset == ruleset}
    listed = {cid for c in clauses for cid in c.get("cases", [])}
    unknown = sorted(listed - cases)
    assert not unknown, f"{ruleset}/clauses.toml names cases that do not exist: {unknown}"
    orphans = sorted(cases - listed)
    assert not orphans, (f"{ruleset}: case(s) that belong to no clause in clauses.toml: "
                         f"{orphans}")
    bare = [c["id"] for c in clauses if not c.get("cases") and not c.get("note")]
    assert not bare, f"{ruleset}: clause(s) with no case and no note saying why: {bare}"
