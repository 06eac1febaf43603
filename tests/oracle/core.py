"""Shared helpers of the odds oracle; each ruleset's tests add only its situations.

- `hits_die(to_hit_faces)` / `count(n, die)`: icepool dice for "n dice, each hitting on
  these faces" and similar, built from the text's own numbers, never from the engine.
- `runs(battle, action, classify, n)`: play the action n times on copies of the battle
  with seeded software dice, through a real Session, and count the outcome keys
  `classify(before, after, events)` returns.
- `agree(exact, counts, n)`: each exact probability within 3 standard errors of the
  observed frequency (a zero probability must never be seen, a one always).
"""
from __future__ import annotations

import math
from fractions import Fraction

import icepool

from manager.dice import SeededSource
from manager.session import Session

RUNS = 2000


def d(sides: int = 6):
    return icepool.d(sides)


def hits_die(hit_faces, sides: int = 6):
    """One die scoring 1 on the faces that hit, 0 otherwise."""
    faces = set(hit_faces)
    return d(sides).map(lambda f: 1 if f in faces else 0)


def count(n: int, die):
    """The sum of n such dice (0 dice: always 0)."""
    return n @ die if n > 0 else icepool.Die([0])


def prob(die, pred) -> Fraction:
    """P(pred(outcome)) for an icepool die, exactly."""
    total = die.denominator()
    return Fraction(sum(q for o, q in die.items() if pred(o)), total)


def pmf(die) -> dict:
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items()}


def dist_pmf(dist) -> dict:
    """The engine's Dist as {outcome: probability}, zeros left out."""
    return {k: Fraction(w, dist.total) for k, w in enumerate(dist.weights) if w}


def runs(battle, action, classify, n: int = RUNS, seed: int = 1000) -> dict:
    """Outcome counts over n seeded plays of `action` on copies of `battle`."""
    counts: dict = {}
    for i in range(n):
        b = battle.copy()
        s = Session(b, SeededSource(seed + i))
        before = battle
        events = s.execute(action)
        for key in classify(before, b, events):
            counts[key] = counts.get(key, 0) + 1
    return counts


def agree(exact: dict, counts: dict, n: int = RUNS) -> list[str]:
    """Problems where an exact probability and the observed frequency disagree by more
    than 3 standard errors."""
    out = []
    for key, p in exact.items():
        p = float(p)
        seen = counts.get(key, 0) / n
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        if (p == 0 and seen > 0) or (p == 1 and seen < 1) or abs(seen - p) > 3 * se + 1e-12:
            out.append(f"{key}: exact {p:.4f}, seen {seen:.4f} in {n} runs (3 SE = {3 * se:.4f})")
    return out
