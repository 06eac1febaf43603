"""Losses and their consequences: elimination, fall back, Shaken commands, army morale,
leaders hit, and rallying."""
from __future__ import annotations

from ...events import (ArmyConceded, CommandShaken, HitsTaken, LeaderFell, LeaderHit,
                       UnitEliminated, UnitFellBack, UnitPlaced, UnitRallied,
                       UnitRetreated)
from ...grid import Box, direction_to, step
from .board import army_trait, board, box_of, distance
from .movement import EDGE_DIR, terrain_refusal
from .tables import (FALL_BACK_BOXES, LEADER_HIT_FACES, QUALITY, RALLY_FAIL_BELOW,
                     RALLY_TWO_AT, SHAKEN_RETREAT_BOXES)


def kutusov_holds(battle, unit) -> bool:
    """Kutusov: Russian infantry neither falls back from fire nor retreats when Shaken."""
    return (army_trait(battle, unit.side) == "kutusov" and unit.nation == "russia"
            and unit.arm == "infantry")


def take_hits(battle, uid: str, hits: int, events: list) -> bool:
    """Apply hits (never below zero); True when the unit is eliminated by them."""
    unit = battle.units[uid]
    hits = min(hits, unit.hits)
    if hits <= 0:
        return False
    unit = battle.update_unit(uid, hits=unit.hits - hits)
    events.append(HitsTaken(unit.name, hits, unit.hits, uid))
    if unit.hits == 0:
        battle.update_unit(uid, eliminated=True)
        events.append(UnitEliminated(unit.name, uid))
        spanish_guerillas(battle, unit, events)
        return True
    return False


GUERILLA_DISTANCE = 5


def spanish_guerillas(battle, unit, events: list) -> None:
    """Spain: an eliminated Militia unit leaves a 1-hit stand of Guerillas (fighting as
    Militia) at least 5 boxes from any enemy. Placed on the nearest such box to where
    the militia fell; the umpire may move it where the Spanish player prefers."""
    if not (battle.option("national_characteristics") and unit.nation == "spain"
            and unit.kind == "militia" and not unit.id.startswith("guerillas-")):
        return
    from dataclasses import replace as _replace
    from ...grid import box_distance
    b = board(battle)
    here = box_of(battle, unit)
    enemies = [b.unit_box[e.id] for e in battle.live_units() if e.side != unit.side]
    spots = [bx for bx in b.grid.boxes()
             if bx not in b.box_unit and not terrain_refusal(battle, "militia", bx)
             and all(box_distance(bx, e) >= GUERILLA_DISTANCE for e in enemies)]
    if not spots:
        return
    spot = min(spots, key=lambda bx: (box_distance(bx, here), bx))
    cid = battle.hierarchy.command_of(unit.id)
    n = sum(1 for u in battle.units if u.startswith("guerillas-")) + 1
    x, y = b.centre(spot)
    stand = _replace(unit, id=f"guerillas-{n}", name=f"Guerillas {n}", hits=1, max_hits=1,
                     x=x, y=y, eliminated=False, moved=0, fired=False, fire_hits=0,
                     fell_back=False)
    battle.put_unit(stand)
    battle.set_hierarchy(battle.hierarchy.with_unit(cid, stand.id))
    events.append(UnitPlaced(stand.name, spot))


def _free_for(battle, unit, box: Box, b) -> bool:
    if terrain_refusal(battle, unit.kind, box):
        return False
    if box in b.box_unit and b.box_unit[box] != unit.id:
        return False
    return not any(battle.leaders[l].side != unit.side for l in b.box_leaders.get(box, ()))


def _step_away(battle, unit, direction: int, boxes: int) -> tuple[Box, int]:
    """Move up to `boxes` in a direction (or its two neighbours) into free boxes (the
    Shaken retreat); returns (box, boxes short)."""
    here = box_of(battle, unit)
    for done in range(boxes):
        b = board(battle)
        for d in (direction, (direction + 1) % 8, (direction - 1) % 8):
            nb = step(here, d)
            if _free_for(battle, unit, nb, b):
                here = nb
                _carry(battle, unit, nb, b)
                unit = battle.units[unit.id]
                break
        else:
            return here, boxes - done
    return here, 0


def _carry(battle, unit, to: Box, b) -> None:
    """The unit to a box, and the leaders standing with it (a leader goes with his unit)."""
    carry = b.leaders_at(box_of(battle, unit), unit.side)
    x, y = b.centre(to)
    battle.update_unit(unit.id, x=x, y=y)
    for lid in carry:
        battle.update_leader(lid, x=x, y=y)


def _passable(battle, unit, box: Box, b) -> bool:
    """May a falling-back unit go through this box? Friends never block (they are passed
    through); enemies, ground it may not enter and the table's edge do."""
    if terrain_refusal(battle, unit.kind, box):
        return False
    other = b.box_unit.get(box)
    if other and other != unit.id and battle.units[other].side != unit.side:
        return False
    return not any(battle.leaders[l].side != unit.side for l in b.box_leaders.get(box, ()))


def plan_fall_back(battle, unit, enemy_boxes) -> tuple[Box, int, int]:
    """(the box it ends in, boxes short by enemies/ground/edge, boxes short in all).

    Straight away from the enemy (slipping to a diagonal where the way is blocked), two
    boxes; friends are passed through, and where the last box reached holds a friend the
    unit stops in the last free box on its way (short, but not blocked: no penalty)."""
    b = board(battle)
    here = start = box_of(battle, unit)
    ex = sum(x[0] for x in enemy_boxes) / len(enemy_boxes)
    ey = sum(x[1] for x in enemy_boxes) / len(enemy_boxes)
    away = (direction_to(here, (round(ex), round(ey))) + 4) % 8
    path = [start]
    for _ in range(FALL_BACK_BOXES):
        ways = (away,) if battle.option("fall_back_way") == "straight" else \
            (away, (away + 1) % 8, (away - 1) % 8)
        nxt = next((step(here, d) for d in ways
                    if _passable(battle, unit, step(here, d), b)), None)
        if nxt is None:
            break
        here = nxt
        path.append(here)
    blocked = FALL_BACK_BOXES - (len(path) - 1)
    while len(path) > 1 and b.box_unit.get(path[-1], unit.id) != unit.id:
        path.pop()                               # a friend holds it: stop short of him
    return path[-1], blocked, FALL_BACK_BOXES - (len(path) - 1)


def fall_back_penalty(battle, unit, enemy_boxes) -> int:
    """Hits a fall back would cost this unit now (option `blocked_fall_back`)."""
    if unit.fixed or battle.option("blocked_fall_back") != "hit_per_box":
        return 0
    return plan_fall_back(battle, unit, enemy_boxes)[1]


def fall_back(battle, uid: str, enemy_boxes: list[Box], events: list, why: str) -> None:
    """Fall back 2 boxes, away from the enemy, ending facing it. A fixed unit (guns that
    may only change facing) turns to face the enemy but does not move."""
    unit = battle.units[uid]
    if unit.eliminated:
        return
    ex = sum(b[0] for b in enemy_boxes) / len(enemy_boxes)
    ey = sum(b[1] for b in enemy_boxes) / len(enemy_boxes)
    if unit.fixed:
        to, blocked, short = box_of(battle, unit), 0, 0
    else:
        to, blocked, short = plan_fall_back(battle, unit, enemy_boxes)
        if to != box_of(battle, unit):
            _carry(battle, unit, to, board(battle))
    toward = direction_to(to, (round(ex), round(ey)))
    battle.update_unit(uid, facing=toward * 45, fell_back=True)
    events.append(UnitFellBack(unit.name, to, short))
    if blocked and not unit.fixed and battle.option("blocked_fall_back") == "hit_per_box":
        take_hits(battle, uid, blocked, events)


def leader_checks(battle, box: Box, dice, events: list, why: str) -> None:
    """Every leader in a box shot at or in melee rolls 2D6: 2 or 3 and he is hit."""
    for lid in list(board(battle).box_leaders.get(box, ())):
        leader_check(battle, lid, dice, events, why)


def leader_check(battle, lid: str, dice, events: list, why: str) -> None:
    """One leader rolls 2D6 for a hit; at no hits left he falls."""
    leader = battle.leaders[lid]
    roll = dice.roll(2, f"leader hit: {leader.name} ({why})")
    if roll.result in LEADER_HIT_FACES:
        leader = battle.update_leader(lid, hits=leader.hits - 1)
        events.append(LeaderHit(leader.name, leader.hits))
        if leader.hits <= 0:
            battle.update_leader(lid, eliminated=True, hits=0)
            events.append(LeaderFell(leader.name))


def settle(battle, events: list) -> None:
    """After losses: commands that lost half their units become Shaken and retreat at
    once; an army whose commands are all (or half) Shaken concedes."""
    lost = [e.uid for e in events if isinstance(e, UnitEliminated)]
    if not lost:
        return                      # only a unit removed can shake a command or an army
    h = battle.hierarchy
    gone = lambda u: battle.units[u].eliminated
    hit = {h.command_of(uid) for uid in lost if uid in battle.units}
    for side in battle.sides:
        for cid in h.commands_of(side):
            if cid not in hit or cid in battle.state.shaken or not h.losses_shake(cid, gone):
                continue
            battle.set_state(shaken=battle.state.shaken | {cid})
            events.append(CommandShaken(battle.commands[cid].name))
            edge = EDGE_DIR.get(battle.sides[side].home_edge, 6)
            for uid in h.units_of(cid):
                unit = battle.units[uid]
                if unit.eliminated or kutusov_holds(battle, unit) or unit.fixed:
                    continue
                to, _ = _step_away(battle, unit, edge, SHAKEN_RETREAT_BOXES)
                events.append(UnitRetreated(unit.name, to))
    if battle.state.over:
        return
    rule = battle.option("army_morale", "all")
    for side in battle.sides:
        # an army whose units are all gone concedes, unless reinforcements are still to come
        live = battle.live_units(side) or any(a.side == side for a in battle.pending)
        broken = h.army_broken(side, battle.state.shaken, rule)
        if broken or not live:
            reason = ("every unit is gone" if not live else
                      f"{'all' if rule == 'all' else 'half'} of its commands are Shaken")
            winner = battle.enemy_of(side)
            battle.set_state(over=True, winner=winner, reason=f"{battle.sides[side].name} "
                             f"concedes: {reason}")
            events.append(ArmyConceded(battle.sides[side].name, reason))
            return


def commands_nothing(battle, leader) -> bool:
    """The army's General under `general_commands = none`: no unit is his to rally."""
    return (battle.option("general_commands", "army") == "none"
            and battle.sides[leader.side].general == leader.id)


def rallyable(battle, leader) -> list[str]:
    """Units the leader may rally: his own, within his radius (the hierarchy answers),
    still in the battle and short of hits."""
    from .tables import LEADER
    h = battle.hierarchy
    if commands_nothing(battle, leader):
        return []
    ub = board(battle).unit_box             # live units' boxes, as box_of gives them
    units = battle.units
    # the ones short of hits first (a few), then their distance: the army's General
    # leads the whole army (the same units, in the same order, as units_within's)
    hurt = [u for u in h.units_led_by(leader.id)
            if not units[u].eliminated and units[u].hits < units[u].max_hits]
    if not hurt:
        return []
    return h.units_within(leader.id, LEADER["radius"], ub.__getitem__, box_of(battle, leader),
                          distance, hurt)


def rally_score(battle, leader, face: int) -> tuple[int, int]:
    """(modified score, hits regained) for one rally die."""
    mod = QUALITY[leader.quality][1] if leader.quality in QUALITY else 0
    if army_trait(battle, leader.side) == "napoleon" and battle.sides[leader.side].nation == "france":
        mod += 1
    score = face + mod
    regained = 0 if score < RALLY_FAIL_BELOW else (2 if score >= RALLY_TWO_AT else 1)
    return score, regained


def attempts_allowed(battle, leader) -> int:
    """Rally attempts a leader has each turn: Erzherzog Karl two, everyone else one."""
    return 2 if (army_trait(battle, leader.side) == "archduke_charles"
                 and battle.sides[leader.side].general == leader.id) else 1


def turn_mark(battle, key: str, default=None):
    return dict(battle.state.marks).get(key, default)


def seized(battle, side: str) -> bool:
    """Has the Archduke had a seizure this turn (no rallying on his side)?"""
    return turn_mark(battle, "seizure") == side


def rally_odds(battle, action):
    """Exact odds of one rally attempt: the hits regained from each face (capped at the
    unit's strength); for Erzherzog Karl a 1 is a seizure (nothing regained, and what
    his side rallied this turn is taken back)."""
    from fractions import Fraction

    from ...odds import Dist, Odds, OddsLine
    leader, unit = battle.leaders[action.leader], battle.units[action.unit]
    karl = attempts_allowed(battle, leader) == 2
    room = unit.max_hits - unit.hits
    weights = [0] * (room + 1)
    for face in range(1, 7):
        gained = 0 if (karl and face == 1) else min(room, rally_score(battle, leader, face)[1])
        weights[gained] += 1
    odds = Odds("rally", [OddsLine(f"{leader.name} rallies {unit.name}", Dist(weights, 6), unit.id)])
    odds.outcomes["nothing regained"] = Fraction(weights[0], 6)
    if karl:
        odds.outcomes["seizure: this turn's rallies taken back"] = Fraction(1, 6)
    return odds


def rally(battle, leader, unit, dice, events: list) -> None:
    """One rally attempt: a D6 plus the leader's quality. Erzherzog Karl makes two a
    turn (two Rally actions); a 1 on either is a seizure and no rallying takes place that
    turn: what his side regained this turn is taken back and no one rallies again."""
    from ...model.forces import with_marks
    karl = attempts_allowed(battle, leader) == 2
    face = dice.roll(1, f"rally: {leader.name} rallies {unit.name}").faces[0]
    key = f"rallies:{leader.id}"
    made = turn_mark(battle, key, 0) + 1
    battle.set_state(marks=with_marks(battle.state.marks, **{key: made}))
    if made >= attempts_allowed(battle, leader):
        battle.update_leader(leader.id, rallied=True)
    if karl and face == 1:
        for uid, gained in turn_mark(battle, "rally_gains", ()):
            u = battle.units[uid]
            if not u.eliminated:
                battle.update_unit(uid, hits=max(u.hits - gained, 1))
                events.append(UnitRallied(leader.name, u.name, -gained))
        for l in battle.live_leaders(leader.side):
            battle.update_leader(l.id, rallied=True)
        battle.set_state(marks=with_marks(battle.state.marks, seizure=leader.side,
                                          rally_gains=None))
        events.append(UnitRallied(leader.name, unit.name, 0))   # the Archduke's seizure
        return
    gained = min(rally_score(battle, leader, face)[1], unit.max_hits - unit.hits)
    battle.update_unit(unit.id, hits=unit.hits + gained)
    if gained:
        gains = turn_mark(battle, "rally_gains", ()) + ((unit.id, gained),)
        battle.set_state(marks=with_marks(battle.state.marks, rally_gains=gains))
    events.append(UnitRallied(leader.name, unit.name, gained))
