"""D3's exact odds against icepool (the text's numbers) and seeded runs of its resolvers:
the activation test (2 x D6 above the hits taken), shooting (D3, D3-1, cover -1) and the
cavalry charge (D3+1, -1 hilltop, -1 cavalry, doubled on a flank)."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from builders import build_table, piece, rect, session_at
from manager import game_actions as ga
from manager.events import HitsTaken
from oracle.core import agree, d, dist_pmf, pmf, prob, runs

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True)
MINUS = {"line_infantry": 0, "skirmishers": 1, "foot_artillery": 1}   # D3, D3-1, D3-1


def table(units, terrain=(), **options):
    return build_table(units, "d3", terrain=terrain, options={"army_morale": "off", **options})


def activation(taken: int) -> Fraction:
    return prob(d(6), lambda f: 2 * f > taken)


def mixed(p: Fraction, hits: dict) -> dict:
    out = {0: 1 - p}
    for k, q in hits.items():
        out[k] = out.get(k, 0) + p * q
    return {k: q for k, q in out.items() if q}


@SETTINGS
@given(kind=st.sampled_from(sorted(MINUS)), taken=st.integers(0, 8), cover=st.booleans(),
       gap=st.floats(2.0, 10.0))
def test_shooting_odds_equal_icepool(kind, taken, cover, gap):
    terrain = [rect("town", 16, 2, 24, 30 - gap - 0.5)] if cover else []
    units = [piece("f", "blue", kind, (20, 30), hits=9 - taken),
             piece("t", "red", "line_infantry", (20, 30 - gap - 2), facing=180)]
    s, _ = session_at(table(units, terrain=terrain), "shoot")
    odds = s.ruleset.odds(s.battle, ga.Fire("f", "t"))
    minus = MINUS[kind] + (1 if cover else 0)
    hits = pmf(d(3).map(lambda f: max(f - minus, 0)))
    assert dist_pmf(odds.lines[0].dist) == mixed(activation(taken), hits)


@SETTINGS
@given(target=st.sampled_from(["line_infantry", "light_cavalry"]), flank=st.booleans(),
       taken=st.integers(0, 8), left=st.integers(1, 9))
def test_charge_odds_equal_icepool(target, flank, taken, left):
    t_face = 90 if flank else 180
    units = [piece("c", "blue", "light_cavalry", (20, 24), hits=9 - taken),
             piece("t", "red", target, (20, 14), facing=t_face, hits=left)]
    s, _ = session_at(table(units), "move")
    odds = s.ruleset.odds(s.battle, ga.Charge("c", "t"))
    minus = 1 if target == "light_cavalry" else 0
    blow = pmf(d(3).map(lambda f: max(f + 1 - minus, 0) * (2 if flank else 1)))
    want = mixed(activation(taken), blow)
    assert dist_pmf(odds.lines[0].dist) == want
    assert odds.outcomes["t destroyed"] == sum((q for h, q in want.items() if h >= left),
                                               Fraction(0))


def _hits_on(uid):
    def classify(before, after, events):
        return {sum(e.hits for e in events if isinstance(e, HitsTaken) and e.uid == uid)}
    return classify


def test_shooting_odds_equal_seeded_runs_with_the_auto_re_roll():
    """The odds include the activation test and, when the re-roll is spent at once, the
    general's re-roll before the D3."""
    units = [piece("f", "blue", "line_infantry", (20, 30), hits=4),
             piece("t", "red", "line_infantry", (20, 22), facing=180)]
    for option in ("auto", "choose"):
        b = build_table(units, "d3", options={"army_morale": "off", "general_reroll": option},
                        leaders={"b1": {"pos": [22, 34]}})
        s, _ = session_at(b, "shoot")
        action = ga.Fire("f", "t")
        odds = s.ruleset.odds(s.battle, action)
        p = activation(5)
        if option == "auto":
            p = p + (1 - p) * p
        want = mixed(p, pmf(d(3)))
        assert dist_pmf(odds.lines[0].dist) == want
        assert not agree(want, runs(s.battle, action, _hits_on("t")))


def test_charge_odds_equal_seeded_runs_with_activation():
    """A worn charger: the activation test, then D3+1 doubled on the flank."""
    from manager.rules.d3.combat import melees  # noqa: F401  (the melee the charge makes)
    units = [piece("c", "blue", "light_cavalry", (20, 24), hits=5),
             piece("t", "red", "line_infantry", (20, 14), facing=90, hits=5)]
    s, _ = session_at(table(units), "move")
    action = ga.Charge("c", "t")
    odds = s.ruleset.odds(s.battle, action)
    p = activation(4)
    assert odds.outcomes["activates"] == p

    def charged(before, after, events):
        return {"contact"} if any(e.__class__.__name__ == "ChargeMade" for e in events) else set()
    assert not agree({"contact": p}, runs(s.battle, action, charged))
