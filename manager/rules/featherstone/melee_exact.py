"""Exact melee odds in whole numbers (issue 17: the exact odds under 5 ms).

The same walk as melee_odds.stepwise, step for step (support fire, first fire, the
halt, a lancer's first strike, the charger's check, a general's stray round, the
strikes): there every branch multiplied Fractions (a gcd per product, most of the
time of an exact charge's odds). Here a branch's chance is a whole-number weight over
the product of the totals of the distributions it passed; the weights are summed per
denominator and divided once at the end. After support fire the walk goes by columns
(the weights by the lead's losses so far, one column for each loss of the defender's):
branches with the same losses merge, and a step's ends are noted once a column. The
same Fractions, the same Dists (weights and total reduced as _as_dist reduces them):
tests/manager/test_featherstone_odds_exact.py checks them against stepwise(exact=True)
in play and on random melees, test_featherstone_odds_columns.py on every end a column
step notes.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import accumulate
from math import gcd, lcm

from ...model.forces import mark
from ...odds import Dist, Odds, OddsLine, convolve
from ..common import Melee
from .battery_odds import bonus_without, stray_risk
from .melee import charged_now, setup
from .melee_parts import _Pmfs, _shared_support

OUTCOMES = ("attacker wins", "defender wins", "charge halted", "charge fails (morale)")
POINT = ([1], 1)                      # no casualties, for sure


class _Ints(_Pmfs):
    """_Pmfs whose distributions are (weights, total) in lowest terms."""

    def __init__(self, battle):
        super().__init__(battle, True)

    def of(self, dist: Dist) -> tuple:
        g = gcd(dist.total, *dist.weights)
        return [w // g for w in dist.weights], dist.total // g

    def fail_ratio(self, lead, lost) -> tuple:
        key = ("fail_ratio", lost)
        if key not in self.memo:
            f = self.fails(lead, lost)                   # a Fraction of sixths
            self.memo[key] = f.numerator, f.denominator
        return self.memo[key]


def _conv(a: tuple, b: tuple) -> tuple:
    """(weights, denominator) of the sum of two independent outcomes."""
    return convolve(a[0], b[0]), a[1] * b[1]


class _Sums:
    """Whole-number weights per denominator: the outcomes and the two casualty lines."""

    def __init__(self):
        self.out = {k: {} for k in OUTCOMES}
        self.on_d, self.on_a = {}, {}

    def add(self, name: str, n: int, den: int) -> None:
        by = self.out[name]
        by[den] = by.get(den, 0) + n

    @staticmethod
    def note(line: dict, k: int, n: int, den: int) -> None:
        row = line.get(den)
        if row is None:
            row = line[den] = [0] * (k + 1)
        elif k >= len(row):
            row.extend([0] * (k + 1 - len(row)))
        row[k] += n

    @staticmethod
    def spread(line: dict, base: int, pairs: list, hi: int, n: int, den: int) -> None:
        """note(line, base + i, n * v, den) for every (i, v) in pairs (the weights not 0;
        hi: the last one's i)."""
        row = line.get(den)
        need = base + hi + 1
        if row is None:
            row = line[den] = [0] * need
        elif need > len(row):
            row.extend([0] * (need - len(row)))
        for i, v in pairs:
            row[base + i] += n * v

    @staticmethod
    def fraction(by: dict) -> Fraction:
        if not by:
            return Fraction(0)
        big = lcm(*by)
        return Fraction(sum(n * (big // den) for den, n in by.items()), big)

    @staticmethod
    def dist(line: dict) -> Dist:
        """The line's Dist, as _as_dist builds it from the Fractions: the lcm of their
        reduced denominators is the common denominator over the gcd of all weights."""
        if not line:
            return Dist([0], 1)
        big = lcm(*line)
        size = max(len(row) for row in line.values())
        w = [0] * size
        for den, row in line.items():
            scale = big // den
            for k, n in enumerate(row):
                if n:
                    w[k] += n * scale
        g = gcd(big, *w)
        return Dist([x // g for x in w], big // g)


def exact_melee_odds(battle, m: Melee, support=None, shared=None) -> Odds:
    """melee_odds(exact=True): stepwise's walk with whole-number weights."""
    pm = _Ints(battle)
    (d, attackers, lead, reaction, first, charged_with, before, bonus_a, bonus_d, checked,
     square_rule, check_on) = setup(battle, m)
    wa, ta = pm.of(_shared_support(shared, battle, m, d.side, lead, support))
    wd, td = pm.of(_shared_support(shared, battle, m, lead.side, d, support))
    others = POINT
    for a in attackers[1:]:
        others = _conv(others, pm.lost(a, d, a.hits, a.disordered, charged_now(battle, a), d))
    lost_bonus = bonus_without(battle, attackers, stray_risk(battle, lead))
    fire_first = first == "d" and reaction == "first_fire" and not mark(d, "first_fired")
    impetus = charged_now(battle, lead)
    sums = _Sums()
    add, note, spread, on_a, on_d = sums.add, sums.note, sums.spread, sums.on_a, sums.on_d

    kept: dict = {}

    def shape(p: tuple) -> tuple:
        """(the (outcome, weight) pairs not 0, total, last outcome, running sums from
        the top, running sums, the weights' sum) of a distribution."""
        got = kept.get(id(p))
        if got is None or got[0] is not p:
            w = p[0]
            pairs = [(i, v) for i, v in enumerate(w) if v]
            tail = list(accumulate(reversed(w)))[::-1]
            got = kept[id(p)] = (p, pairs, p[1], pairs[-1][0], tail, list(accumulate(w)),
                                 sum(w))
        return got

    def fight(n, den, a_base, d_base, edge, xs, ys):
        """x: casualties by the attackers (xs); y: by the defender (ys), independent."""
        _, px_of, tx, hx, tail, _, sx = shape(xs)
        _, py_of, ty, hy, _, cum, _ = shape(ys)
        dx = den * tx
        spread(on_a, d_base, py_of, hy, n, den * ty)
        spread(on_d, a_base, px_of, hx, n, dx)
        shift = a_base + edge - d_base - bonus_d - 1
        # the attackers win on x >= -shift, and a square holds unless x >= 4
        lo = max(-shift, 4 if square_rule else 0)
        if ys is POINT:                   # no strike back
            win = tail[lo] if lo <= hx else 0
            if win:
                add("attacker wins", n * win, dx)
            if tx - win:
                add("defender wins", n * (tx - win), dx)
            return
        top = len(cum) - 1
        win = 0
        for x, px in px_of:
            if x >= lo:
                limit = x + shift                    # the largest y the attackers beat
                win += px * cum[limit if limit < top else top]
        lose = sx * ty - win                         # every other (x, y): the defender
        if win:
            add("attacker wins", n * win, dx * ty)
        if lose:
            add("defender wins", n * lose, dx * ty)

    def strikes(n, den, a_lost, d_sup, edge, xs, fd, d_dis):
        if first == "d" or reaction == "caught":
            fight(n, den, d_sup, a_lost, edge, xs, POINT)
        elif first == "a":
            for x, px in enumerate(xs[0]):
                if px:
                    ys = pm.lost(d, lead, fd - x, d_dis or x > 0, reaction == "counter",
                                 lead) if fd - x > 0 else POINT
                    fight(n * px, den * xs[1], d_sup, a_lost, edge, ([0] * x + [1], 1), ys)
        else:
            fight(n, den, d_sup, a_lost, edge, xs,
                  pm.lost(d, lead, fd, d_dis, reaction == "counter", lead))

    # By the defender's loss to support fire (d_sup), a column over A, the lead's losses
    # so far: all the walk after support fire reads of a branch (its strength, its
    # disorder, the halt, the check, the bases of the casualty lines), so the branches
    # that reach the same A merge, and a step's ends are noted once for the column. Each
    # step multiplies every branch of a column by the same total (one denominator).
    live = lead.hits                   # A < live: the lead still stands
    halts = [bool(before + a) and (before + a) * 4 >= charged_with for a in range(live)]

    def tally(row: list) -> tuple:
        """(row's (A, weight) pairs not 0, the last one's A, the weight below live, at
        or above live)."""
        pairs = [(a, p) for a, p in enumerate(row) if p]
        return pairs, pairs[-1][0] if pairs else -1, sum(row[:live]), sum(row[live:])

    def ends(den, d_sup, tallied, n, destroyed=False):
        """Note n times the branches a step ended (row: weight by A): the lead fallen
        (A >= live), else halted by the fire, or (destroyed) the defender gone."""
        pairs, hi, rest, lost = tallied
        if hi < 0:
            return
        if rest:
            add("attacker wins" if destroyed else "charge halted", n * rest, den)
        if lost:
            add("defender wins", n * lost, den)
        spread(on_a, 0, pairs, hi, n, den)
        note(on_d, d_sup, n * (lost + rest), den)

    # support fire's branches end alike for every d_sup but for the factor pd
    dp = ta * td
    gone = tally(wa)
    if fire_first:                     # the fallen lead; the fire may halt the rest later
        fell, stay = tally([0] * live + wa[live:]), [(a, p) for a, p in enumerate(wa[:live])]
    else:
        fell = tally([p if a >= live or halts[a] else 0 for a, p in enumerate(wa)])
        stay = [(a, p) for a, p in enumerate(wa[:live]) if p and not halts[a]]
    for d_sup, pd in enumerate(wd):
        if not pd:
            continue
        fd, d_dis = d.hits - d_sup, d.disordered or d_sup > 0
        if fd <= 0:                                      # support fire destroyed it
            ends(dp, d_sup, gone, pd, True)
            continue
        ends(dp, d_sup, fell, pd)
        den = dp
        if fire_first:                                   # first fire: A + c
            wf, tf = pm.first_fire(d, lead, fd, d_dis)
            col, den = convolve([p * pd for _, p in stay], wf), den * tf
            # the lead fallen, or halted at a quarter of its charge's strength lost
            ends(den, d_sup, tally([p if a >= live or halts[a] else 0
                                    for a, p in enumerate(col)]), 1)
            col = [0 if halts[a] else p for a, p in enumerate(col[:live])]
        else:
            col = [0] * live
            for a, p in stay:
                col[a] = p * pd
        if first == "d" and reaction != "first_fire":    # the defender's lances: A + k
            wl, tl = pm.lost(d, lead, fd, d_dis, False, lead)
            col, den = convolve(col, wl), den * tl
            ends(den, d_sup, tally([0] * live + col[live:]), 1)
            col = col[:live]
        for a, go in enumerate(col):
            if not go:
                continue
            checks = before + a > checked and check_on
            fk, fo = pm.fail_ratio(lead, a) if checks else (0, 1)
            if fk:
                add("charge fails (morale)", go * fk, den * fo)
                note(on_a, a, go * fk, den * fo)
                note(on_d, d_sup, go * fk, den * fo)
            go, dgo = go * (fo - fk), den * fo
            if not go:
                continue
            xs = pm.lost(lead, d, live - a, lead.disordered or a > 0, impetus, d)
            if others is not POINT:
                xs = _conv(xs, others)
            # a committed general's stray round: 1 in 6 he falls (and his +1)
            if lost_bonus is not None and checks:
                strikes(go * 5, dgo * 6, a, d_sup, bonus_a, xs, fd, d_dis)
                strikes(go, dgo * 6, a, d_sup, lost_bonus, xs, fd, d_dis)
            else:
                strikes(go, dgo, a, d_sup, bonus_a, xs, fd, d_dis)
    odds = Odds("melee", [OddsLine(f"casualties on {d.name}", sums.dist(on_d), d.name),
                          OddsLine(f"casualties on {lead.name}", sums.dist(on_a), lead.name)])
    odds.outcomes = {k: v for k in OUTCOMES if (v := sums.fraction(sums.out[k]))}
    odds.notes.append(f"scores add +{bonus_a} (attackers) and +{bonus_d} (defender); "
                      "ties go to the defender")
    return odds
