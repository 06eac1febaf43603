"""Issue 17, quick-play: the commander asks fewer questions and the rules build less to
answer them, with the same answers.

- Shots are weighed only where the commander may choose one, a reserve weighs no
  charge (it may make none): every unit of two Austerlitz turns gets the order the old
  evaluation (kept in quickplay_refs.py) gave.
- The spots a unit tries are judged against the bases gathered once (`move_ground.landing`):
  the engine's `spatial.lands_on` answer, on random tables.
- `move_ground.overlap` remembers `footprint.overlap` by the two (frozen) bases.
- A charge's odds are worked out on records, not on copies of the battle: the odds the
  copies gave (the old code, in quickplay_refs.py) for every charge weighed in play.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager import game_actions as ga
from manager.footprint import Footprint, distance, heading

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table  # noqa: E402
from test_quickplay_speed import crowd  # noqa: E402
from quickplay_refs import austerlitz, old_charge_odds, old_unit, same_odds  # noqa: E402


# ---- in play ---------------------------------------------------------------------------------
def test_every_unit_gets_the_order_the_old_evaluation_gave():
    """Two turns of Austerlitz: before each order, every unit of the side to act that
    has not acted gets from `_unit` the order the old `_unit` gave (skipping shots that
    could not be chosen, and a reserve's charges, changes nothing)."""
    from manager.rules.quickplay.units import acted
    s, ap = austerlitz(2)
    compared = orders = 0
    while not s.battle.state.over and s.battle.state.turn <= 2:
        b = s.battle
        if b.state.phase == "act":
            c = ap.commanders[b.state.active]
            for u in b.live_units(b.state.active)[::3]:
                if acted(b, u):
                    continue
                new, old = c._unit(u), old_unit(c, u)
                assert new == old, (u.id, new, old)
                compared += 1
                orders += new is not None
        ap.step()
    assert compared > 150 and orders > 40


def test_charge_odds_on_records_are_the_odds_on_copies_in_play():
    """Every charge the rules allow of units within 30 inches, at the start of each side's
    moves on three turns of Austerlitz (two seeds): the same exact odds, lines and
    notes as the odds worked out on copies of the battle."""
    from manager.rules.quickplay.melee_odds import charge_odds
    from manager.rules.quickplay.units import arm
    from play_checks import refused
    checked, volleys, counters = 0, 0, 0
    for seed in (1, 2):
        s, ap = austerlitz(3, seed)
        seen = set()
        while not s.battle.state.over and s.battle.state.turn <= 3:
            b = s.battle
            key = (b.state.turn, b.state.active, b.state.phase)
            if b.state.phase == "act" and key not in seen:
                seen.add(key)
                side = b.state.active
                for u in b.live_units(side):
                    for e in b.live_units(b.enemy_of(side)):
                        if distance(u.pos, e.pos) > 30 or refused(s, ga.Charge(u.id, e.id)):
                            continue
                        new = charge_odds(b, ga.Charge(u.id, e.id))
                        old = old_charge_odds(b, ga.Charge(u.id, e.id))
                        assert same_odds(new, old), (u.id, e.id)
                        checked += 1
                        volleys += bool(new.notes)
                        counters += arm(e) == "cavalry"
            ap.step()
    assert checked > 40 and volleys > 5 and counters > 0


# ---- random tables ---------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(2, 14), st.integers(-25, 25), st.floats(0.3, 1.5))
def test_landing_is_the_engines_lands_on(data, n, turn, reach):
    """The commander's six spots along a line (toward another unit, give or take), judged
    against the bases gathered once: each answer is `spatial.lands_on`'s (any live
    base within 10 inches the end overlaps)."""
    from manager import spatial
    from manager.footprint import bearing
    from manager.rules.quickplay.move_ground import landing
    from manager.rules.quickplay.units import footprint
    b = crowd(data, n)
    u, o = b.live_units("blue")[0], b.live_units("red")[0]
    way = (bearing(u.pos, o.pos) + turn) % 360
    want = max(min(distance(u.pos, o.pos) * reach, 14.0), 0.5)
    hx, hy = heading(way)
    lands = landing(b, u, (u.x + hx * want, u.y + hy * want))
    for k in (1.0, 0.6, 0.3):
        to = (round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
        for facing in (round(way) % 360, u.facing):
            end = footprint(b, u, x=to[0], y=to[1], facing=facing, formation=u.formation)
            assert lands(to, facing) == spatial.lands_on(b, u, end, footprint)


base = st.builds(Footprint, st.floats(0, 20), st.floats(0, 20), st.integers(0, 359),
                 st.sampled_from([1.0, 2.0, 4.0, 6.0]), st.sampled_from([0.5, 1.0, 2.0]))


@settings(max_examples=150, deadline=None)
@given(base, base)
def test_overlap_remembered_is_overlap_measured(a, c):
    from manager.footprint import overlap as measured
    from manager.rules.quickplay.move_ground import overlap
    for _ in range(2):                                       # measured, then remembered
        assert overlap(a, c) == measured(a, c)
        assert overlap(c, a) == measured(c, a)


def test_overlap_memo_starts_afresh_when_full():
    from manager.rules.quickplay import move_ground as moves
    moves._OVERLAPS.clear()
    for k in range(16390):
        moves.overlap(Footprint(k, 0, 0, 1, 1), Footprint(k + 0.5, 0, 0, 1, 1))
    assert len(moves._OVERLAPS) < 16390
    assert moves.overlap(Footprint(0, 0, 0, 1, 1), Footprint(0.5, 0, 0, 1, 1)) is True


def test_no_battle_copy_for_a_charges_odds():
    """The odds of a charge build no copy of the battle (they were 1 + one a part)."""
    from manager.model.battle import Battle
    from manager.rules.quickplay.melee_odds import charge_odds
    from builders import piece
    from builders import session_at
    s, _ = session_at(build_table([piece("a", "blue", "line_infantry", (20, 30), facing=0),
                                   piece("r", "red", "line_infantry", (20, 24), facing=180)],
                                  "quickplay"), "act", side="blue")
    b = s.battle
    made = []
    real = Battle.copy
    Battle.copy = lambda self: made.append(1) or real(self)
    try:
        odds = charge_odds(b, ga.Charge("a", "r"))
    finally:
        Battle.copy = real
    assert not made and odds.outcomes["the charge reaches"] > 0
    assert odds.notes                 # the target's volley came into it
