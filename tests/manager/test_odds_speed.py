"""A mixture of exact distributions computed without Fraction arithmetic per weight
(issue 17) is the very integers the plain Fraction sum gives; the convolution and
thinning (left as they are) against their plain loops too."""
from fractions import Fraction
from math import comb, lcm

from hypothesis import given, settings, strategies as st

from manager.odds import Dist

weights = st.lists(st.integers(0, 50), min_size=1, max_size=14).filter(any)
dists = st.builds(lambda w, t: Dist(w, max(t, sum(w))), weights, st.integers(1, 10 ** 6))


def plain_add(a, b):
    out = [0] * (len(a.weights) + len(b.weights) - 1)
    for i, wa in enumerate(a.weights):
        if wa:
            for j, wb in enumerate(b.weights):
                if wb:
                    out[i + j] += wa * wb
    return out, a.total * b.total


def plain_thinned(d, keep, of):
    top = len(d.weights) - 1
    out = [0] * (top + 1)
    for k, w in enumerate(d.weights):
        if not w:
            continue
        scale = of ** (top - k)
        for j in range(k + 1):
            out[j] += w * scale * comb(k, j) * keep ** j * (of - keep) ** (k - j)
    return out, d.total * of ** top


def plain_mix(parts):
    denom = 1
    for p, d in parts:
        denom = lcm(denom, Fraction(p).denominator * d.total)
    out = [0] * max(len(d.weights) for _, d in parts)
    for p, d in parts:
        p = Fraction(p)
        for k, w in enumerate(d.weights):
            if w:
                out[k] += int(p * w * denom / d.total)
    return out, denom


@settings(max_examples=300, deadline=None)
@given(dists, dists)
def test_convolution_is_the_plain_double_loop(a, b):
    c = a + b
    assert (c.weights, c.total) == plain_add(a, b)


@settings(max_examples=300, deadline=None)
@given(dists, st.integers(1, 12), st.integers(0, 12))
def test_thinning_is_the_plain_sum_of_terms(d, of, keep):
    keep = min(keep, of)
    t = d.thinned(keep, of)
    assert (t.weights, t.total) == plain_thinned(d, keep, of)


probs = st.fractions(0, 1) | st.sampled_from([0, 1, 0.5, 0.25, Fraction(1, 3)])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(probs, dists), min_size=1, max_size=5))
def test_mixture_is_the_plain_fraction_sum(parts):
    m = Dist.mix(parts)
    assert (m.weights, m.total) == plain_mix(parts)
