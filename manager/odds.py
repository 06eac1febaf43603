"""Exact probability distributions over dice outcomes, by convolution, never sampling.

A Dist holds integer weights over outcomes 0..n and one common denominator, so the
arithmetic is exact and fast (Python integers), and a probability is a Fraction.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


def convolve(a: list, b: list) -> list:
    """Whole-number weights of the sum of two independent outcomes (weights a over 0..,
    b over 0..): the one double loop every exact walk shares (zero weights skipped)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, wa in enumerate(a):
        if wa:
            for j, wb in enumerate(b):
                if wb:
                    out[i + j] += wa * wb
    return out


class Dist:
    __slots__ = ("weights", "total")

    def __init__(self, weights: list[int], total: int):
        self.weights = weights      # weights[k] = number of equally likely outcomes giving k
        self.total = total

    @classmethod
    def point(cls, value: int = 0) -> "Dist":
        return cls([0] * value + [1], 1)

    @classmethod
    def die(cls, scores: list[int]) -> "Dist":
        """One die whose faces score `scores[i]` (e.g. hits per face) with equal chance."""
        w = [0] * (max(scores) + 1)
        for s in scores:
            w[s] += 1
        return cls(w, len(scores))

    def __add__(self, other: "Dist") -> "Dist":
        """The distribution of the sum of two independent outcomes."""
        return Dist(convolve(self.weights, other.weights), self.total * other.total)

    def times(self, n: int) -> "Dist":
        result = Dist.point(0)
        for _ in range(n):
            result = result + self
        return result

    def map(self, fn) -> "Dist":
        """The distribution of fn(outcome) (fn maps whole numbers to whole numbers >= 0)."""
        out: list[int] = []
        for k, w in enumerate(self.weights):
            if w:
                v = fn(k)
                if v >= len(out):
                    out.extend([0] * (v + 1 - len(out)))
                out[v] += w
        return Dist(out or [0], self.total)

    def thinned(self, keep: int, of: int) -> "Dist":
        """Each of the k counted things survives with chance keep/of (a saving roll per
        hit, say): the distribution of survivors, exact."""
        from math import comb
        top = len(self.weights) - 1
        out = [0] * (top + 1)
        for k, w in enumerate(self.weights):
            if not w:
                continue
            scale = of ** (top - k)
            for j in range(k + 1):
                out[j] += w * scale * comb(k, j) * keep ** j * (of - keep) ** (k - j)
        return Dist(out, self.total * of ** top)

    @classmethod
    def mix(cls, parts: list[tuple[Fraction, "Dist"]]) -> "Dist":
        """A mixture: outcome from parts[i]'s distribution with probability parts[i][0]."""
        from math import lcm
        denom = 1
        for p, d in parts:
            denom = lcm(denom, Fraction(p).denominator * d.total)
        size = max(len(d.weights) for _, d in parts)
        out = [0] * size
        for p, d in parts:
            p = Fraction(p)
            # p * w * denom / total is a whole number (denom is a multiple of p's
            # denominator times total): the same integer without Fraction arithmetic
            scale = p.numerator * (denom // (p.denominator * d.total))
            for k, w in enumerate(d.weights):
                if w:
                    out[k] += scale * w
        return cls(out, denom)

    def p(self, k: int) -> Fraction:
        return Fraction(self.weights[k] if 0 <= k < len(self.weights) else 0, self.total)

    def p_at_least(self, k: int) -> Fraction:
        return Fraction(sum(self.weights[max(k, 0):]), self.total)

    def mean(self) -> Fraction:
        return Fraction(sum(i * w for i, w in enumerate(self.weights)), self.total)

    def probabilities(self) -> list[Fraction]:
        return [Fraction(w, self.total) for w in self.weights]


def compare(a: Dist, b: Dist) -> tuple[Fraction, Fraction, Fraction]:
    """P(a < b), P(a == b), P(a > b) for independent a and b."""
    less = equal = 0
    cum_b = [0]
    for w in b.weights:
        cum_b.append(cum_b[-1] + w)
    for i, wa in enumerate(a.weights):
        if not wa:
            continue
        # b > i: total of b minus weights up to i
        upto = cum_b[min(i + 1, len(b.weights))]
        less += wa * (b.total * 1 - upto)
        equal += wa * (b.weights[i] if i < len(b.weights) else 0)
    denom = a.total * b.total
    lt, eq = Fraction(less, denom), Fraction(equal, denom)
    return lt, eq, 1 - lt - eq


@dataclass
class OddsLine:
    """The hits one side or piece may inflict, e.g. 'Infantry 2 on Grenadiers 1'."""
    label: str
    dist: Dist
    target: str = ""

    def to_dict(self) -> dict:
        return {"label": self.label, "target": self.target,
                "distribution": [float(p) for p in self.dist.probabilities()],
                "expected": float(self.dist.mean())}


@dataclass
class Odds:
    """What the UI shows before the umpire commits: hit distributions and consequences."""
    kind: str
    lines: list[OddsLine] = field(default_factory=list)
    outcomes: dict[str, Fraction] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "lines": [l.to_dict() for l in self.lines],
                "outcomes": {k: float(v) for k, v in self.outcomes.items()},
                "notes": list(self.notes)}

    def describe(self) -> str:
        out = []
        for line in self.lines:
            probs = ", ".join(f"{k}:{float(p):.0%}" for k, p in enumerate(line.dist.probabilities())
                              if p)
            out.append(f"{line.label}: mean {float(line.dist.mean()):.2f} hits ({probs})")
        out += [f"{k}: {float(v):.1%}" for k, v in self.outcomes.items()]
        return "\n".join(out + self.notes)
