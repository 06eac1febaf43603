"""The rules pages show the cases as they are: clause links and worked examples."""
import pytest

from conformance.make_examples import DOCS, END, START, page_with, rulesets_with_cases


@pytest.mark.parametrize("ruleset", rulesets_with_cases())
def test_rules_page_examples_are_up_to_date(ruleset):
    text = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    assert START in text and END in text, (
        f"docs/rules/{ruleset}.md has no generated cases section: run "
        "python tests/conformance/make_examples.py")
    assert text == page_with(ruleset, text), (
        f"docs/rules/{ruleset}.md is out of date with tests/conformance/{ruleset}/: run "
        "python tests/conformance/make_examples.py")


def test_every_case_has_an_anchor_on_its_page():
    from conformance.runner import load_cases
    pages = {r: (DOCS / f"{r}.md").read_text(encoding="utf-8") for r in rulesets_with_cases()}
    missing = [c.test_id for c in load_cases()
               if c.ruleset in pages and f'<a id="{c.id}"></a>' not in pages[c.ruleset]]
    assert not missing, f"cases not on their rules page: {missing}"
