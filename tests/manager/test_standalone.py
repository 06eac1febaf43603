"""Test files stand alone: every ruleset registers however the rulesets are first imported
(importing one ruleset module first used to hide the other four)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent
ALL = ["d3", "featherstone", "harman", "morschauser", "quickplay"]


@pytest.mark.parametrize("first", ALL)
def test_every_ruleset_is_known_whichever_is_imported_first(first):
    code = (f"import manager.rules.{first}\n"
            f"from manager.rules import get_ruleset, ruleset_ids\n"
            f"print(','.join(ruleset_ids()))\n"
            f"print(','.join(get_ruleset(r).id for r in {ALL!r}))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [",".join(ALL), ",".join(ALL)]
