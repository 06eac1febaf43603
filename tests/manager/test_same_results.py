"""Speed work keeps every result: seeded battles fold to the digests recorded on main
before the spatial index and the caches of issue 17 (tests/state_hash.py).

A digest covers the final state and the whole log (every action and die). Regenerate
with `python tests/state_hash.py` only when a rules change is meant to change outcomes,
and say in the commit which clause changed.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from state_hash import CASES, digest, play  # noqa: E402

RECORDED = {
    ("morschauser", "austerlitz.toml", 1, 12): "c27ce03f8d02aceb",
    ("morschauser", "austerlitz.toml", 2, 12): "4b264de0d4c441ba",
    ("featherstone", "quatre_bras.toml", 1, None): "dc7675ddcb691053",
    ("featherstone", "quatre_bras.toml", 2, None): "a3384e4510ed2d72",
    ("featherstone", "austerlitz.toml", 1, 1): "f5df35ac4f803ce7",
    ("d3", "hanau.toml", 1, None): "bdba1d9ac661691c",
    ("d3", "hanau.toml", 2, None): "cb8714c5c7a2b99d",
    ("d3", "austerlitz.toml", 1, 1): "c4623e812eae44d7",
    ("quickplay", "maida.toml", 1, None): "d6076824e0102b47",
    ("quickplay", "maida.toml", 2, None): "164e60ee0416efd0",
    ("quickplay", "austerlitz.toml", 1, 1): "2b10f1d6d668baa4",
}


def test_every_case_has_a_recorded_digest():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1].split('.')[0]}-{c[2]}")
def test_same_final_state_and_log(case):
    assert digest(play(*case)) == RECORDED[case], (
        "the battle folds to another state: a speed-up changed a result, or a rules change "
        "meant to (then re-record with `python tests/state_hash.py` and say which clause)")
