"""Harman's close combat: bayonet charges, cavalry against cavalry, cavalry against foot
and guns, combats that go on into the next turn, and a General rallying a unit.

Every throw is read by its faces: Sabres hit in close combat, Targets in the defenders'
volleys, Flags decide who panics, forms square in time, halts or flees.

This module is the door (charges, melees, rallies, odds); the fights themselves are in
close_combat.py (foot) and cavalry_clash.py (horse).
"""
from __future__ import annotations

from fractions import Fraction

from ...actions import need
from ...events import MeleeResolved, UnitMoved, declare_event
from ...model.forces import mark
from ...odds import Odds
from ..common import own_unit
from .cavalry_clash import cavalry_clash, cavalry_on_foot
from .close_combat import bayonets, cc_dice, close_combat, extra_flags, sabres_and_flags
from .board import (ORTHO, box, centre, enemies_adjacent, generals_with, kinds, occupants,
                    quality, spent, utype, wall_across)
from .fire import throw_dist
from .moves import may_charge, reach, step_refusal
from .tables import CHARGE, FLAG, OFFICER, SABRE
from .tactical import Effect, count, step_back, suffer, throw

Rallied = declare_event("Rallied", "{leader} rallies {unit}: {outcome}", leader=str, unit=str,
                        outcome=str)


def _approaches(battle, unit, target) -> list:
    """Squares next to the target (orthogonally) the charger can reach this turn."""
    t = utype(unit)
    limit = CHARGE if t == "cavalry" else 1
    r = reach(battle, unit, limit)
    tb = box(battle, target)
    occ = occupants(battle)
    out = []
    for dx, dy in ORTHO:
        sq = (tb[0] + dx, tb[1] + dy)
        if sq in r and (sq not in occ or occ[sq].id == unit.id):
            if t == "cavalry" and r[sq] > 3 and not _straight_finish(battle, unit, sq, tb, r):
                continue
            out.append((r[sq], sq))
    return [sq for _, sq in sorted(out)]


def _straight_finish(battle, unit, sq, tb, r) -> bool:
    """A 4-square charge's last two squares are in a straight line at the enemy: it
    reaches the square two back along that line in two steps, then goes straight on."""
    dx, dy = tb[0] - sq[0], tb[1] - sq[1]
    back1 = (sq[0] - dx, sq[1] - dy)
    back2 = (back1[0] - dx, back1[1] - dy)
    occ = occupants(battle)
    return back2 in r and r[back2] <= CHARGE - 2 and back1 in r \
        and (back1 not in occ or occ[back1].side == unit.side) \
        and not step_refusal(battle, unit, back2, back1)[0] \
        and not step_refusal(battle, unit, back1, sq)[0]


def _bent_only(battle, unit, target) -> bool:
    """Squares next to the target the cavalry reach in four, but not straight."""
    if utype(unit) != "cavalry":
        return False
    r = reach(battle, unit, CHARGE)
    tb = box(battle, target)
    return any((tb[0] + dx, tb[1] + dy) in r for dx, dy in ORTHO)


def check_charge(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    why = may_charge(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated and target.side != unit.side,
         f"{action.target!r} is not an enemy unit")
    tb = box(battle, target)
    if "town" in kinds(battle, tb):
        need(utype(unit) == "infantry", "only infantry fight in a built-up area (BUA)")
    if utype(unit) == "cavalry":
        need(not wall_across(battle, _approach_or_here(battle, unit, target), tb),
             "cavalry cannot engage troops behind a fence or wall")
    need(_approaches(battle, unit, target) or not _bent_only(battle, unit, target),
         f"{unit.name} reaches {target.name} only by a bend: the last two squares of a charge "
         "must be in a straight line")
    need(_approaches(battle, unit, target), f"{target.name} is out of range: {unit.name} cannot reach a "
         f"square next to it ({CHARGE if utype(unit) == 'cavalry' else 1} square(s))")


def _approach_or_here(battle, unit, target):
    a = _approaches(battle, unit, target)
    return a[0] if a else box(battle, unit)


def resolve_charge(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    origin = box(battle, unit)
    sq = _approaches(battle, unit, target)[0]
    x, y = centre(battle, sq)
    for l in generals_with(battle, unit):
        battle.update_leader(l.id, x=x, y=y)
    battle.update_unit(unit.id, x=x, y=y, moved=2)
    events: list = [UnitMoved(unit.name, sq, unit.facing, 0)]
    if utype(unit) == "cavalry" and utype(target) == "cavalry":
        events += cavalry_clash(battle, unit.id, target.id, origin, dice)
    elif utype(unit) == "cavalry":
        events += cavalry_on_foot(battle, unit.id, target.id, origin, dice)
    elif utype(target) == "cavalry":
        events += close_combat(battle, unit.id, target.id, dice)
    else:
        events += bayonets(battle, unit.id, target.id, dice)
    from ..army_morale import settle_army
    settle_army(battle, events, battle.option("army_morale"))
    return [MeleeResolved(target.name, (unit.name,), (target.name,), 0, 0, "close combat")] + events


def melees(battle) -> list:
    from ..common import Melee
    out = []
    for u in sorted(battle.live_units(battle.state.active), key=lambda u: u.id):
        other = mark(u, "engaged")
        if other and mark(u, "rounds") and other in battle.units and \
                not battle.units[other].eliminated and mark(u, "fought") != battle.state.turn:
            out.append(Melee(other, (u.id,)))
    return out


def check_resolve_melee(battle, action) -> None:
    need(any(m.defender == action.defender for m in melees(battle)),
         f"there is no close combat going on at {action.defender!r}")


def resolve_melee(battle, action, dice) -> list:
    m = next(m for m in melees(battle) if m.defender == action.defender)
    a, d = battle.units[m.attackers[0]], battle.units[m.defender]
    events: list = []
    fa = throw(battle, a, cc_dice(battle, a, d), f"close combat with {d.name}", dice, events)
    fd = throw(battle, d, cc_dice(battle, d, a), f"close combat with {a.name}", dice, events)
    rd = suffer(battle, d.id, count(fa, SABRE), count(fa, FLAG), count(fa, OFFICER), dice,
                events, box(battle, a))
    ra = suffer(battle, a.id, count(fd, SABRE), count(fd, FLAG), count(fd, OFFICER), dice,
                events, box(battle, d))
    rounds = mark(a, "rounds", 1) + 1
    a, d = battle.units[a.id], battle.units[d.id]
    decided = a.eliminated or d.eliminated or spent(a) or spent(d) or \
        "retires" in (ra, rd) or "routs" in (ra, rd)
    if not decided and rounds >= 2:          # the charge's turn and this one: two turns
        events.append(Effect(a.name, "no decision after two turns: "
                             + ("the attackers retire to rally" if "town" in
                                kinds(battle, box(battle, d)) else "both sides retire to rally")))
        if utype(a) == "cavalry" and mark(a, "origin"):
            x, y = centre(battle, mark(a, "origin"))
            if mark(a, "origin") not in occupants(battle):
                battle.update_unit(a.id, x=x, y=y)
        else:
            step_back(battle, a.id, box(battle, d), events)
        if "town" not in kinds(battle, box(battle, d)) and utype(d) != "cavalry":
            step_back(battle, d.id, box(battle, a), events)
        decided = True
    for u in (a, d):
        if not battle.units[u.id].eliminated:
            if decided:
                battle.mark_unit(u.id, engaged=None, rounds=None, origin=None)
            else:
                battle.mark_unit(u.id, fought=battle.state.turn)
    if not decided:
        battle.mark_unit(a.id, rounds=rounds)
    from ..army_morale import settle_army
    settle_army(battle, events, battle.option("army_morale"))
    return [MeleeResolved(d.name, (a.name,), (d.name,), count(fa, SABRE), count(fd, SABRE),
                          "decided" if decided else "goes on")] + events


# ---- a General rallies a unit ----------------------------------------------------------------
def check_rally(battle, action) -> None:
    leader = battle.leaders.get(action.leader)
    need(leader is not None and not leader.eliminated and leader.side == battle.state.active,
         f"{action.leader!r} is not a General of the side to move")
    need(not leader.rallied, f"{leader.name} has already tried to rally this turn")
    unit = own_unit(battle, action.unit)
    need(mark(unit, "struck") != battle.state.turn,
         f"{unit.name} was fired upon or charged this turn: no rally")
    need(box(battle, leader) == box(battle, unit), f"{leader.name} must join {unit.name} first")
    need(mark(unit, "flagged") == battle.state.turn or mark(unit, "retiring"),
         f"{unit.name} has suffered no Falling Flag this turn and is not retiring")
    need(not unit.moved, f"{unit.name} must be stationary")
    need(not enemies_adjacent(battle, unit), f"{unit.name} is being charged")


def resolve_rally(battle, action, dice) -> list:
    leader, unit = battle.leaders[action.leader], battle.units[action.unit]
    battle.update_leader(leader.id, rallied=True)
    face = dice.d6(f"rally: {leader.name} with {unit.name}")
    if face == 6 and unit.hits > 0:
        battle.mark_unit(unit.id, retiring=None, flagged=None, halted=None)
        return [Rallied(leader.name, unit.name, "a 6: rallied")]
    return [Rallied(leader.name, unit.name, f"a {face}: not this time")]


# ---- exact odds of a charge's first throw ------------------------------------------------
def charge_odds(battle, action) -> Odds:
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    moved = battle.copy()
    sq = _approaches(battle, unit, target)[0]
    x, y = centre(battle, sq)
    moved.update_unit(unit.id, x=x, y=y)
    n = cc_dice(moved, moved.units[unit.id], target)
    dist = throw_dist(n, (SABRE,))
    q = quality(target)
    extra = extra_flags(battle, target)
    odds = Odds("charge")
    if utype(unit) == "infantry" or utype(target) != "cavalry":
        breaks = sum((p for (s, f, _), p in dist.items()
                      if f + extra >= q or sabres_and_flags(battle, s, f + extra) >= q),
                     Fraction(0))
        if target.formation == "square":
            breaks = sum((p for (s, f, _), p in dist.items() if f + extra >= q), Fraction(0))
        odds.outcomes[f"{target.name} breaks at once"] = breaks
        odds.outcomes[f"{target.name} stands (no Flag)"] = sum(
            (p for (s, f, _), p in dist.items()
             if f + extra == 0 and sabres_and_flags(battle, s, f) < q), Fraction(0))
    else:
        odds.outcomes[f"{target.name} breaks before the charge"] = sum(
            (p for (s, f, _), p in dist.items() if f + extra >= q), Fraction(0))
        odds.outcomes[f"{target.name} counter-charges (no Flag)"] = sum(
            (p for (s, f, _), p in dist.items() if f + extra == 0), Fraction(0))
    sab = {}
    for (s, _, _), p in dist.items():
        sab[s] = sab.get(s, 0) + p
    from ...odds import Dist, OddsLine
    denom = 6 ** max(n, 0)
    odds.lines.append(OddsLine(f"Sabres on {target.name} ({n} dice)",
                               Dist([int(sab.get(k, 0) * denom) for k in range(max(sab) + 1)],
                                    denom), target.name))
    odds.notes.append("faces: 1 Officer, 2-3 Target, 4 Flag, 5 Fire, 6 Sabre")
    return odds
