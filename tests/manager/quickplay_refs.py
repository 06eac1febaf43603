"""Quick-play's code as it was before the fewer-calls changes of issue 17 (a unit's order,
a charge's odds on copies of the battle), kept as the reference the tests compare with;
Austerlitz under quick-play with the automatic commander, ready to play; and the random
tables (a terrain box, a line, a unit) the boxes-first answers are tried on.
"""
import sys
from pathlib import Path

from hypothesis import strategies as st

from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.footprint import distance, heading
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table  # noqa: E402
from test_quickplay_speed import ROOT  # noqa: E402


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


# ---- the tables the boxes-first answers are tried on ---------------------------------------
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
