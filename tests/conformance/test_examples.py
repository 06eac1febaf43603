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
    for c in load_cases():
        if c.ruleset in rulesets_with_cases():
            text = (DOCS / f"{c.ruleset}.md").read_text(encoding="utf-8")
            assert f'<a id="{c.id}"></a>' in text, f"{c.test_id} is not on its rules page"
