"""Quick-play shooting, charges, melee and morale, with their exact odds.

Shooting: once a turn, instead of moving or at the end of the turn; two ranks of formed
infantry in line, one otherwise; a die per two infantry or per gunner within 45 degrees;
5 or 6 hits; half the dice at long range; +1 to each die for sharpshooters, a regular
unit's first volley, or a target in column or taken in flank; -1 inferior; targets in
cover and skirmishers take half the hits (rounded up in partial cover, down in full).
Melee: a die per two foot or gunners, one per trooper, two ranks in line (one otherwise
or when taken in flank); 5 or 6 hits after quality, charging and obstruction. Whoever
takes more than it inflicted tests morale; so does a unit that lost a quarter to fire.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...actions import need
from ...events import HitsTaken, UnitEliminated, UnitFired, UnitRetreated, declare_event
from ...footprint import aspect, bearing, heading, inside, overlap, slide, surely_apart
from ...model.forces import mark
from ..common import own_unit
from .tables import FIRE_ARC, FIGURES_PER_DIE, HIT_ON, RANGES, ROUT_AT, STEADY_FROM
from .units import (acted, arm, cover, engaged, footprint, irregular, is_skirmish,
                    joined_commander, near, prof, quality, ranks, shot_this_turn,
                    remembered, sight_refusal, special, to_front)

MoraleTested = declare_event("MoraleTested", "{unit} tests morale: {face} {mods} = {score}: "
                             "{result}", unit=str, face=int, mods=str, score=int, result=str)
RallyMen = declare_event("RallyMen", "{leader} rallies {unit}: {outcome}", leader=str,
                         unit=str, outcome=str)
ChargeOutcome = declare_event("ChargeOutcome", "{unit} charges {target}: {outcome}",
                              unit=str, target=str, outcome=str)


# ---- shooting --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Volley:
    dice: int
    plus: int              # added to each die
    halve: str             # "" none, "up" or "down": how half the hits round
    band: str


def volley(battle, unit, target, reaction: bool = False) -> Volley:
    """The volley, or IllegalAction (remembered for this battle version: the commander's
    check, the odds it asks and the resolution ask the same)."""
    return remembered(battle, "quickplay.volley", (unit.id, target.id),
                      (unit, target), lambda: _volley(battle, unit, target))


def _volley(battle, unit, target) -> Volley:
    need(target.side != unit.side and not target.eliminated, f"{target.name} is not an enemy")
    need(arm(unit) != "cavalry", "cavalry do not shoot")
    weapon = prof(unit)["weapon"]
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    need(to_front(battle, unit, target.pos, FIRE_ARC),
         f"{target.name} is outside the 45 degrees either side of {unit.name}'s front")
    rng = fp.polygon().distance(tfp.polygon())
    close, far = RANGES[weapon]
    need(rng <= far + 1e-6, f"{target.name} is {rng:.1f} inches away; {unit.name} reaches {far}")
    why = sight_refusal(battle, unit.pos, target.pos, ignore=(unit.id, target.id))
    need(not why, f"{unit.name} cannot see {target.name}: {why}")
    dice, plus = _dice_plus(battle, unit, target, tfp, rng > close)
    c = cover(battle, target)
    halve = "down" if c == "full" else "up" if (c == "partial" or is_skirmish(target)) else ""
    return Volley(dice, plus, halve, "long" if rng > close else "close")


def _dice_plus(battle, unit, target, tfp, long_range: bool) -> tuple[int, int]:
    """A volley's dice and what is added to each die (`volley`'s terms but cover)."""
    if arm(unit) == "artillery":
        dice = unit.hits                                      # a die a gunner
    else:
        firing = min(unit.hits, math.ceil(unit.hits / ranks(unit)) *
                     (2 if unit.formation == "line" and not is_skirmish(unit) else 1))
        dice = firing // FIGURES_PER_DIE
    if long_range:
        dice = dice // 2 if battle.option("long_range_dice") == "round_down" else -(-dice // 2)
    if unit.disordered:
        dice //= 2                                            # disordered count half
    plus = 0
    if "sharpshooter" in special(unit) or unit.sharpshooters or (
            first_fire_bonus(battle, unit) and not mark(unit, "first_fired")):
        plus += 1
    if target.formation == "column" or aspect(tfp, unit.pos) != "front":
        plus += 1
    if quality(unit) < 0 or irregular(unit):
        plus -= 1
    return dice, plus


def volley_bound(battle, unit, target) -> Volley:
    """A volley no weaker than the one `volley` would allow (if it allows the shot), for
    the commander's first look, nothing measured: long range only when the bases are
    surely farther apart than close range (else close range's dice), cover taken as
    none (a skirmisher's half, rounded up, kept). More dice, or no halving, never make
    fewer hits likelier."""
    close = RANGES[prof(unit)["weapon"]][0]
    tfp = footprint(battle, target)
    far = surely_apart(footprint(battle, unit), tfp, close)
    dice, plus = _dice_plus(battle, unit, target, tfp, far)
    return Volley(dice, plus, "up" if is_skirmish(target) else "", "long" if far else "close")


def first_fire_bonus(battle, unit) -> bool:
    """"+1 ... regular 1st fire": every regular unit (not militia or irregulars: guns and
    skirmishers too), or regular foot only (option `first_fire = regular_infantry`)."""
    if quality(unit) < 0 or irregular(unit):
        return False
    if battle.option("first_fire", "regulars") == "regular_infantry":
        return arm(unit) == "infantry" and not is_skirmish(unit)
    return True


def shooter_refusal(battle, unit) -> str:
    """Why `unit` may shoot at nobody now ('' if it may): check_fire's refusals that hang
    on the shooter alone, asked once a shooter by the commander, not once a target."""
    if shot_this_turn(battle, unit):
        return f"{unit.name} has shot this turn"
    if engaged(battle, unit):
        return f"{unit.name} is in melee"
    if unit.disordered:
        return f"{unit.name} is disordered: it may only shoot as a reaction"
    if battle.state.phase == "act":
        if acted(battle, unit):
            return f"{unit.name} has already acted: it may shoot at the end of the turn"
    elif not unit.moved:
        return f"{unit.name} did not move: it could have shot instead of moving"
    return ""


def check_fire(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    why = shooter_refusal(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None, f"there is no unit {action.target!r}")
    need(not engaged(battle, target), f"{target.name} is in melee")
    volley(battle, unit, target)


def hits_from(faces, v: Volley) -> int:
    hits = sum(1 for f in faces if f + v.plus >= HIT_ON)
    if v.halve == "up":
        return -(-hits // 2)
    if v.halve == "down":
        return hits // 2
    return hits


def resolve_fire(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    if battle.state.phase == "act":
        battle.mark_unit(unit.id, acted=battle.state.turn)
    shoot(battle, unit, target, volley(battle, unit, target), dice, events)
    return events


def shoot(battle, unit, target, v: Volley, dice, events: list) -> int:
    battle.mark_unit(unit.id, shot=battle.state.turn, first_fired=True)
    faces = dice.roll(v.dice, f"{unit.name} fires at {target.name} ({v.band})").faces \
        if v.dice else ()
    hits = hits_from(faces, v)
    events.append(UnitFired(unit.name, target.name, v.dice, hits))
    take(battle, target.id, hits, events)
    t = battle.units[target.id]
    if hits and not t.eliminated:
        t = battle.mark_unit(t.id, hit_by_fire=battle.state.turn,
                             fire_losses=mark(t, "fire_losses", 0) + hits)
        start = mark(t, "turn_start", t.max_hits)
        if mark(t, "fire_losses", 0) * 4 >= start and mark(t, "tested") != battle.state.turn:
            test_morale(battle, t, unit.pos, False, dice, events)
    return hits


def take(battle, uid: str, hits: int, events: list) -> None:
    u = battle.units[uid]
    hits = min(hits, u.hits)
    if hits <= 0:
        return
    u = battle.update_unit(uid, hits=u.hits - hits)
    events.append(HitsTaken(u.name, hits, u.hits, uid))
    if u.hits == 0:
        battle.update_unit(uid, eliminated=True, marks=())
        events.append(UnitEliminated(u.name, uid))


# ---- morale ----------------------------------------------------------------------------------
def morale_mods(battle, unit) -> list:
    mods = []
    if joined_commander(battle, unit) is not None:
        mods.append(("commander joined", 1))
    if quality(unit) > 0:
        mods.append(("elite", 1))
    if quality(unit) < 0 or irregular(unit):
        mods.append(("militia or irregular", -1))
    if unit.hits * 2 < unit.max_hits:
        mods.append(("below half", -2))
    return mods


def test_morale(battle, unit, enemy_xy, lost_melee: bool, dice, events: list) -> str:
    battle.mark_unit(unit.id, tested=battle.state.turn)
    mods = morale_mods(battle, unit)
    face = dice.d6(f"morale: {unit.name}")
    score = face + sum(v for _, v in mods)
    text = " ".join(f"{'+' if v > 0 else '-'}{abs(v)} {k}" for k, v in mods) or "+0"
    if score >= STEADY_FROM:
        result = "steady"
        if lost_melee:
            way = 0.5 if battle.option("good_order_fall_back") == "half_move" else 1
            retreat(battle, unit.id, enemy_xy, way, events, at_edge="stop", dice=dice)
            result += ", falls back in good order"
        if unit.disordered:               # "if lost melee fall back ..., if disordered, rally"
            battle.update_unit(unit.id, disordered=False)
            result += ", rallies"
    elif score > ROUT_AT:
        retreat(battle, unit.id, enemy_xy, 1, events, dice=dice)
        if not battle.units[unit.id].eliminated:
            battle.update_unit(unit.id, disordered=True)
        result = "retreats a full move in disorder"
    else:
        result = "routs"
        if battle.option("rout") == "removed":
            battle.update_unit(unit.id, eliminated=True, marks=())
            events.append(UnitEliminated(f"{unit.name} (routed)", unit.id))
        else:
            retreat(battle, unit.id, enemy_xy, 2, events, face_enemy=False, dice=dice)
            if not battle.units[unit.id].eliminated:
                battle.update_unit(unit.id, disordered=True)
    events.append(MoraleTested(unit.name, face, text, score, result))
    return result


def retreat(battle, uid: str, away_xy, moves: float, events: list, face_enemy=True,
            at_edge: str = "lost", dice=None) -> None:
    """`moves` full moves straight away, stopping short of bases: the move's average, or
    rolled as any move (option `retreat_move = rolled`, when the dice are at hand); a
    retreat that would leave the table loses the unit, a fall back in good order
    (`at_edge = stop`) stops at the edge."""
    from .moves import MOVE_DICE, move_class
    unit = battle.units[uid]
    fixed, n = MOVE_DICE[move_class(unit)]
    if dice is not None and battle.option("retreat_move", "average") == "rolled":
        rolls = max(1, math.ceil(moves))           # a roll for each whole move
        faces = [f for _ in range(rolls) for f in dice.roll(n, f"retreat: {unit.name}").faces]
        inches = (fixed * rolls + sum(faces)) * moves / rolls
    else:
        inches = (fixed + 3.5 * n) * moves
    inches *= 2 if move_class(unit) == "cavalry" else 1
    way = bearing(away_xy, unit.pos) if tuple(away_xy) != unit.pos else (unit.facing + 180) % 360
    hx, hy = heading(way)
    facing = round((way + 180) % 360) if face_enemy else round(way) % 360
    others = _beside(battle, unit, hx, hy, inches,
                     [o for o in near(battle, unit.pos, inches + 12) if o.id != uid])
    bf = battle.battlefield

    def stop(fp) -> str:
        if at_edge == "stop" and not inside(fp, bf.width, bf.height):
            return "edge"                     # in good order: it halts at the table edge
        if not (0 <= fp.x <= bf.width and 0 <= fp.y <= bf.height):
            return "off"
        return "blocked" if any(overlap(fp, footprint(battle, o)) for o in others) else ""

    done, why = slide(footprint(battle, unit, facing=facing), way, inches, stop)
    if why == "off" and at_edge == "lost":
        battle.update_unit(uid, eliminated=True, marks=())
        events.append(UnitEliminated(f"{unit.name} (left the table)", uid))
        return
    if done == 0 and any(overlap(footprint(battle, unit, facing=facing), footprint(battle, o))
                         for o in others):
        facing = unit.facing
    x, y = unit.x + hx * done, unit.y + hy * done
    moved_with(battle, unit, x, y)
    battle.update_unit(uid, x=x, y=y, facing=facing % 360, fell_back=True)
    events.append(UnitRetreated(unit.name, (round(x, 1), round(y, 1))))


def _beside(battle, unit, hx, hy, inches: float, others: list) -> list:
    """Those of `others` whose base could overlap the unit's somewhere on its way
    (`inches` along the unit vector hx, hy): overlap's own first look, a base is
    within half its diagonal of its centre, asked once of the whole way rather than at
    every half inch of it."""
    fp = footprint(battle, unit)
    mine = math.hypot(fp.frontage, fp.depth) / 2 + 1e-3
    out = []
    for o in others:
        ofp = footprint(battle, o)
        px, py = o.x - unit.x, o.y - unit.y
        s = max(0.0, min(inches, px * hx + py * hy))
        if math.hypot(px - s * hx, py - s * hy) <= mine + math.hypot(ofp.frontage, ofp.depth) / 2:
            out.append(o)
    return out


def moved_with(battle, unit, x: float, y: float) -> None:
    """A joined commander goes where his unit goes."""
    c = joined_commander(battle, unit)
    if c is not None:
        battle.update_leader(c.id, x=c.x + x - unit.x, y=c.y + y - unit.y)
