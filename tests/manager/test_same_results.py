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
    ("morschauser", "austerlitz.toml", 1, 12): "09a74955b01a17f2",
    ("morschauser", "austerlitz.toml", 2, 12): "eef9fa2a4db50b3a",
    ("featherstone", "quatre_bras.toml", 1, None): "f851d9fff6f0dc22",
    ("featherstone", "quatre_bras.toml", 2, None): "91cd5dff6614a258",
    ("featherstone", "austerlitz.toml", 1, 1): "72da257f18836146",
    ("d3", "hanau.toml", 1, None): "227f702d70e3524e",
    ("d3", "hanau.toml", 2, None): "d46bde8c64a6125c",
    ("d3", "austerlitz.toml", 1, 1): "0afcb70242bb3f00",
    ("quickplay", "maida.toml", 1, None): "20bdfc966934d144",
    ("quickplay", "maida.toml", 2, None): "6f12503079681a2f",
    ("quickplay", "austerlitz.toml", 1, 1): "ae5938c261b0d5da",
}


def test_every_case_has_a_recorded_digest():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1].split('.')[0]}-{c[2]}")
def test_same_final_state_and_log(case):
    assert digest(play(*case)) == RECORDED[case]
