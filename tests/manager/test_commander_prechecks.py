"""The automatic commanders' cheap first looks never pass over an order the rules allow.

A commander asks the rules about thousands of candidate orders a turn; a pre-check
that says "certainly illegal" lets it skip the costly part of the check. Each pre-check
must only ever skip orders the full check refuses (else a commander would decide
differently: tests/manager/test_same_results.py guards the whole game, these the
pre-checks one by one, on random tables and on Austerlitz as the commanders meet it).
"""
import sys
from pathlib import Path

from hypothesis import assume, given, settings, strategies as st

from manager import game_actions as ga
from manager.errors import IllegalAction

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table, piece, session_at  # noqa: E402
from play_checks import austerlitz_phases, refused  # noqa: E402





KINDS = ["line_infantry", "light_cavalry", "heavy_cavalry", "grenadiers", "light_infantry",
         "foot_artillery"]
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))


@settings(max_examples=120, deadline=None)
@given(spot, spot, st.integers(0, 359), st.integers(0, 359), st.sampled_from(KINDS),
       st.sampled_from(KINDS), st.sampled_from(["line", "column"]))
def test_featherstone_too_far_charges_are_refused(a, e, fa, fe, ka, ke, form):
    from manager.rules.featherstone.charge_reach import surely_too_far
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("e", "red", ke, e, facing=fe)], "featherstone")
    s, _ = session_at(b, "charges", side="blue")
    unit, target = s.battle.units["a"], s.battle.units["e"]
    if surely_too_far(s.battle, unit, target):
        assert refused(s, ga.Charge("a", "e"))


def test_featherstone_too_far_is_not_vacuous():
    from manager.rules.featherstone.charge_reach import surely_too_far
    b = build_table([piece("a", "blue", "light_cavalry", (20, 30), facing=0),
                     piece("n", "red", "line_infantry", (20, 22)),
                     piece("f", "red", "line_infantry", (20, 2))], "featherstone")
    s, _ = session_at(b, "charges", side="blue")
    u = s.battle.units["a"]
    assert not surely_too_far(s.battle, u, s.battle.units["n"])
    assert not refused(s, ga.Charge("a", "n"))
    assert surely_too_far(s.battle, u, s.battle.units["f"])


def every_pair_in_play(ruleset: str, phase: str, turns: int = 2):
    """(session, unit, enemy) for every live unit and enemy of the side to move, each
    time the side comes to `phase` on Austerlitz (the automatic commander playing)."""
    for s, side in austerlitz_phases(ruleset, (phase,), turns):
        b = s.battle
        for u in b.live_units(side):
            for e in b.live_units(b.enemy_of(side)):
                yield s, u, e


def test_featherstone_too_far_in_play():
    from manager.rules.featherstone.charge_reach import surely_too_far
    from manager.footprint import distance
    skipped = 0
    for s, u, e in every_pair_in_play("featherstone", "charges"):
        # pairs far apart are refused by the circles alone: check the near ones
        if distance(u.pos, e.pos) < 30 and surely_too_far(s.battle, u, e):
            skipped += 1
            assert refused(s, ga.Charge(u.id, e.id))
    assert skipped > 100


# ---- a move onto another unit's base (featherstone, d3, quickplay) ---------------------------
RULESETS = ["featherstone", "d3", "quickplay"]
FIRST_MOVE = {"featherstone": "moves", "d3": "move", "quickplay": "act"}
MOVE_GROUND = {"featherstone": "moves", "d3": "moves", "quickplay": "move_ground"}


def lands_on_another(ruleset):
    import importlib
    module = f"manager.rules.{ruleset}.{MOVE_GROUND[ruleset]}"
    return importlib.import_module(module).lands_on_another


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULESETS), spot, spot, st.integers(0, 359), st.integers(0, 359),
       st.sampled_from(KINDS[:5]), st.sampled_from(KINDS[:5]), st.booleans())
def test_a_move_onto_a_base_is_refused(ruleset, a, o, fa, fo, ka, ko, friend):
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("o", "blue" if friend else "red", ko, o, facing=fo)], ruleset)
    s, _ = session_at(b, FIRST_MOVE[ruleset], side="blue")
    u = s.battle.units["a"]
    for k in (0.0, 0.5, 1.0):                          # toward the other base's centre
        to = (round(a[0] + (o[0] - a[0]) * k, 2), round(a[1] + (o[1] - a[1]) * k, 2))
        if lands_on_another(ruleset)(s.battle, u, to, fa):
            assert refused(s, ga.MoveUnit("a", to, fa))


def test_lands_on_another_in_play():
    """Every move the pre-check skips on Austerlitz is refused by the rules, under each
    inch ruleset (the commander's own candidate spots: toward each near enemy)."""
    from manager.footprint import bearing, heading
    for ruleset in RULESETS:
        skipped = 0
        for s, u, e in every_pair_in_play(ruleset, FIRST_MOVE[ruleset], turns=2):
            if abs(u.x - e.x) > 14 or abs(u.y - e.y) > 14:
                continue
            for k in (2.0, 4.0, 6.0):
                hx, hy = heading(bearing(u.pos, e.pos))
                to = (round(u.x + hx * k, 2), round(u.y + hy * k, 2))
                if lands_on_another(ruleset)(s.battle, u, to, u.facing):
                    skipped += 1
                    assert refused(s, ga.MoveUnit(u.id, to, u.facing)), (ruleset, u.id, to)
        assert skipped > 10, ruleset


# ---- d3 shooting ------------------------------------------------------------------------------
def test_d3_shots_skipped_are_refused_in_play():
    from manager.rules.d3.combat import shooter_refusal, surely_out_of_range
    skipped = 0
    for s, u, e in every_pair_in_play("d3", "shoot", turns=3):
        if shooter_refusal(s.battle, u) or surely_out_of_range(s.battle, u, e):
            skipped += 1
            if not shooter_refusal(s.battle, u) or skipped % 5 == 0:
                assert refused(s, ga.Fire(u.id, e.id))
    assert skipped > 1000


@settings(max_examples=150, deadline=None)
@given(spot, spot, st.integers(0, 359), st.integers(0, 359),
       st.sampled_from(["line_infantry", "foot_artillery", "light_infantry"]),
       st.sampled_from(KINDS))
def test_d3_out_of_range_is_refused(a, e, fa, fe, ka, ke):
    from manager.rules.d3.combat import surely_out_of_range
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("e", "red", ke, e, facing=fe)], "d3")
    try:
        s, _ = session_at(b, "shoot", side="blue")
    except IllegalAction:
        # a table the phases cannot step through (a d3 leader with the enemy within
        # 6 inches must ride away first): no shot to judge on it
        assume(False)
    if surely_out_of_range(s.battle, s.battle.units["a"], s.battle.units["e"]):
        assert refused(s, ga.Fire("a", "e"))


# ---- quick-play charges -----------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(spot, spot, st.integers(0, 359), st.integers(0, 359),
       st.sampled_from(["line_infantry", "light_cavalry", "heavy_cavalry", "grenadiers"]),
       st.sampled_from(KINDS))
def test_quickplay_too_far_charges_are_refused(a, e, fa, fe, ka, ke):
    from manager.rules.quickplay.melee import surely_too_far
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("e", "red", ke, e, facing=fe)], "quickplay")
    s, _ = session_at(b, "act", side="blue")
    if surely_too_far(s.battle, s.battle.units["a"], s.battle.units["e"]):
        assert refused(s, ga.Charge("a", "e"))


def test_quickplay_too_far_in_play():
    from manager.footprint import distance
    from manager.rules.quickplay.melee import surely_too_far
    skipped = 0
    for s, u, e in every_pair_in_play("quickplay", "act"):
        if distance(u.pos, e.pos) < 30 and surely_too_far(s.battle, u, e):
            skipped += 1
            assert refused(s, ga.Charge(u.id, e.id))
    assert skipped > 100


# ---- featherstone charge odds: support fire shared between the target's answers ---------------
def test_featherstone_charge_odds_share_support_fire_exactly(monkeypatch):
    """charge_odds weighs each answer of the target on copies of the battle; support fire
    is computed once per formation of the target and shared, and the commander's odds of
    one charge with other marks (the target's counter_seven or lend, the charger's lend)
    share support fire and, where only counter_seven differs, each answer's melee. Every
    charge the commander weighs on Austerlitz gets the very same odds (exact fractions,
    and the commander's floats) as when each answer computes its own."""
    from manager.rules.featherstone import melee_odds as mo
    from manager.rules.featherstone import choices as fc     # the commander's charge odds
    from manager.rules.featherstone import melee_parts, threats
    seen = []
    real = mo.charge_odds

    def recording(battle, action, exact=True, shared=None, melees=None, lines=True):
        odds = real(battle, action, exact=exact, shared=shared, melees=melees, lines=lines)
        seen.append((battle.copy(), action, exact, odds, lines))
        return odds
    monkeypatch.setattr(fc, "charge_odds", recording)
    monkeypatch.setattr(threats, "charge_odds", recording)
    for _ in every_pair_in_play("featherstone", "moves", turns=3):
        pass
    assert len(seen) >= 5
    from manager.model.forces import mark
    assert any(mark(b.units[a.target], "counter_seven") for b, a, _, _, _ in seen)
    shared = [real(b, a, exact=True) for b, a, _, _, _ in seen]
    monkeypatch.setattr(mo, "_shared_support",
                        lambda shared, *args: melee_parts._support(*args))
    alone = [real(b, a, exact=True) for b, a, _, _, _ in seen]
    for x, y in zip(shared, alone):
        assert x.outcomes == y.outcomes
        assert [l.dist.weights for l in x.lines] == [l.dist.weights for l in y.lines]
    outcomes_only = 0
    for b, a, exact, got, lines in seen:
        by_itself = real(b, a, exact=exact)             # lines=False: the same outcomes
        assert got.outcomes == by_itself.outcomes
        if got.lines or lines:
            assert [l.dist.weights for l in got.lines] == \
                [l.dist.weights for l in by_itself.lines]
        else:
            outcomes_only += 1
    assert outcomes_only >= 5


def test_d3_cavalry_exposures_are_the_near_scans():
    """The D3 horse's look-ahead judges the musketry at its staging spots together; each
    equals the scan of the enemy within the longest range + 4 that it replaced."""
    from manager.footprint import angle_between, bearing, distance, heading
    from manager.rules.d3.commander import Commander
    from manager.rules.d3.tables import FIRE_ARC, RANGE
    from manager.rules.d3.units import near, utype

    def scan(b, side, spot):
        total = 0.0
        for s in near(b, spot, max(RANGE.values()) + 4, b.enemy_of(side)):
            t = utype(s)
            if t == "cavalry" or distance(s.pos, spot) > RANGE[t] + 2:
                continue
            if angle_between(bearing(s.pos, spot), s.facing) > FIRE_ARC + 15:
                continue
            total += 2.0 if t == "infantry" else 1.0
        return total
    checked = 0
    for s, u, e in every_pair_in_play("d3", "move", turns=1):
        b, side = s.battle, s.battle.state.active
        spots = [(round(e.x + hx * r, 2), round(e.y + hy * r, 2))
                 for r in (7.0, 10.0) for hx, hy in (heading(w) for w in range(0, 360, 45))]
        c = Commander(b, side)
        assert c._exposures(spots) == [scan(b, side, p) for p in spots]
        checked += len(spots)
        if checked > 3000:
            break
    assert checked > 1000


# ---- d3 lines of sight a base surely blocks ---------------------------------------------------
def hidden_shots_in_play(ruleset, phase, near, surely_hidden, why) -> tuple[int, int]:
    """Every shot a commander passes over as hidden (all of one shooter's candidates judged
    together, as the commanders do) is one the rules refuse, a base named in the way by
    `why(battle, unit, enemy)`. Returns (hidden, judged)."""
    from itertools import groupby
    hidden = judged = 0
    for _, pairs in groupby(every_pair_in_play(ruleset, phase, turns=3),
                            key=lambda p: (id(p[0].battle), p[1].id)):
        pairs = list(pairs)
        s, u = pairs[0][0], pairs[0][1]
        cands = [e for _, _, e in pairs if near(s.battle, u, e)]
        for e, h in zip(cands, surely_hidden(s.battle, u, cands)):
            judged += 1
            if h:
                hidden += 1
                assert "is in the way" in why(s.battle, u, e)
                assert refused(s, ga.Fire(u.id, e.id))
    return hidden, judged


def test_d3_surely_hidden_shots_are_refused_in_play():
    from manager.rules.d3.combat import surely_out_of_range
    from manager.rules.d3.sight import sight_refusal, surely_hidden
    hidden, judged = hidden_shots_in_play(
        "d3", "shoot", lambda b, u, e: not surely_out_of_range(b, u, e), surely_hidden,
        sight_refusal)
    assert hidden > 300 and judged > hidden      # not vacuous, and not "hidden" for all


@settings(max_examples=200, deadline=None)
@given(spot, st.integers(0, 359), st.floats(0.05, 0.95), st.floats(-3, 3),
       st.integers(0, 359), st.sampled_from(KINDS), st.sampled_from(KINDS),
       st.floats(-40, 40), st.floats(4, 30))
def test_d3_surely_hidden_only_when_a_base_is_in_the_way(a, fa, t, side, fb, kb, ke, turn,
                                                         rng):
    """A blocker near the line (some across it, some beside it, some on its end): a
    "hidden" answer always comes with sight_refusal naming a base in the way."""
    from manager.footprint import heading
    from manager.rules.d3.sight import sight_refusal, surely_hidden
    from manager.rules.d3.units import footprint
    a = (a[0] + 35, a[1] + 40)                     # mid-table: every piece stays on it
    hx, hy = heading(fa + turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    px, py = -hy, hx
    blk = (a[0] + hx * rng * t + px * side, a[1] + hy * rng * t + py * side)
    b = build_table([piece("a", "blue", "line_infantry", a, facing=fa),
                     piece("b", "blue", kb, blk, facing=fb),
                     piece("e", "red", ke, e)], "d3", width=120, height=120)
    u = b.units["a"]
    targets = [b.units["e"], b.units["b"]]
    for tgt, h in zip(targets, surely_hidden(b, u, targets)):
        if h:
            assert "is in the way" in sight_refusal(b, u, tgt)
    assert footprint(b, u)                         # the table built as asked


def test_d3_surely_hidden_sees_a_base_squarely_across_the_line():
    from manager.rules.d3.sight import surely_hidden
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("b", "blue", "line_infantry", (20, 25)),
                     piece("c", "blue", "line_infantry", (30, 25)),
                     piece("e", "red", "line_infantry", (20, 20)),
                     piece("f", "red", "line_infantry", (28, 20))], "d3", width=60, height=40)
    u = b.units["a"]
    # e: b stands across the line; f: c stands beside it (not in the way)
    assert surely_hidden(b, u, [b.units["e"], b.units["f"]]) == [True, False]


# ---- Featherstone lines of sight a base surely blocks ---------------------------------------
def test_featherstone_surely_hidden_shots_are_refused_in_play():
    from manager.footprint import distance
    from manager.rules.featherstone.fire_sight import sight_refusal, surely_hidden
    hidden, judged = hidden_shots_in_play(
        "featherstone", "fire", lambda b, u, e: distance(u.pos, e.pos) < 60, surely_hidden,
        sight_refusal)
    assert hidden > 200 and judged > hidden      # not vacuous, and not "hidden" for all


@settings(max_examples=200, deadline=None)
@given(spot, st.integers(0, 359), st.floats(0.05, 0.95), st.floats(-4, 4),
       st.integers(0, 359), st.sampled_from(KINDS), st.floats(-40, 40), st.floats(4, 30),
       st.sampled_from(["featherstone", "quickplay"]))
def test_inch_surely_hidden_only_when_a_base_is_in_the_way(a, fa, t, side, fb, kb, turn,
                                                           rng, ruleset):
    """A blocker near the line (across it, beside it, on its ends): a "hidden" answer
    (Featherstone's or quick-play's) always comes with the sight scan naming a base."""
    from manager.footprint import heading
    from manager.rules.featherstone import fire_sight as fs
    from manager.rules.quickplay import units as qp
    a = (a[0] + 35, a[1] + 40)
    hx, hy = heading(fa + turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    px, py = -hy, hx
    blk = (a[0] + hx * rng * t + px * side, a[1] + hy * rng * t + py * side)
    b = build_table([piece("a", "blue", "line_infantry", a, facing=fa),
                     piece("b", "blue", kb, blk, facing=fb),
                     piece("e", "red", "line_infantry", e)], ruleset, width=120, height=120)
    u = b.units["a"]
    targets = [b.units["e"], b.units["b"]]
    mod = fs if ruleset == "featherstone" else qp
    for tgt, h in zip(targets, mod.surely_hidden(b, u, targets)):
        if h:
            why = fs.sight_refusal(b, u, tgt) if mod is fs else \
                qp.sight_refusal(b, u.pos, tgt.pos, ignore=(u.id, tgt.id))
            assert "is in the way" in why


def test_featherstone_surely_hidden_sees_a_base_squarely_across_the_line():
    from manager.rules.featherstone.fire_sight import surely_hidden
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("b", "blue", "line_infantry", (20, 25)),
                     piece("c", "blue", "line_infantry", (32, 25)),
                     piece("e", "red", "line_infantry", (20, 20)),
                     piece("f", "red", "line_infantry", (32, 20))], "featherstone", width=60,
                    height=40)
    u = b.units["a"]
    # e: b stands across the line; f: c stands beside it (not in the way)
    assert surely_hidden(b, u, [b.units["e"], b.units["f"]]) == [True, False]


def test_quickplay_surely_hidden_shots_are_refused_in_play():
    from manager.footprint import distance
    from manager.rules.quickplay.units import sight_refusal, surely_hidden
    hidden, judged = hidden_shots_in_play(
        "quickplay", "act", lambda b, u, e: distance(u.pos, e.pos) < 52, surely_hidden,
        lambda b, u, e: sight_refusal(b, u.pos, e.pos, ignore=(u.id, e.id)))
    assert hidden > 200 and judged > hidden


def test_quickplay_surely_hidden_sees_a_base_squarely_across_the_line():
    from manager.rules.quickplay.units import surely_hidden
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("b", "blue", "line_infantry", (20, 25)),
                     piece("c", "blue", "line_infantry", (32, 25)),
                     piece("e", "red", "line_infantry", (20, 20)),
                     piece("f", "red", "line_infantry", (32, 20))], "quickplay", width=60,
                    height=40)
    u = b.units["a"]
    assert surely_hidden(b, u, [b.units["e"], b.units["f"]]) == [True, False]
