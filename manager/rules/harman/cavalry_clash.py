"""Harman's horse in close combat: cavalry against cavalry (a clash, a pass through) and
cavalry against foot and guns (volleys as it comes on, squares formed in time)."""
from __future__ import annotations

from ...model.forces import mark
from .board import (box, centre, generals_with, occupants, on_table, quality, quality_dice,
                    spent, utype)
from .moves import step_refusal
from .tables import FLAG, OFFICER, SABRE, TARGET
from .tactical import Effect, count, rout, step_back, suffer, throw
from .close_combat import cc_dice, extra_flags, sabres_and_flags


def _charge_throw(battle, a, d, dice, events) -> tuple:
    """The charging horse's close-combat throw: (its faces, Sabres, Flags with the
    skirmishers' this turn, the defender's quality)."""
    faces = throw(battle, a, cc_dice(battle, a, d), f"charge on {d.name}", dice, events)
    return faces, count(faces, SABRE), count(faces, FLAG) + extra_flags(battle, d), quality(d)


def cavalry_clash(battle, aid, did, origin, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces, sabres, flags, q = _charge_throw(battle, a, d, dice, events)
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


def cavalry_on_foot(battle, aid, did, origin, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces, sabres, flags, q = _charge_throw(battle, a, d, dice, events)
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
    elif sabres_and_flags(battle, sabres, flags) >= q:
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
