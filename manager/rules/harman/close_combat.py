"""Harman's close combat on foot: a bayonet charge, a combat that goes on, who gives
ground and who takes the square; and the dice each side throws in it."""
from __future__ import annotations

from ...model.forces import mark
from .board import (box, centre, generals_with, kinds, occupants, quality, quality_dice, utype,
                    wall_across)
from .tables import FLAG, OFFICER, SABRE, TARGET
from .tactical import Effect, count, dice_now, rout, step_back, suffer, throw


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


def extra_flags(battle, target) -> int:
    """Flags the side's skirmishers scored on the target this turn join a charge's."""
    sf = mark(target, "skirm_flags")
    return sf[1] if sf and sf[0] == battle.state.turn else 0


def bayonets(battle, aid, did, dice) -> list:
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    faces = throw(battle, a, cc_dice(battle, a, d), f"bayonet charge on {d.name}", dice, events)
    sabres, flags = count(faces, SABRE), count(faces, FLAG) + extra_flags(battle, d)
    q = quality(d)
    if flags >= q or sabres_and_flags(battle, sabres, flags) >= q:
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
        engage(battle, aid, did)
        events.append(Effect(d.name, "stands: the close combat goes on next turn"))
    else:
        events.append(Effect(a.name, "is halted: an exchange of fire next turn"))
    return events


def close_combat(battle, aid, did, dice) -> list:
    """Foot moving next to horse: the plain Close Combat rule, both throw quality dice
    (+1 with a General), Sabres hit; cavalry never fire, so there is no volley."""
    events: list = []
    a, d = battle.units[aid], battle.units[did]
    fa = throw(battle, a, cc_dice(battle, a, d), f"close combat with {d.name}", dice, events)
    fd = throw(battle, d, cc_dice(battle, d, a), f"close combat with {a.name}", dice, events)
    suffer(battle, did, count(fa, SABRE), count(fa, FLAG) + extra_flags(battle, d),
           count(fa, OFFICER), dice, events, box(battle, a))
    suffer(battle, aid, count(fd, SABRE), count(fd, FLAG), count(fd, OFFICER), dice, events,
           box(battle, d))
    a, d = battle.units[aid], battle.units[did]
    if not (a.eliminated or d.eliminated or mark(a, "retiring") or mark(d, "retiring")):
        engage(battle, aid, did)
        events.append(Effect(d.name, "the close combat goes on next turn"))
    return events


def sabres_and_flags(battle, sabres: int, flags: int) -> int:
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
    _occupy(battle, aid, sq, events)


def engage(battle, aid, did) -> None:
    battle.mark_unit(aid, engaged=did, rounds=1, fought=battle.state.turn)
    battle.mark_unit(did, engaged=aid)
