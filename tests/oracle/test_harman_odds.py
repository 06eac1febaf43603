"""Harman's exact odds against icepool (the text's faces: 1 Officer, 2-3 Target, 4 Flag,
5 Fire, 6 Sabre): a volley's Target hits and what its Flags do, and a bayonet charge's
chance to send the defenders off at once (Flags, or Sabres and Flags, reaching their
quality), checked against seeded runs of the resolver too."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from builders import build, unit
from manager import game_actions as ga
from manager.dice import QueueSource
from manager.session import Session
from oracle.core import agree, count, d, hits_die, pmf, prob, runs

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True)
KINDS = {"militia": 2, "line_infantry": 3, "guard_infantry": 4}


def to_move(units, **options):
    b = build(units, ruleset="harman", options={"army_morale": "off", **options})
    src = QueueSource()
    s = Session(b, src)
    s.execute(ga.StartBattle())
    s.execute(ga.EndPhase())
    src.push(1, 6)
    s.execute(ga.EndPhase())
    s.execute(ga.EndPhase())
    return s


@SETTINGS
@given(shooter=st.sampled_from(sorted(KINDS)), target=st.sampled_from(sorted(KINDS)))
def test_volley_odds_equal_icepool(shooter, target):
    s = to_move([unit("b", "blue", shooter, (5, 5)), unit("r", "red", target, (7, 5))])
    odds = s.ruleset.odds(s.battle, ga.Fire("b", "r"))
    n, q = KINDS[shooter], KINDS[target]
    targets = pmf(count(n, hits_die({2, 3})))
    got = {k: v for k, v in zip(range(99), odds.lines[0].dist.probabilities()) if v}
    assert got == targets
    flags = count(n, hits_die({4}))
    out = odds.outcomes
    assert out["at least one Flag"] == prob(flags, lambda f: f >= 1)
    assert out.get("a die less this turn (one Flag)", 0) == prob(flags, lambda f: f == 1)
    assert out.get("halts and retires", 0) == prob(flags, lambda f: f == q)
    assert out.get("routs (more Flags than quality)", 0) == prob(flags, lambda f: f > q)


def _break_chance(n: int, q: int, sabres_alone: str = "stand") -> Fraction:
    """The defenders flee at once when Sabres and Flags together reach their quality; by
    the text's 'no Flags' paragraph (option sabres_alone = stand, the default) only beside
    at least one Flag. A die scores 100 for a Flag (4) and 1 for a Sabre (6), so the sum
    of n dice carries both counts (n < 100)."""
    both = count(n, d(6).map(lambda f: 100 if f == 4 else 1 if f == 6 else 0))

    def breaks(o):
        flags, sabres = divmod(o, 100)
        return flags + sabres >= q and (flags >= 1 or sabres_alone == "break")
    return prob(both, breaks)


@SETTINGS
@given(attacker=st.sampled_from(sorted(KINDS)), defender=st.sampled_from(sorted(KINDS)),
       sabres_alone=st.sampled_from(["stand", "break"]))
def test_bayonet_charge_break_odds_equal_icepool(attacker, defender, sabres_alone):
    s = to_move([unit("b", "blue", attacker, (5, 5)), unit("r", "red", defender, (7, 5))],
                sabres_alone=sabres_alone)
    odds = s.ruleset.odds(s.battle, ga.Charge("b", "r"))
    key = next(k for k in odds.outcomes if "breaks at once" in k)
    assert odds.outcomes[key] == _break_chance(KINDS[attacker], KINDS[defender], sabres_alone)


def test_bayonet_charge_odds_agree_with_the_resolver():
    s = to_move([unit("b", "blue", "line_infantry", (5, 5)),
                 unit("r", "red", "line_infantry", (7, 5))])
    odds = s.ruleset.odds(s.battle, ga.Charge("b", "r"))
    key = next(k for k in odds.outcomes if "breaks at once" in k)

    def classify(before, after, events):
        text = " ".join(e.describe() for e in events)
        return ["broke" if "panics and flees" in text else "held"]
    counts = runs(s.battle, ga.Charge("b", "r"), classify)
    assert not agree({"broke": odds.outcomes[key]}, counts)
