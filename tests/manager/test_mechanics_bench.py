"""benchmarks/mechanics.py with one seed and a short battle: the demos use the rules
(issue 15): Arcole under Harman's rules charges and closes, Quatre Bras under the
Featherstone-like rules charges and melees, and the table counts them."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import mechanics  # noqa: E402


def test_arcole_charges_closes_and_its_guns_fire():
    rows = mechanics.table(str(ROOT / "scenarios" / "arcole.toml"), 1)
    n = rows[0][1]
    assert n["charges"] >= 1 and n["melees"] >= 1 and n["artillery"] >= 5
    assert "| seed |" in mechanics.markdown(rows)


def test_quatre_bras_charges_and_melees_and_ends_on_the_clock():
    rows = mechanics.table(str(ROOT / "scenarios" / "quatre_bras.toml"), 1, turns=8)
    seed, n, winner, turn, reason = rows[0]
    assert n["charges"] >= 1 and n["volleys"] >= 10
    assert "turn limit" in reason and turn == 8    # army morale is off for this text


def test_hanau_cavalry_charges_in_every_one_of_three_seeds():
    """D3's only shock arm must be used: over three seeds the cavalry of Hanau charges in
    each game (issue 15 found none in two seeds), and the charges are fought out."""
    rows = mechanics.table(str(ROOT / "scenarios" / "hanau.toml"), 3)
    assert all(n["charges"] >= 1 for _, n, *_ in rows), [n for _, n, *_ in rows]
    assert sum(n["melees"] for _, n, *_ in rows) >= 3

