"""Issue 17, quick-play: the commander asks fewer questions and the rules build less to
answer them, with the same answers.

- Shots are weighed only where the commander may choose one, a reserve weighs no
  charge (it may make none): every unit of two Austerlitz turns gets the order the old
  evaluation (kept below) gave.
- The spots a unit tries are judged against the bases gathered once (`move_ground.landing`):
  the engine's `spatial.lands_on` answer, on random tables.
- `move_ground.overlap` remembers `footprint.overlap` by the two (frozen) bases.
- A charge's odds are worked out on records, not on copies of the battle: the odds the
  copies gave (the old code, kept below) for every charge weighed in play.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.footprint import Footprint, distance, heading
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table  # noqa: E402
from test_quickplay_speed import ROOT, crowd  # noqa: E402


def austerlitz(turns: int, seed: int = 1):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "quickplay", seed=seed, turns=turns))
    ap = Autopilot(s)
    ap.step()
    return s, ap


# ---- the old code, kept to compare against ---------------------------------------------------
def old_unit(c, u):
    """The commander's `_unit` before issue 17's quick-play work of 2026-11-23: every unit
    weighed its shots and every unit but a gun its charges, whatever it then did."""
    from manager.game_actions import Charge, MoveUnit
    from manager.footprint import bearing
    from manager.rules.quickplay.bases import maybe_in_reach, nearest
    from manager.rules.quickplay.melee import charge_plan, charger_refusal, surely_too_far
    from manager.rules.quickplay.melee_odds import charge_odds
    from manager.rules.quickplay.move_ground import lands_on_another
    from manager.rules.quickplay.moves import max_allowance, roll_reaches
    from manager.rules.quickplay.tables import RANGES
    from manager.rules.quickplay.units import arm, footprint, prof
    b = c.battle
    kind, obj = c.orders(u)
    enemy = nearest(b, u.pos, 60, b.enemy_of(c.side))
    if enemy is None:
        return None
    targets = c._shot_candidates(u) if arm(u) != "cavalry" else []
    if arm(u) != "artillery":
        best, value = None, 0.3
        cands = [] if charger_refusal(b, u) else maybe_in_reach(
            b, u, footprint(b, u), max_allowance(b, u) + 6, b.enemy_of(c.side), 45)
        for e, hidden in zip(cands, c._hidden(u, cands + targets)):
            action = Charge(u.id, e.id)
            if hidden or surely_too_far(b, u, e) or not c.legal(action):
                continue
            if float(roll_reaches(u, charge_plan(b, u, e)[2])) <= value:
                continue
            o = charge_odds(b, action).outcomes
            score = o.get("defender tests morale", 0) - o.get("attackers test morale", 0)
            if float(score) > value:
                best, value = action, float(score)
        if best is not None and kind != "reserve":
            return best
    if arm(u) != "cavalry":
        shots = c._targets(u, targets)
        close = RANGES[prof(u)["weapon"]][0]
        if shots and (kind in ("hold", "reserve") or arm(u) == "artillery"
                      or distance(u.pos, enemy.pos) <= close + 3):
            return shots[0][2]
    if kind in ("reserve",):
        return None
    standoff = {"infantry": 8.0, "cavalry": 10.0, "artillery": 24.0}[arm(u)]
    if kind == "withdraw":
        way, want = c.back_bearing(), 6.0
    else:
        goal = enemy.pos if (obj is None or distance(u.pos, enemy.pos) < c.engage(u, 24)) else obj
        if kind == "hold" and obj is not None:
            goal = obj
        way = bearing(u.pos, goal)
        want = max(distance(u.pos, goal) - (standoff if goal == enemy.pos else 0), 0)
        if want < 0.5:
            return None
        off = ((way - u.facing + 180) % 360) - 180
        way = u.facing + max(-40, min(40, off))
    want = min(want, 7.0 if arm(u) != "cavalry" else 14.0)
    for k in (1.0, 0.6, 0.3):
        hx, hy = heading(way)
        to = (round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
        for facing in (round(way) % 360, u.facing):
            if lands_on_another(b, u, to, facing):
                continue
            action = MoveUnit(u.id, to, facing)
            if c.legal(action):
                return action
    return None


def old_charge_odds(battle, action):
    """`melee_odds.charge_odds` as it was: the charger moved on a copy of the battle, each
    part of the fight on a copy of that."""
    from fractions import Fraction
    from manager.model.forces import mark
    from manager.odds import Odds
    from manager.rules.common import Melee
    from manager.rules.quickplay.combat import morale_mods, volley
    from manager.rules.quickplay.melee import charge_plan, check_charge
    from manager.rules.quickplay.melee_odds import (_volley_dist, command_chance, melee_odds,
                                                    replace_hits)
    from manager.rules.quickplay.moves import roll_reaches
    from manager.rules.quickplay.tables import STEADY_FROM
    from manager.rules.quickplay.units import acted, arm, is_skirmish, shot_this_turn
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    spot, way, cost = charge_plan(battle, unit, target)
    reach = roll_reaches(unit, cost) * command_chance(battle, unit)
    moved = battle.copy()
    moved.update_unit(unit.id, x=spot[0], y=spot[1], facing=way)
    if is_skirmish(target) and not acted(battle, target) and battle.option("skirmisher_evade"):
        odds = Odds("charge", notes=["the skirmishers retreat before the charge"])
        odds.outcomes = {"the charge reaches": Fraction(0)}
        return odds
    counter = arm(target) == "cavalry" and not acted(battle, target) and \
        battle.option("counter_charge")
    parts = [(Fraction(1), unit.hits)]
    if not counter and not shot_this_turn(battle, target) and arm(target) != "cavalry":
        try:
            v = volley(moved, target, moved.units[unit.id], reaction=True)
        except IllegalAction:
            v = None
        if v is not None:
            parts = []
            start = mark(unit, "turn_start", unit.max_hits)
            for h, p in enumerate(_volley_dist(v).probabilities()):
                left = unit.hits - h
                if not p or left <= 0:
                    continue
                stand = Fraction(1)
                if h and (mark(unit, "fire_losses", 0) + h) * 4 >= start \
                        and mark(unit, "tested") != battle.state.turn:
                    mods = sum(m for _, m in morale_mods(
                        moved, replace_hits(moved.units[unit.id], left)))
                    stand = Fraction(sum(1 for f in range(1, 7) if f + mods >= STEADY_FROM), 6)
                parts.append((p * stand, left))
    odds = Odds("charge")
    contact = sum((p for p, _ in parts), Fraction(0))
    outcomes: dict = {}
    for p, left in parts:
        fight = moved.copy()
        fight.update_unit(unit.id, hits=left)
        if counter:
            fight.mark_unit(target.id, counter=battle.state.turn)
        part = melee_odds(fight, Melee(target.id, (unit.id,)))
        if not odds.lines:
            odds.lines = part.lines
        for k, q in part.outcomes.items():
            outcomes[k] = outcomes.get(k, Fraction(0)) + p * q
    odds.outcomes = {"the charge reaches": reach, "contact": reach * contact,
                     **{k: v * reach for k, v in outcomes.items()}}
    if contact < 1:
        odds.notes.append("the target's volley as the charger comes in may break it")
    return odds


def same_odds(a, b) -> bool:
    return (list(a.outcomes.items()) == list(b.outcomes.items()) and a.notes == b.notes
            and [(l.label, l.dist.weights, l.dist.total) for l in a.lines]
            == [(l.label, l.dist.weights, l.dist.total) for l in b.lines])


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


# ---- boxes first (clear_ground) --------------------------------------------------------------
def box_table(kind, c, r, line, lx, ukind, options=None):
    from manager.errors import ScenarioError
    from builders import piece
    from hypothesis import assume
    terrain = [{"kind": kind, "points": [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r],
                                         [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]},
               {"kind": line, "points": [[lx, 0.5], [lx + 2, 35.5]]}]
    if kind == "hill":
        terrain[0]["level"] = 1
    try:
        return build_table([piece("a", "blue", ukind, (24, 18)),
                            piece("e", "red", "line_infantry", (40, 3))], "quickplay",
                           terrain=terrain, options=options)
    except ScenarioError:                     # a piece stood in the lake: not this table
        assume(False)


AREAS = ["woods", "marsh", "town", "rough", "fields", "lake", "hill"]
LINES = ["stream", "river", "road", "wall"]
KINDS = ["line_infantry", "light_cavalry", "foot_artillery", "skirmishers", "militia"]
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), st.sampled_from(LINES), st.floats(3, 45),
       st.sampled_from(KINDS), st.sampled_from(["line", "column"]), st.floats(-9, 9),
       st.floats(-9, 9), st.integers(0, 359))
def test_terrain_cost_by_boxes_first_is_the_cost_measured(kind, c, r, line, lx, ukind, form,
                                                          dx, dy, facing):
    """A move whose bases' box meets no costly ground, lake, stream, river or road box
    gets the very answer the shapes give (0.0, '', off road); every other move is
    measured."""
    from manager.rules.quickplay.move_ground import _terrain_cost, measured_cost
    from manager.rules.quickplay.units import footprint
    b = box_table(kind, c, r, line, lx, ukind)
    u = b.units["a"]
    start = footprint(b, u, formation=form)
    end = footprint(b, u, x=u.x + dx, y=u.y + dy, facing=facing, formation=form)
    assert _terrain_cost(b, u, start, end) == measured_cost(b, u, start, end)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), st.sampled_from(LINES), st.floats(3, 45),
       spot, spot, st.sampled_from(["through", "within"]))
def test_terrain_sight_by_boxes_first_is_the_sight_measured(kind, c, r, line, lx, a, z, seen):
    from manager.footprint import segment
    from manager.rules.quickplay.units import _terrain_sight
    b = box_table(kind, c, r, line, lx, "line_infantry", {"woods_visibility": seen})
    line_ = segment(a, z)
    assert _terrain_sight(b, a, z, line_) == _terrain_sight(b, a, z, line_, boxes_first=False)


def test_boxes_see_the_features_they_must():
    """A move into a wood, across a stream, along a road, and a line through a town are
    not passed over by the boxes (each is measured and found)."""
    from builders import piece, polyline, rect
    from manager.footprint import segment
    from manager.rules.quickplay.clear_ground import box_of, clear
    from manager.rules.quickplay.move_ground import _terrain_cost
    from manager.rules.quickplay.units import _terrain_sight, footprint
    b = build_table([piece("a", "blue", "line_infantry", (10, 30), formation="column")],
                    "quickplay", terrain=[rect("woods", 8, 20, 12, 24), rect("town", 30, 10, 34, 14),
                                          polyline("stream", (20, 0.5), (20, 35.5)),
                                          polyline("road", (0.5, 31.5), (47.5, 31.5))])
    u = b.units["a"]
    bf = b.battlefield
    start = footprint(b, u)
    assert not clear(bf, box_of(start.corners()), road=True)            # on the road's ground
    assert clear(bf, box_of(start.corners()), ("woods", "town"), ("stream",))
    into_wood = footprint(b, u, x=10, y=23)
    assert _terrain_cost(b, u, start, into_wood)[0] > 0                  # woods cost
    across = footprint(b, u, x=22, y=30, facing=90)
    assert _terrain_cost(b, u, start, across)[0] >= 3                    # the stream's cost
    assert "woods or buildings" in _terrain_sight(b, (28, 12), (36, 12), segment((28, 12), (36, 12)))


def test_a_bent_road_is_boxed_piece_by_piece():
    """A road bent at a corner: ground beside either leg is on its box, ground inside
    the bend (within the road's whole box) is not, and moves there measure alike."""
    from builders import piece, polyline
    from manager.rules.quickplay.clear_ground import clear
    from manager.rules.quickplay.move_ground import _terrain_cost, measured_cost
    from manager.rules.quickplay.units import footprint
    b = build_table([piece("a", "blue", "line_infantry", (8, 28))], "quickplay",
                    terrain=[polyline("road", (0.5, 10), (24, 10), (24, 35.5))])
    bf = b.battlefield
    assert not clear(bf, (23.5, 30, 24.5, 31), road=True)       # on the second leg
    assert not clear(bf, (10, 10.5, 11, 11.5), road=True)       # beside the first
    assert clear(bf, (6, 26, 10, 30), road=True)                 # inside the bend
    u = b.units["a"]
    for to in ((8, 22), (20, 28), (24, 28), (8, 11)):
        start, end = footprint(b, u), footprint(b, u, x=to[0], y=to[1])
        assert _terrain_cost(b, u, start, end) == measured_cost(b, u, start, end)


def old_size(unit, formation, k):
    """`units._footprint`'s sizes as they were worked out for every call."""
    import math
    from manager.rules.quickplay.tables import BASE, RANKS
    from manager.rules.quickplay.units import arm, is_skirmish
    a = arm(unit)
    w, d = BASE[a]
    if a == "artillery":
        return w * k, d * k
    deep = 1 if is_skirmish(unit) else RANKS.get(formation or unit.formation, 2)
    wide = math.ceil(unit.max_hits / deep)
    spread = 2.0 if is_skirmish(unit) else 1.0
    return wide * w * spread * k, deep * d * k


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(sorted(__import__("manager.rules.quickplay.tables",
                                         fromlist=["PROFILES"]).PROFILES)),
       st.sampled_from(["line", "column", "skirmish", "limbered"]),
       st.sampled_from([None, "line", "column"]), st.integers(1, 40),
       st.sampled_from([1.0, 0.5, 2.0, 1.5]))
def test_base_sizes_worked_out_once_are_the_sizes(kind, form, asked, figures, scale):
    from manager.model.forces import evolve
    from manager.rules.quickplay.units import _footprint
    from builders import piece
    b = build_table([piece("a", "blue", "line_infantry", (20, 20))], "quickplay",
                    options={"base_scale": scale})
    u = evolve(b.units["a"], kind=kind, formation=form, max_hits=figures, hits=figures)
    for _ in range(2):
        fp = _footprint(b, u, 3.0, 4.0, 90, asked)
        assert (fp.frontage, fp.depth) == old_size(u, asked, scale)
        assert (fp.x, fp.y, fp.facing) == (3.0, 4.0, 90)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 14), st.floats(-3, 3), st.floats(-3, 3),
       st.sampled_from([0.5, 1, 2]), st.sampled_from(["lost", "stop"]))
def test_a_retreat_asks_only_the_bases_beside_its_way(data, n, dx, dy, moves, at_edge):
    """A retreat (toward another unit, give or take) stops at the same spot, or leaves
    the table alike, when only the bases that could meet it somewhere on its way are
    asked at each half inch as when all the near ones were."""
    from manager.rules.quickplay import combat
    b = crowd(data, n)
    u, o = b.live_units("blue")[0], b.live_units("red")[0]
    away = (2 * u.x - o.x + dx, 2 * u.y - o.y + dy)      # so it retreats toward o
    if away == u.pos:
        return
    kept, every = b.copy(), b.copy()
    combat.retreat(kept, u.id, away, moves, [], at_edge=at_edge)
    real = combat._beside
    combat._beside = lambda battle, unit, hx, hy, inches, others: others
    try:
        combat.retreat(every, u.id, away, moves, [], at_edge=at_edge)
    finally:
        combat._beside = real
    assert kept.units[u.id] == every.units[u.id]


def test_every_move_cost_in_play_is_the_cost_measured():
    """Every move and charge path costed on two turns of Austerlitz (a stream, roads,
    towns, lakes and hills): the box-first answer is the one measured on every shape."""
    from manager.rules.quickplay import move_ground as moves
    calls = []
    real = moves._terrain_cost

    def both(battle, unit, start, end):
        got = real(battle, unit, start, end)
        assert got == moves.measured_cost(battle, unit, start, end)
        calls.append(got)
        return got

    s, ap = austerlitz(2)
    moves._terrain_cost = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 2:
            ap.step()
    finally:
        moves._terrain_cost = real
    assert len(calls) > 100 and any(c[1] for c in calls) and any(c[0] for c in calls)


def test_orders_along_lines_known_blocked_are_refused_in_play():
    """Every shot and charge the commander passes over because woods, towns or a hill
    are known to block its line (`known_terrain_sight`) is refused by the rules, on four
    turns of Austerlitz; and such lines do come up."""
    from manager.rules.quickplay.commander import Commander
    from play_checks import refused
    s, ap = austerlitz(4)
    passed = []
    real = Commander._seen_blocked

    def checked(self, u, e):
        out = real(self, u, e)
        if out:
            passed.append((u.id, e.id))
            assert refused(s, ga.Charge(u.id, e.id)) and refused(s, ga.Fire(u.id, e.id))
        return out

    Commander._seen_blocked = checked
    try:
        while not s.battle.state.over and s.battle.state.turn <= 4:
            ap.step()
    finally:
        Commander._seen_blocked = real
    assert len(passed) > 20


def test_known_terrain_sight_is_the_remembered_answer():
    from builders import piece, rect
    from manager.footprint import segment
    from manager.rules.quickplay.units import known_terrain_sight, terrain_sight
    b = build_table([piece("a", "blue", "line_infantry", (10, 30))], "quickplay",
                    terrain=[rect("woods", 14, 10, 20, 20)])
    a, z = (10, 15), (30, 15)
    assert known_terrain_sight(b, a, z) is None                 # not measured yet
    why = terrain_sight(b, a, z, segment(a, z))
    assert why and known_terrain_sight(b, a, z) == why
    assert known_terrain_sight(b, z, a) is None                 # the other way: not yet
    from dataclasses import replace
    b.set_battlefield(replace(b.battlefield, features=()))      # another table
    assert known_terrain_sight(b, a, z) is None
