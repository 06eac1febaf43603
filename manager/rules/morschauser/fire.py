"""Missile fire: who may shoot at whom, how many dice, what hits, and the exact odds.

One function, `fire_spec`, reads the situation into dice and scores; the resolver
rolls them and the odds convolve them, so what the umpire is shown is what is rolled.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...actions import need
from ...errors import IllegalAction
from ...events import UnitFired
from ...grid import in_front_arc, line_offsets
from ...odds import Dist, Odds, OddsLine
from .board import (army_trait, board, bombarding, box_of, distance, facing_dir, in_stream,
                    profile)
from .morale import fall_back, fall_back_penalty, kutusov_holds, leader_checks, settle, take_hits
from .moves import own_unit
from .movement import is_shaken
from .tables import FIRE_HITS_FOR_FALL_BACK, FOOT_GUNS, GRAPE_RANGE, GRAPE_TO_HIT, LEADER_HIT_FACES



@dataclass
class FireSpec:
    dice: int
    to_hit: int                 # lowest modified score that hits
    modifier: int               # added to every die
    double_at: int | None       # a modified score this high scores two hits
    range: float
    notes: list[str] = field(default_factory=list)

    def hits_for(self, face: int) -> int:
        score = face + self.modifier
        if score < self.to_hit:
            return 0
        return 2 if self.double_at is not None and score >= self.double_at else 1

    def die(self) -> Dist:
        return Dist.die([self.hits_for(f) for f in range(1, 7)])


def max_range(battle, unit) -> int:
    prof = profile(unit)
    if unit.kind == "rifles" and not battle.option("rifles"):
        return 4
    return prof["range"] or 0


def blocked(battle, a, b) -> str:
    """Why the line of sight from box a to box b is blocked ('' when clear); cached until
    the battle changes, so checking the shot the commander chose costs nothing more."""
    return battle.cached(("morschauser.los", a, b), lambda: _blocked(battle, a, b))


def _blocked(battle, a, b) -> str:
    return sight(battle)(a, b)


def sight(battle, why: bool = True):
    """see(a, b) for many lines at this battle version: why the line of sight from box a
    to box b is blocked ('' when clear), or with why=False only whether it is. The
    option, the board and the ground are looked up once (the commander asks of every
    target it weighs)."""
    mode = battle.option("line_of_sight", "units_and_terrain")
    if mode == "none":
        return lambda a, b: "" if why else False
    brd = board(battle)
    terrain = brd.terrain
    units = brd.box_unit if mode == "units_and_terrain" else None
    records = battle.units

    def see(a, b):
        may_hide, terrain_why = _sight_plan(terrain, a, b)
        if units is not None:
            for box in may_hide:
                if box in units:            # troops on the line, unless shot over from a hill
                    return f"{records[units[box]].name} is in the way" if why else True
        return terrain_why if why else terrain_why != ""
    return see


def _sight_plan(terrain, a, b) -> tuple[tuple, str]:
    """The line from a to b as the ground alone sets it: (the boxes where a unit would
    block, in order, up to the first box the ground blocks; why the ground blocks, or '').
    The ground never changes within a battlefield, so this is kept per terrain index and
    the units on the line are read afresh on every question."""
    memo = _SIGHT_PLANS.get(id(terrain))
    if memo is None or memo[0] is not terrain:
        if len(_SIGHT_PLANS) > 8:
            _SIGHT_PLANS.clear()
        memo = _SIGHT_PLANS[id(terrain)] = (terrain, plans_for_ground(terrain))
    plan = memo[1].get((a, b))
    if plan is None:
        heights, screens = terrain.heights, terrain.screens
        top = max(heights.get(a, 0), heights.get(b, 0))
        may_hide, why = [], ""
        ax, ay = a
        for ox, oy in line_offsets(b[0] - ax, b[1] - ay):     # line_boxes(a, b), unbuilt
            box = (ax + ox, ay + oy)
            h = heights.get(box, 0)
            if h > top:
                why = f"higher ground at {box}"
                break
            if box in screens:
                why = f"{screens[box]} at {box}"
                break
            if not top > h:
                may_hide.append(box)
        plan = memo[1][(a, b)] = (tuple(may_hide), why)
    return plan


_SIGHT_PLANS: dict[int, tuple] = {}        # id(terrain index) -> (it, {(a, b): plan})


def plans_for_ground(terrain) -> dict:
    """The plans store for this ground, by content: a plan reads only the heights and the
    screens, so every battle over the same ground (the battles of a balance run, an undo
    that rebuilds the battlefield) shares one store, warm after the first."""
    key = (frozenset(terrain.heights.items()), frozenset(terrain.screens.items()))
    plans = _PLANS_BY_GROUND.get(key)
    if plans is None:
        if len(_PLANS_BY_GROUND) > 8:
            _PLANS_BY_GROUND.clear()
        plans = _PLANS_BY_GROUND[key] = {}
    return plans


_PLANS_BY_GROUND: dict[tuple, dict] = {}   # (heights, screens) -> {(a, b): plan}


def fire_spec(battle, unit, target) -> FireSpec:
    """The volley as the map sets it up: range and cover read off the boxes. Kept until
    the battle changes (the commander weighs it, the check and the resolver ask again);
    callers only read it."""
    return battle.cached(("morschauser.fire_spec", unit.id, target.id),
                         lambda: _fire_spec(battle, unit, target))


def _fire_spec(battle, unit, target) -> FireSpec:
    a, b = box_of(battle, unit), box_of(battle, target)
    cover = []
    terrain = board(battle).terrain
    tt = terrain.at(b)
    if "woods" in tt.kinds:
        cover.append("woods")
    if "town" in tt.kinds:
        cover.append("buildings")
    if _wall_between(terrain, a, b):
        cover.append("behind a wall")
    return spec_for(battle, unit, target, distance(a, b), cover)


def _wall_between(terrain, a, b) -> bool:
    """terrain.wall_between, kept by the walls' content and the box size (the answer reads
    nothing else), so the battles over the same ground share it warm."""
    if not terrain.walls:
        return False
    memo = _WALLS.get(id(terrain))
    if memo is None or memo[0] is not terrain:
        if len(_WALLS) > 8:
            _WALLS.clear()
        key = (terrain.grid.size, tuple(w.wkb for w in terrain.walls))
        store = _WALLS_BY_GROUND.get(key)
        if store is None:
            if len(_WALLS_BY_GROUND) > 8:
                _WALLS_BY_GROUND.clear()
            store = _WALLS_BY_GROUND[key] = {}
        memo = _WALLS[id(terrain)] = (terrain, store, [w.bounds for w in terrain.walls])
    hit = memo[1].get((a, b))
    if hit is None:
        hit = memo[1][(a, b)] = (_wall_may_cross(memo[2], terrain.grid.size, a, b)
                                 and terrain.wall_between(a, b))
    return hit


def _wall_may_cross(bounds, size: float, a, b) -> bool:
    """False when no wall can count (shapely not asked): a wall counts where it crosses
    the line within 1.01 boxes of b's centre, so its bounding box must meet both the
    line's and the square about b that holds that circle (1.02: room for rounding)."""
    ax, ay, bx, by = (a[0] + .5) * size, (a[1] + .5) * size, (b[0] + .5) * size, (b[1] + .5) * size
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    r = 1.02 * size
    lo_x, lo_y = max(lo_x, bx - r), max(lo_y, by - r)
    hi_x, hi_y = min(hi_x, bx + r), min(hi_y, by + r)
    return any(x0 <= hi_x and lo_x <= x1 and y0 <= hi_y and lo_y <= y1
               for x0, y0, x1, y1 in bounds)


_WALLS: dict[int, tuple] = {}              # id(terrain index) -> (it, its ground's store, walls' bounds)
_WALLS_BY_GROUND: dict[tuple, dict] = {}   # (box size, walls) -> {(a, b): crossed}


def spec_for(battle, unit, target, rng: float, cover: list[str]) -> FireSpec:
    """The volley for a given range (boxes) and the target's cover: the map's and the
    table-side umpire's shared arithmetic."""
    prof = profile(unit)
    reach = max_range(battle, unit)
    notes = []
    artillery = prof.arm == "artillery"
    to_hit = prof["to_hit"]
    if artillery and rng <= GRAPE_RANGE:
        to_hit = GRAPE_TO_HIT
        notes.append("grape")
    elif artillery:
        notes.append("shot")
    if unit.sharpshooters and battle.option("sharpshooters"):
        to_hit = min(to_hit, 4)
        notes.append("sharpshooters hit on 4+")
    dice = prof["fire_dice"]
    if 2 * unit.hits <= unit.max_hits:
        dice -= 1
        notes.append("-1 die: lost half its hits")
    if not artillery and rng > reach / 2:
        dice -= 1
        notes.append("-1 die: long range")
    if battle.option("formations") and target.formation in ("column", "square"):
        dice += 1
        notes.append(f"+1 die: target in {target.formation}")
    if (army_trait(battle, unit.side) == "wellington" and unit.kind == "line_infantry"
            and unit.nation == "britain" and rng <= reach / 2):
        dice += 1
        notes.append("+1 die: British line at close range")
    modifier = 0
    if cover:
        modifier -= len(cover) if battle.option("terrain_penalties_stack") else 1
        notes.append(f"-1: target in {', '.join(cover)}")
    if is_shaken(battle, unit):
        modifier -= 1
        notes.append("-1: command Shaken")
    double_at = None
    if artillery and unit.guard:
        modifier += 1
        notes.append("+1: Guard artillery")
        if rng <= GRAPE_RANGE:
            double_at = 7
    return FireSpec(max(dice, 0), to_hit, modifier, double_at, rng, notes)


def check_fire_unit(battle, unit) -> None:
    """May this unit shoot at all now (whatever the target)?"""
    prof = profile(unit)
    if prof["fire_dice"] <= 0:
        raise IllegalAction(f"{unit.name} ({prof.label}) does not shoot: no fire dice")
    if unit.fired:
        raise IllegalAction(f"{unit.name} has already fired this turn")
    if unit.kind in FOOT_GUNS and unit.moved == 2:
        raise IllegalAction(f"{unit.name} is foot artillery and moved this turn: it may not fire")
    t = board(battle).terrain.at(box_of(battle, unit))
    if in_stream(t):
        raise IllegalAction(f"{unit.name} stands in a stream or ford and may not shoot")


def check_fire(battle, action) -> None:
    need(action.unit not in battle.leaders, "leaders can't shoot (they fight in melees)")
    unit = own_unit(battle, action.unit)
    check_fire_unit(battle, unit)
    here = box_of(battle, unit)
    if action.target not in battle.units:
        raise IllegalAction(f"there is no unit {action.target!r}")
    target = battle.units[action.target]
    if target.eliminated:
        raise IllegalAction(f"{target.name} has been eliminated")
    if target.side == unit.side:
        raise IllegalAction(f"{target.name} is on {unit.name}'s own side")
    there = box_of(battle, target)
    rng = distance(here, there)
    if rng > max_range(battle, unit):
        raise IllegalAction(f"{target.name} is {rng:g} boxes away, beyond "
                            f"{unit.name}'s range of {max_range(battle, unit)}")
    if not in_front_arc(here, facing_dir(unit), there, battle.option("fire_arc", 45)):
        raise IllegalAction(f"{target.name} is outside {unit.name}'s arc of fire")
    why = blocked(battle, here, there)
    if why:
        raise IllegalAction(f"no line of sight from {unit.name} to {target.name}: {why}")
    if fire_spec(battle, unit, target).dice <= 0:
        raise IllegalAction(f"{unit.name} has no dice left to roll at that range")
    if bombarding(battle):
        if not (profile(unit).arm == "artillery" and rng > GRAPE_RANGE):
            raise IllegalAction(f"turn {battle.state.turn} is the opening bombardment: only "
                                f"artillery fires, beyond {GRAPE_RANGE} boxes")


def resolve_fire(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    spec = fire_spec(battle, unit, target)
    roll = dice.roll(spec.dice, f"fire: {unit.name} at {target.name}")
    hits = sum(spec.hits_for(f) for f in roll.faces)
    battle.update_unit(unit.id, fired=True)
    events = [UnitFired(unit.name, target.name, spec.dice, hits)]
    there = box_of(battle, target)
    leader_checks(battle, there, dice, events, f"{target.name} shot at")
    if take_hits(battle, target.id, hits, events):
        settle(battle, events)
        return events
    target = battle.units[target.id]
    if hits:
        target = battle.update_unit(target.id, fire_hits=target.fire_hits + hits)
    if (target.fire_hits >= FIRE_HITS_FOR_FALL_BACK and not target.fell_back
            and not kutusov_holds(battle, target)):
        fall_back(battle, target.id, [box_of(battle, unit)], events, "fire")
    settle(battle, events)
    return events


def fire_odds(battle, action) -> Odds:
    check_fire(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    leaders = board(battle).box_leaders.get(box_of(battle, target), ())
    penalty = fall_back_penalty(battle, target, [box_of(battle, unit)])
    return volley_odds(battle, unit, target, fire_spec(battle, unit, target), leaders, penalty)


def leader_hit_chance() -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b in LEADER_HIT_FACES), 36)


def volley_odds(battle, unit, target, spec: FireSpec, leaders, penalty: int = 0) -> Odds:
    """Hits, elimination, falling back and each leader's hit: the map's and the table's.
    `penalty`: hits a fall back would cost (a blocked one, option `blocked_fall_back`),
    counted in the elimination chance."""
    dist = spec.die().times(spec.dice)
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name}", dist, target.id)],
                notes=[f"{spec.dice} dice, hit on {spec.to_hit - spec.modifier}+"
                       f" ({', '.join(spec.notes) or 'no modifiers'})"])
    eliminated = dist.p_at_least(target.hits)
    if not target.fell_back and not kutusov_holds(battle, target):
        need_hits = max(FIRE_HITS_FOR_FALL_BACK - target.fire_hits, 1)
        survive = max(target.hits - penalty, need_hits)
        fb = sum((dist.p(k) for k in range(need_hits, survive)), Fraction(0))
        eliminated += sum((dist.p(k) for k in range(survive, target.hits)), Fraction(0))
        odds.outcomes[f"{target.name} eliminated"] = eliminated
        odds.outcomes[f"{target.name} falls back"] = fb
        if penalty:
            odds.notes.append(f"a fall back is blocked: {penalty} hit(s) more")
    else:
        odds.outcomes[f"{target.name} eliminated"] = eliminated
    for lid in leaders:
        odds.outcomes[f"{battle.leaders[lid].name} hit"] = leader_hit_chance()
    return odds
