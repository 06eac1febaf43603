"""Issue 17, Featherstone (ninth session): the first looks at charges (`threats._looks`:
`charge_looks` for the charges step, `first_looks` for the generals' stances) measure
the centres' distance and the arc only for the (unit, charger) pairs whose squared
distance could pass, where the table of every pair was measured. The looks are the
very ones the whole table gives (kept here as the reference), on random tables and at
every step of Austerlitz turns.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager.errors import ScenarioError
from manager.footprint import EPS
from manager.rules.featherstone import threats
from manager.rules.featherstone.state import arm

FS = "featherstone"
KINDS = ["line_infantry", "light_infantry", "heavy_cavalry", "light_cavalry",
         "foot_artillery", "grenadiers"]
SLACK = threats.SLACK


def table_looks(battle, side: str):
    """threats._looks as it was: every pair of the units x chargers table measured."""
    chargers = [e for e in battle.live_units(battle.enemy_of(side))
                if arm(e) in ("infantry", "cavalry") and not e.moved]
    units = battle.live_units(side)
    if not chargers or not units:
        return None
    arc = battle.option("forward_arc", 45)
    ex, ey, far, reach, fx, fy, facing, _ = np.array(threats._look_rows(battle, chargers)).T
    far = far + SLACK
    reach = reach + (3e-6 + EPS + SLACK)
    ux, uy, hd = (c[:, None] for c in
                  np.array(threats._look_rows(battle, units))[:, (0, 1, 7)].T)
    d = np.hypot(ux - ex, uy - ey)
    off = np.abs((np.degrees(np.arctan2(ux - fx, -(uy - fy))) % 360 - facing) % 360)
    off = np.minimum(off, 360 - off)
    can = (d <= far) & (d - hd <= reach) & (off <= arc + 1e-6 + SLACK)
    return units, chargers, can, d


def table_threatened(battle, side: str) -> dict:
    looks = table_looks(battle, side)
    if looks is None:
        return {}
    units, chargers, can, d = looks
    can = can & (d <= 24 + SLACK)
    return {units[i].id: tuple(chargers[j] for j in np.flatnonzero(can[i]).tolist())
            for i in np.flatnonzero(can.any(axis=1)).tolist()}


def table_charge_looks(battle, side: str) -> dict:
    looks = table_looks(battle, battle.enemy_of(side))
    if looks is None:
        return {}
    units, chargers, can, _ = looks
    return {chargers[j].id: tuple(units[i] for i in np.flatnonzero(can[:, j]).tolist())
            for j in np.flatnonzero(can.any(axis=0)).tolist()}


def same_looks(battle) -> int:
    """Both sides' looks both ways are the table's (keys in the same order); the pairs."""
    n = 0
    for side in ("blue", "red") if "blue" in battle.sides else tuple(battle.sides):
        got, want = threats._threatened(battle, side), table_threatened(battle, side)
        assert got == want and list(got) == list(want)
        got, want = threats._charge_looks(battle, side), table_charge_looks(battle, side)
        assert got == want and list(got) == list(want)
        n += sum(map(len, got.values()))
    return n


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.floats(2, 78), st.floats(2, 58), st.integers(0, 359),
                          st.sampled_from(KINDS), st.booleans(), st.booleans()),
                min_size=1, max_size=16))
def test_looks_are_the_whole_tables(pieces):
    """Up to 16 units of every kind and facing strewn over a table, some moved: the
    same looks, in the same order, as the whole table of pairs."""
    units = [piece(f"u{k}", "blue" if blue else "red", kind, (x, y), facing=f)
             for k, (x, y, f, kind, blue, _) in enumerate(pieces)]
    try:
        b = build_table(units, FS, width=80, height=60)
    except ScenarioError:
        assume(False)
    for k, (*_, moved) in enumerate(pieces):
        if moved:
            b.update_unit(f"u{k}", moved=2)
    same_looks(b)


def test_looks_are_the_whole_tables_in_play():
    """At every step of 4 Austerlitz turns, both sides: the table's looks; many pairs."""
    pairs = 0
    for s, _ in austerlitz_phases(FS, ("generals", "charges", "moves", "melee"), 4):
        pairs += same_looks(s.battle)
    assert pairs > 200, pairs


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.floats(2, 78), st.floats(2, 58), st.integers(0, 359),
                          st.sampled_from(KINDS), st.booleans()),
                min_size=2, max_size=16), st.floats(0, 30))
def test_looks_at_the_distance_borders(pieces, wider):
    """Each charger's reach widened (its rate up to 30 inches more) so that the move + 8
    and the 24 inches, not the rate, decide most pairs: still the table's looks."""
    units = [piece(f"u{k}", "blue" if blue else "red", kind, (x, y), facing=f)
             for k, (x, y, f, kind, blue) in enumerate(pieces)]
    try:
        b = build_table(units, FS, width=80, height=60)
    except ScenarioError:
        assume(False)
    rows = threats._look_rows

    def widened(battle, us):
        return [(x, y, far, reach + wider, fx, fy, facing, half)
                for x, y, far, reach, fx, fy, facing, half in rows(battle, us)]
    threats._look_rows = widened
    try:
        same_looks(b)
    finally:
        threats._look_rows = rows


@pytest.mark.parametrize("farther, dists", [
    (0.0, (18.5, 19.5, 19.99, 20.01, 20.5, 21.5)),         # the move + 8: 20 inches
    (10.0, (22.5, 23.5, 23.9999, 24.000005, 24.5, 25.5))])  # the stances' 24 inches
def test_looks_about_the_24_inches_and_the_move(farther, dists):
    """Red horse facing blue foot fanned out ahead about its move + 8 inches (or, its
    move widened, about the 24 inches the stances look): the whole table's looks, some
    pairs in and some out."""
    units = [piece("h", "red", "heavy_cavalry", (40.0, 4.0), facing=180)]
    for k, d in enumerate(dists):
        a = math.radians(-36 + 14.4 * k)           # fanned out within the forward arc
        units.append(piece(f"u{k}", "blue", "line_infantry",
                           (40.0 + d * math.sin(a), 4.0 + d * math.cos(a))))
    b = build_table(units, FS, width=90, height=40)
    rows = threats._look_rows

    def widened(battle, us):
        return [(x, y, far + farther, reach + 30, fx, fy, facing, half)
                for x, y, far, reach, fx, fy, facing, half in rows(battle, us)]
    threats._look_rows = widened
    try:
        assert same_looks(b) > 0
        some = threats._threatened(b, "blue") if farther else \
            threats._charge_looks(b, "red").get("h", ())
        assert 0 < len(some) < 6
    finally:
        threats._look_rows = rows
