"""Issue 17, quick-play (fifth session): fewer steps in weighing a charge and in a short
move, the same answers.

- The commander's charge candidates leave out, with the numpy pass that finds them,
  the enemies whose bases are surely farther apart than the charger's best roll: each
  one left out is `surely_too_far` (random tables), and every order of two Austerlitz
  turns is the old evaluation's (quickplay_refs keeps it).
- `roll_reaches` is worked out once per move class, bonus and quarter inch: the old
  formula's chance for every kind, bonus and distance.
- A volley's and a fight's dice rolled (`melee_odds._rolled`) are worked out once per plus
  and number of dice (a Dist is never changed in place).
- A short move's bisection measures the moved base's travel from the corners' offsets
  (`moves._travel_along`): `footprint.travel` to the bit.
"""
import math
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager.footprint import Footprint, travel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_quickplay_speed import crowd  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 16))
def test_charge_candidates_left_out_are_surely_too_far(data, n):
    from manager.footprint import EPS
    from manager.rules.quickplay.bases import maybe_in_reach
    from manager.rules.quickplay.melee import surely_too_far
    from manager.rules.quickplay.moves import max_allowance
    from manager.rules.quickplay.units import footprint
    b = crowd(data, n)
    dropped = 0
    for u in b.live_units():
        top = max_allowance(b, u)
        enemy = b.enemy_of(u.side)
        every = maybe_in_reach(b, u, footprint(b, u), top + 6, enemy, 45)
        kept = maybe_in_reach(b, u, footprint(b, u), top + 6, enemy, 45, top + 1e-6 + EPS + 1e-6)
        assert [e.id for e in kept] == [e.id for e in every if e in kept]
        for e in every:
            if e not in kept:
                dropped += 1
                assert surely_too_far(b, u, e)


def old_roll_reaches(unit, cost):
    from manager.model.forces import mark
    from manager.odds import Dist
    from manager.rules.quickplay.moves import move_class
    from manager.rules.quickplay.tables import DOUBLED, MOVE_DICE
    fixed, n = MOVE_DICE[move_class(unit)]
    moves = Dist.die([1, 2, 3, 4, 5, 6]).times(n).map(
        lambda k: int(((fixed + k) * (2 if move_class(unit) in DOUBLED else 1)
                       + mark(unit, "bonus", 0)) * 4))
    return moves.p_at_least(math.ceil(cost * 4 - 1e-6))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["line_infantry", "light_cavalry", "heavy_cavalry", "foot_artillery",
                        "skirmishers", "militia", "rifles"]),
       st.sampled_from([0, 0, 2, 3.5]), st.floats(0, 30))
def test_roll_reaches_worked_out_once_is_the_formula(kind, bonus, cost):
    from hypothesis import assume
    from manager.rules.quickplay.moves import roll_reaches
    from manager.rules.quickplay.tables import PROFILES
    assume(kind in PROFILES)
    from builders import build_table, piece
    b = build_table([piece("a", "blue", kind, (10, 10))], "quickplay")
    u = b.units["a"]
    if bonus:
        u = b.mark_unit(u.id, bonus=bonus)
    assert roll_reaches(u, cost) == old_roll_reaches(u, cost)
    assert roll_reaches(u, cost) == old_roll_reaches(u, cost)         # from the memo


xy = st.floats(-40, 40)


@settings(max_examples=200, deadline=None)
@given(xy, xy, st.floats(0, 359.9), st.floats(0.5, 12), st.floats(0.5, 4), xy, xy,
       st.floats(0, 359.9), st.floats(0, 1))
def test_travel_along_is_travel_to_the_bit(x, y, f0, front, depth, tx, ty, facing, k):
    from manager.rules.quickplay.moves import _travel_along
    start = Footprint(x, y, f0, front, depth)
    part = start.moved(x + (tx - x) * k, y + (ty - y) * k, facing)
    assert _travel_along(start, (x, y), (tx, ty), facing)(k) == travel(start, part)


@settings(max_examples=60, deadline=None)
@given(st.integers(-2, 3), st.integers(0, 16))
def test_dice_rolled_worked_out_once_are_the_rolls(plus, dice):
    from manager.rules.quickplay.melee_odds import _die_hits, _rolled
    want = _die_hits(plus).times(dice)
    for _ in range(2):                                  # worked out, then remembered
        got = _rolled(plus, dice)
        assert (got.weights, got.total) == (want.weights, want.total)
