"""Harman's close combat: bayonet charges, cavalry against cavalry, cavalry against foot
and guns, combats that go on into the next turn, and a General rallying a unit.

Every throw is read by its faces: Sabres hit in close combat, Targets in the defenders'
volleys, Flags decide who panics, forms square in time, halts or flees.
"""
from __future__ import annotations

from fractions import Fraction

from ...actions import need
from ...events import MeleeResolved, UnitMoved, declare_event
from ...model.forces import mark
from ...odds import Odds
from ..common import own_unit
from .board import (ORTHO, box, centre, enemies_adjacent, generals_with, kinds, occupants,
                    on_table, quality, quality_dice, spent, utype, wall_across)
from .fire import throw_dist
from .moves import may_charge, reach, step_refusal
from .tables import CHARGE, FLAG, OFFICER, SABRE, TARGET
from .tactical import Effect, count, dice_now, rout, step_back, suffer, throw

Rallied = declare_event("Rallied", "{leader} rallies {unit}: {outcome}", leader=str, unit=str,
                        outcome=str)


def cc_dice(battle, unit, enemy) -> int:
    """Quality dice (less this turn's Flag penalty), +1 for a General in the square, -1
    against a unit in tall crops, -1 for foot attacking troops behind a wall."""
    n = dice_now(battle, unit, quality_dice(battle, unit))
    if generals_with(battle, unit) and utype(unit) in ("infantry", "cavalry"):
        n += 1
    if "fields" in kinds(battle, box(battle, enemy)):
        n -= 1
    if utype(unit) == "infantry" and wall_across(battle, box(battle, unit), box(battle, enemy)):
        n -= 1
    return n


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
        events += _cavalry_clash(battle, unit.id, target.id, origin, dice)
    elif utype(unit) == "cavalry":
        events += _cavalry_on_foot(battle, unit.id, target.id, origin, dice)
    elif utype(target) == "cavalry":
        events += _close_combat(battle, unit.id, target.id, dice)
    else:
        events += _bayonets(battle, unit.id, target.id, dice)
    from ..army_morale import settle_army
    settle_army(battle, events, battle.option("army_morale"))
    return [MeleeResolved(target.name, (unit.name,), (target.name,), 0, 0, "close combat")] + events


def _extra_flags(battle, target) -> int:
    """Flags the side's skirmishers scored on the target this turn join a charge's."""
    sf = mark(target, "skirm_flags")
    return sf[1] if sf and sf[0] == battle.state.turn else 0


def _bayonets(battle, aid, did, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces = throw(battle, a, cc_dice(battle, a, d), f"bayonet charge on {d.name}", dice, events)
    sabres, flags = count(faces, SABRE), count(faces, FLAG) + _extra_flags(battle, d)
    q = quality(d)
    if flags >= q or _sabres_and_flags(battle, sabres, flags) >= q:
        events.append(Effect(d.name, "panics and flees without firing"))
        suffer(battle, did, sabres, 0, count(faces, OFFICER), dice, events, box(battle, a))
        if battle.option("flee") == "rout" and not battle.units[did].eliminated:
            sq = box(battle, battle.units[did])
            rout(battle, did, events, "routs: panics and flees the field")
            _occupy(battle, aid, sq, events)
        else:
            _give_ground(battle, aid, did, events)
        return events
    defend = dice_now(battle, d, quality_dice(battle, d) if not utype(d).endswith("artillery")
                      else 3) - (0 if flags == 0 else 1)
    # the Attackers' throw lands first (a General in the square is diced for now); then
    # the Defenders fire back with the dice they had
    suffer(battle, did, sabres, flags, count(faces, OFFICER), dice, events, box(battle, a))
    if battle.units[did].eliminated:
        return events
    back = throw(battle, battle.units[did], defend, f"fire at the charging {a.name}", dice,
                 events)
    outcome = suffer(battle, aid, count(back, TARGET), count(back, FLAG), count(back, OFFICER),
                     dice, events, box(battle, d))
    halted = outcome in ("halts", "retires", "routs", "gone")
    if battle.units[did].eliminated or battle.units[aid].eliminated:
        return events
    if flags >= 2 and not halted:
        events.append(Effect(d.name, "fires, but the attackers come on: it retires"))
        _give_ground(battle, aid, did, events)
    elif not halted:
        _engage(battle, aid, did)
        events.append(Effect(d.name, "stands: the close combat goes on next turn"))
    else:
        events.append(Effect(a.name, "is halted: an exchange of fire next turn"))
    return events


def _close_combat(battle, aid, did, dice) -> list:
    """Foot moving next to horse: the plain Close Combat rule, both throw quality dice
    (+1 with a General), Sabres hit; cavalry never fire, so there is no volley."""
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    fa = throw(battle, a, cc_dice(battle, a, d), f"close combat with {d.name}", dice, events)
    fd = throw(battle, d, cc_dice(battle, d, a), f"close combat with {a.name}", dice, events)
    suffer(battle, did, count(fa, SABRE), count(fa, FLAG) + _extra_flags(battle, d),
           count(fa, OFFICER), dice, events, box(battle, a))
    suffer(battle, aid, count(fd, SABRE), count(fd, FLAG), count(fd, OFFICER), dice, events,
           box(battle, d))
    a, d = battle.units[aid], battle.units[did]
    if not (a.eliminated or d.eliminated or mark(a, "retiring") or mark(d, "retiring")):
        _engage(battle, aid, did)
        events.append(Effect(d.name, "the close combat goes on next turn"))
    return events


def _sabres_and_flags(battle, sabres: int, flags: int) -> int:
    """Sabres and Flags counted together against the quality; with the text's 'no Flags'
    paragraph (option sabres_alone = stand) Sabres count only beside at least one Flag."""
    if flags == 0 and battle.option("sabres_alone") == "stand":
        return 0
    return sabres + flags


def _occupy(battle, aid, sq, events) -> None:
    if not battle.units[aid].eliminated and sq not in occupants(battle):
        x, y = centre(battle, sq)
        for l in generals_with(battle, battle.units[aid]):
            battle.update_leader(l.id, x=x, y=y)
        battle.update_unit(aid, x=x, y=y)
        events.append(Effect(battle.units[aid].name, f"occupies square {sq}"))


def _give_ground(battle, aid, did, events) -> None:
    """The defender retires; the attacker occupies its square."""
    d = battle.units[did]
    sq = box(battle, d)
    if not d.eliminated:
        battle.mark_unit(did, retiring=True)
        if not step_back(battle, did, box(battle, battle.units[aid]), events):
            rout(battle, did, events, "nowhere to retire: routs")
    if not battle.units[aid].eliminated and sq not in occupants(battle):
        x, y = centre(battle, sq)
        for l in generals_with(battle, battle.units[aid]):
            battle.update_leader(l.id, x=x, y=y)
        battle.update_unit(aid, x=x, y=y)
        events.append(Effect(battle.units[aid].name, f"occupies square {sq}"))


def _engage(battle, aid, did) -> None:
    battle.mark_unit(aid, engaged=did, rounds=1, fought=battle.state.turn)
    battle.mark_unit(did, engaged=aid)


def _cavalry_clash(battle, aid, did, origin, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces = throw(battle, a, cc_dice(battle, a, d), f"charge on {d.name}", dice, events)
    sabres, flags = count(faces, SABRE), count(faces, FLAG) + _extra_flags(battle, d)
    q = quality(d)
    if flags >= q:
        events.append(Effect(d.name, "breaks before the charge"))
        suffer(battle, did, sabres, flags, count(faces, OFFICER), dice, events, box(battle, a))
        if not battle.units[did].eliminated:             # the pursuit: no reply
            more = throw(battle, a, cc_dice(battle, a, d), "pursuit", dice, events)
            suffer(battle, did, count(more, SABRE), count(more, FLAG), 0, dice, events,
                   box(battle, a))
        return events
    n = quality_dice(battle, d) - (1 if flags else 0)
    back = throw(battle, d, n, "counter-charge" if not flags else "meets the charge, shaken",
                 dice, events)
    suffer(battle, did, sabres, flags, count(faces, OFFICER), dice, events, box(battle, a))
    suffer(battle, aid, count(back, SABRE), count(back, FLAG), count(back, OFFICER), dice,
           events, box(battle, d))
    a, d = battle.units[aid], battle.units[did]
    if a.eliminated or d.eliminated or spent(a) or spent(d) \
            or mark(a, "retiring") or mark(d, "retiring"):
        for u in (a, d):
            if not u.eliminated:
                battle.mark_unit(u.id, clash=None)
        return events
    before = mark(a, "clash") or mark(d, "clash")
    if before and {before[0]} & {aid, did}:      # the second turn: the horses are blown
        events.append(Effect(a.name, "two turns of close combat: the horses are blown, "
                             "both fall back to their original positions to rally"))
        for u in (a, d):
            home = mark(u, "clash")[1] if mark(u, "clash") else box(battle, u)
            battle.mark_unit(u.id, clash=None)
            if home not in occupants(battle) or occupants(battle)[home].id == u.id:
                _place(battle, u.id, home)
        return events
    _pass_through(battle, aid, did, origin, events)
    return events


def _place(battle, uid, sq, facing=None) -> None:
    x, y = centre(battle, sq)
    for l in generals_with(battle, battle.units[uid]):
        battle.update_leader(l.id, x=x, y=y)
    battle.update_unit(uid, x=x, y=y, **({} if facing is None else {"facing": facing}))


BEARING = {(0, -1): 0, (1, 0): 90, (0, 1): 180, (-1, 0): 270}


def _pass_through(battle, aid, did, origin, events) -> None:
    """Neither broken: both pass through each other, one square further forward, and turn
    in that square to charge again next turn (each remembers where it began)."""
    sa, sd = box(battle, battle.units[aid]), box(battle, battle.units[did])
    v = (sd[0] - sa[0], sd[1] - sa[1])
    battle.mark_unit(aid, clash=(did, origin))
    battle.mark_unit(did, clash=(aid, sd))
    moves = ((aid, (sd[0] + v[0], sd[1] + v[1]), BEARING[(-v[0], -v[1])]),
             (did, (sa[0] - v[0], sa[1] - v[1]), BEARING[v]))
    for uid, sq, facing in moves:
        u = battle.units[uid]
        held = occupants(battle).get(sq)
        if on_table(battle, sq) and (held is None or held.id == uid) \
                and not step_refusal(battle, u, box(battle, u), sq)[0]:
            _place(battle, uid, sq, facing)
            events.append(Effect(u.name, f"passes through to square {sq} and turns to "
                                 "charge again next turn"))
        else:
            battle.update_unit(uid, facing=facing)
            events.append(Effect(u.name, "turns where it stands to charge again next turn"))


def _cavalry_on_foot(battle, aid, did, origin, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces = throw(battle, a, cc_dice(battle, a, d), f"charge on {d.name}", dice, events)
    sabres, flags = count(faces, SABRE), count(faces, FLAG) + _extra_flags(battle, d)
    q = quality(d)
    guns = utype(d).endswith("artillery")
    if d.formation == "square":
        if flags >= q:
            events.append(Effect(d.name, "the square breaks"))
            suffer(battle, did, sabres, flags, 0, dice, events, box(battle, a))
            if not battle.units[did].eliminated:
                rout(battle, did, events, "square broken: routs")
            return events
        _volley_past(battle, d, a, -(-quality_dice(battle, d) // 2), "the square fires as "
                     "the cavalry flows past", dice, events)
    elif _sabres_and_flags(battle, sabres, flags) >= q:
        events.append(Effect(d.name, "the gunners panic" if guns else "fails to form square"))
        suffer(battle, did, sabres, 0, 0, dice, events, box(battle, a))
        if not battle.units[did].eliminated:        # the pursuit: again, one die more
            more = throw(battle, a, cc_dice(battle, a, d) + 1, "pursuit", dice, events)
            suffer(battle, did, count(more, SABRE), 0, 0, dice, events, box(battle, a))
        if not battle.units[did].eliminated:
            rout(battle, did, events, "routs")
        return events
    elif flags:
        if guns:
            _volley_past(battle, d, a, 2, "the gunners fire hastily", dice, events)
            suffer(battle, did, sabres, 0, count(faces, OFFICER), dice, events, box(battle, a))
            if not battle.units[did].eliminated:
                step_back(battle, did, box(battle, a), events, "the gunners run to the infantry")
                battle.mark_unit(did, gunners_away=True)
        else:
            battle.update_unit(did, formation="square")
            events.append(Effect(d.name, "only just forms square"))
            suffer(battle, did, sabres, 0, count(faces, OFFICER), dice, events, box(battle, a))
            _volley_past(battle, battle.units[did], a, 1, "fires with one die", dice, events)
    else:
        if guns:
            _volley_past(battle, d, a, 3, "the gunners stand and fire canister", dice, events)
            suffer(battle, did, sabres, 0, count(faces, OFFICER), dice, events, box(battle, a))
        else:
            battle.update_unit(did, formation="square")
            events.append(Effect(d.name, "forms square in good time and ignores the sabres"))
            _volley_past(battle, battle.units[did], a, -(-quality_dice(battle, d) // 2),
                         "fires as the cavalry flows past", dice, events)
    a = battle.units[aid]
    if not a.eliminated:                   # the charge failed: it flows past and returns
        x, y = centre(battle, origin)
        if origin not in occupants(battle):
            battle.update_unit(aid, x=x, y=y)
        events.append(Effect(a.name, "flows past, rallies and returns to square "
                             f"{box(battle, battle.units[aid])}"))
    return events


def _volley_past(battle, shooter, target, n, why, dice, events) -> None:
    if shooter.eliminated:
        return
    faces = throw(battle, shooter, n, why, dice, events)
    suffer(battle, target.id, count(faces, TARGET), count(faces, FLAG), count(faces, OFFICER),
           dice, events, box(battle, shooter))


# ---- combats that go on ----------------------------------------------------------------
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
    extra = _extra_flags(battle, target)
    odds = Odds("charge")
    if utype(unit) == "infantry" or utype(target) != "cavalry":
        breaks = sum((p for (s, f, _), p in dist.items()
                      if f + extra >= q or _sabres_and_flags(battle, s, f + extra) >= q),
                     Fraction(0))
        if target.formation == "square":
            breaks = sum((p for (s, f, _), p in dist.items() if f + extra >= q), Fraction(0))
        odds.outcomes[f"{target.name} breaks at once"] = breaks
        odds.outcomes[f"{target.name} stands (no Flag)"] = sum(
            (p for (s, f, _), p in dist.items()
             if f + extra == 0 and _sabres_and_flags(battle, s, f) < q), Fraction(0))
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

