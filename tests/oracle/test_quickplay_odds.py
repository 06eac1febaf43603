"""Quick-play's exact odds against icepool (the text's numbers) and against seeded runs of
its resolvers: a volley, a melee, and a charge with everything before the fight (command
test, the move roll, the target's volley as the charger comes in, the charger's morale)."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.events import MeleeResolved, UnitMoved
from manager.model.forces import mark
from oracle.core import agree, count, d, dist_pmf, hits_die, pmf, prob, runs

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True)


def table(units, **options):
    return build_table(units, "quickplay", options={"army_morale": "off", **options})


@SETTINGS
@given(kind=st.sampled_from(["line_infantry", "grenadiers", "militia"]), lost=st.integers(0, 10),
       far=st.booleans(), column=st.booleans())
def test_volley_odds_equal_icepool(kind, lost, far, column):
    """Formed infantry in line: 2 ranks fire, a die per 2 figures, half at long range
    (rounded down); 5 or 6 hits: +1 a regular's first fire, +1 at a column, -1 inferior."""
    gap = 9.0 if far else 4.0
    units = [piece("f", "blue", kind, (24, 30), hits=16 - lost),
             piece("t", "red", "line_infantry", (24, 30 - 0.5 - gap - 0.5), facing=180,
                   formation="column" if column else "line")]
    s, _ = session_at(table(units), "act")
    odds = s.ruleset.odds(s.battle, ga.Fire("f", "t"))
    dice = (16 - lost) // 2
    if far:
        dice //= 2
    plus = (1 if kind != "militia" else -1) + (1 if column else 0)
    want = pmf(count(dice, hits_die([f for f in range(1, 7) if f + plus >= 5])))
    assert dist_pmf(odds.lines[0].dist) == want


def _fight():
    """A charger in contact with its target, ready for the melee phase."""
    units = [piece("r", "red", "line_infantry", (24, 6), facing=180, hits=5),
             piece("a", "blue", "heavy_cavalry", (24, 8.0), facing=0)]
    b = table(units)
    s, _ = session_at(b, "melee")
    s.battle.mark_unit("a", charging="r", acted=s.battle.state.turn)
    s.battle.mark_unit("r", pinned=s.battle.state.turn)
    return s


def _melee_outcome(before, after, events):
    m = next(e for e in events if isinstance(e, MeleeResolved))
    keys = {"drawn"} if "drawn" in m.outcome else set()
    tested = {e.unit for e in events if e.__class__.__name__ == "MoraleTested"}
    if "r" in tested:
        keys.add("defender tests morale")
    if "a" in tested:
        keys.add("attackers test morale")
    return keys


def test_melee_odds_equal_icepool_and_seeded_runs():
    s = _fight()
    action = ga.ResolveMelee("r")
    odds = s.ruleset.odds(s.battle, action)
    # cavalry: a die a figure (8), 5+ with +1 shock and +1 charging; 5 infantry figures in
    # line: 2 ranks, a die per 2 figures -> 2 dice, 5+
    a_hits = pmf(count(8, hits_die([3, 4, 5, 6])))
    r_hits = pmf(count(2, hits_die([5, 6])))
    win = sum((qa * qr for ha, qa in a_hits.items() for hr, qr in r_hits.items()
               if ha > hr and ha < 5), Fraction(0))
    lose = sum((qa * qr for ha, qa in a_hits.items() for hr, qr in r_hits.items() if hr > ha),
               Fraction(0))
    assert odds.outcomes["defender tests morale"] == win
    assert odds.outcomes["attackers test morale"] == lose
    counts = runs(s.battle, action, _melee_outcome)
    assert not agree({k: odds.outcomes[k] for k in ("defender tests morale",
                                                    "attackers test morale", "drawn")}, counts)


def _contact(before, after, events):
    return {"contact"} if mark(after.units["c"], "charging") == "t" else set()


def test_charge_odds_include_the_command_test_and_the_volley_as_it_comes_in():
    units = [piece("c", "blue", "light_cavalry", (10.0, 30.0), facing=0),
             piece("t", "red", "line_infantry", (10.0, 14.0), facing=180)]
    for control in (False, True):
        b = build_table(units, "quickplay", options={"army_morale": "off",
                                                    "command_control": control},
                        leaders={"b1": {"pos": [40.0, 34.0]}})
        s, _ = session_at(b, "act")
        action = ga.Charge("c", "t")
        odds = s.ruleset.odds(s.battle, action)
        cost = 30.0 - 1.0 - (14.0 + 0.5)             # the charger's front to the target's
        reach = prob(d(6), lambda f: (6 + f) * 2 >= cost)
        if control:
            reach *= prob(d(6), lambda f: f >= 4)
        assert odds.outcomes["the charge reaches"] == reach
        counts = runs(s.battle, action, _contact)
        assert not agree({"contact": odds.outcomes["contact"]}, counts)
        assert odds.outcomes["contact"] < reach, "the volley at close range may break it"


def _tested(before, after, events):
    return {"tests"} if any(e.__class__.__name__ == "MoraleTested" for e in events) else set()


def test_volley_morale_test_odds_equal_icepool_and_the_runs():
    """A quarter lost to shooting in a turn tests morale: 16 figures, 4 hits."""
    units = [piece("f", "blue", "line_infantry", (24, 30)),
             piece("t", "red", "line_infantry", (24, 30 - 0.5 - 4.0 - 0.5), facing=180)]
    s, _ = session_at(table(units), "act")
    action = ga.Fire("f", "t")
    odds = s.ruleset.odds(s.battle, action)
    want = prob(count(8, hits_die([4, 5, 6])), lambda h: h >= 4)
    key = "t must test morale (25% lost this turn)"
    assert odds.outcomes[key] == want
    assert not agree({"tests": want}, runs(s.battle, action, _tested))
