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
    """Move up to `boxes` in a direction (or its two neighbours); returns (box, boxes short)."""
    here = box_of(battle, unit)
    for done in range(boxes):
        b = board(battle)
        for d in (direction, (direction + 1) % 8, (direction - 1) % 8):
            nb = step(here, d)
            if _free_for(battle, unit, nb, b):
                here = nb
                x, y = b.centre(nb)
                carry = [l for l in b.leaders_at(box_of(battle, unit), unit.side)]
                battle.update_unit(unit.id, x=x, y=y)
                for l in carry:         # a leader with the unit goes with it
                    battle.update_leader(l, x=x, y=y)
                unit = battle.units[unit.id]
                break
        else:
            return here, boxes - done
    return here, 0


def fall_back(battle, uid: str, enemy_boxes: list[Box], events: list, why: str) -> None:
    """Fall back 2 boxes, away from the enemy, ending facing it."""
    unit = battle.units[uid]
    if unit.eliminated:
        return
    here = box_of(battle, unit)
    ex = sum(b[0] for b in enemy_boxes) / len(enemy_boxes)
    ey = sum(b[1] for b in enemy_boxes) / len(enemy_boxes)
    toward = direction_to(here, (round(ex), round(ey)))
    to, short = _step_away(battle, unit, (toward + 4) % 8, FALL_BACK_BOXES)
    toward = direction_to(to, (round(ex), round(ey)))
    battle.update_unit(uid, facing=toward * 45, fell_back=True)
    events.append(UnitFellBack(unit.name, to, short))
    if short and battle.option("blocked_fall_back") == "hit_per_box":
        take_hits(battle, uid, short, events)


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
        live = battle.live_units(side)
        broken = h.army_broken(side, battle.state.shaken, rule)
        if broken or not live:
            reason = ("every unit is gone" if not live else
                      f"{'all' if rule == 'all' else 'half'} of its commands are Shaken")
            winner = battle.enemy_of(side)
            battle.set_state(over=True, winner=winner, reason=f"{battle.sides[side].name} "
                             f"concedes: {reason}")
            events.append(ArmyConceded(battle.sides[side].name, reason))
            return


def rallyable(battle, leader) -> list[str]:
    """Units the leader may rally: his own, within his radius (the hierarchy answers),
    still in the battle and short of hits."""
    from .tables import LEADER
    h = battle.hierarchy
    near = h.units_within(leader.id, LEADER["radius"], lambda u: box_of(battle, battle.units[u]),
                          box_of(battle, leader), distance)
    return [u for u in near if not battle.units[u].eliminated
            and battle.units[u].hits < battle.units[u].max_hits]


def rally_score(battle, leader, face: int) -> tuple[int, int]:
    """(modified score, hits regained) for one rally die."""
    mod = QUALITY[leader.quality][1] if leader.quality in QUALITY else 0
    if army_trait(battle, leader.side) == "napoleon" and battle.sides[leader.side].nation == "france":
        mod += 1
    score = face + mod
    regained = 0 if score < RALLY_FAIL_BELOW else (2 if score >= RALLY_TWO_AT else 1)
    return score, regained


def rally(battle, leader, unit, dice, events: list) -> None:
    attempts = 2 if (army_trait(battle, leader.side) == "archduke_charles"
                     and battle.sides[leader.side].general == leader.id) else 1
    roll = dice.roll(attempts, f"rally: {leader.name} rallies {unit.name}")
    battle.update_leader(leader.id, rallied=True)
    if attempts == 2 and 1 in roll.faces:
        events.append(UnitRallied(leader.name, unit.name, 0))   # the Archduke's seizure
        return
    gained = sum(rally_score(battle, leader, f)[1] for f in roll.faces)
    gained = min(gained, unit.max_hits - unit.hits)
    battle.update_unit(unit.id, hits=unit.hits + gained)
    events.append(UnitRallied(leader.name, unit.name, gained))
