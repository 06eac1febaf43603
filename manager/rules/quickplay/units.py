"""What the quick-play rules read off a unit and the table.

Marks: `acted` (the turn it used its activation), `shot` (the turn it fired), `first_fired`
(it has fired once this battle), `charging` (target), `pinned` (turn), `lost_at_start`
(figures as the turn began, for the 25% test), `bonus` (Follow me!'s extra inches),
`recovering` (a disordered unit that spent a move halted).
"""
from __future__ import annotations

import math
from functools import lru_cache

from shapely.geometry import Point

from ... import spatial
from ...errors import IllegalAction
from ...footprint import Footprint, angle_between, bearing, box, distance, segment
from ...ground_memo import known, on_ground
from ...model.forces import mark
from ...table_terrain import table_terrain
from .tables import BASE, COMMAND_RANGE, FIGURES_PER_DIE, PROFILES, RANKS, VISIBILITY_IN_WOODS


def prof(unit):
    return PROFILES[unit.kind]


def arm(unit) -> str:
    return PROFILES[unit.kind].arm


def special(unit) -> tuple:
    return PROFILES[unit.kind]["special"]


def is_skirmish(unit) -> bool:
    return "skirmish" in special(unit)


def quality(unit) -> int:
    """+1 elite, 0 regular, -1 militia; scenario traits veteran / conscript override."""
    if "veteran" in unit.traits:
        return 1
    if "conscript" in unit.traits:
        return -1
    return PROFILES[unit.kind]["quality"]


def irregular(unit) -> bool:
    return PROFILES[unit.kind]["move"] == "irregular" and not is_skirmish(unit)


def ranks(unit) -> int:
    if is_skirmish(unit):
        return 1
    return RANKS.get(unit.formation, 2)


def files(unit, figures=None) -> int:
    f = unit.hits if figures is None else figures
    return math.ceil(f / ranks(unit)) if f > 0 else 0


def footprint(battle, unit, x=None, y=None, facing=None, formation=None) -> Footprint:
    if x is None and y is None and facing is None and formation is None:   # once a version
        return spatial.own_base(battle, "quickplay.footprints", unit,
                                _footprint, battle, unit, None, None, None, None)
    return _footprint(battle, unit, x, y, facing, formation)


def _footprint(battle, unit, x, y, facing, formation) -> Footprint:
    front, depth = _size(unit.kind, formation or unit.formation, unit.max_hits,
                         float(battle.option("base_scale", 1.0) or 1.0))
    return Footprint(unit.x if x is None else x, unit.y if y is None else y,
                     unit.facing if facing is None else facing, front, depth)


_SIZES: dict = {}


def _size(kind: str, form: str, figures: int, k: float) -> tuple[float, float]:
    """(frontage, depth) of a base: it hangs on these four alone, so each is worked out
    once (the rules ask for bases at trial spots tens of thousands of times a battle)."""
    key = (kind, form, figures, k)
    hit = _SIZES.get(key)
    if hit is None:
        a = PROFILES[kind].arm
        w, d = BASE[a]
        if a == "artillery":
            front, depth = w, d
        else:
            skirmish = "skirmish" in PROFILES[kind]["special"]
            deep = 1 if skirmish else RANKS.get(form, 2)
            wide = math.ceil(figures / deep)
            spread = 2.0 if skirmish else 1.0           # skirmishers stand open
            front, depth = wide * w * spread, deep * d
        hit = _SIZES[key] = (front * k, depth * k)
    return hit


def to_front(battle, unit, xy, half: float) -> bool:
    """Is xy within `half` degrees either side of the unit's facing, seen from the middle
    of its front edge? (The arc a volley and a charge need: the rules and the
    commander's first look ask this one function.)"""
    return angle_between(bearing(footprint(battle, unit).front_centre(), xy),
                         unit.facing) <= half + 1e-6


def near(battle, xy, reach: float, side: str | None = None) -> list:
    """Live units whose centre is within `reach` (the spatial index; live_units order)."""
    return spatial.near_units(battle, xy, reach, side)


def remembered(battle, name: str, key, pieces: tuple, compute):
    """`compute()`, or the IllegalAction it raises, remembered for this battle version and
    these very unit records (`spatial.memo`): the commander's check, the odds it then
    asks and the check within them ask the same question of the same battle."""
    out = spatial.memo(battle, name, key, pieces, lambda: _outcome(compute))
    if type(out) is _Refused:
        raise IllegalAction(out.reason)
    return out


class _Refused:
    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def _outcome(compute):
    try:
        return compute()
    except IllegalAction as e:
        return _Refused(str(e))


def acted(battle, unit) -> bool:
    return mark(unit, "acted") == battle.state.turn


def shot_this_turn(battle, unit) -> bool:
    return mark(unit, "shot") == battle.state.turn


def pinned(battle, unit) -> bool:
    return mark(unit, "pinned") == battle.state.turn


def engaged(battle, unit) -> bool:
    """Charging, or charged by a live enemy (the chargers kept in the base table)."""
    return bool(mark(unit, "charging")) or \
        unit.id in _bases.charged(battle, battle.enemy_of(unit.side))


def joined_commander(battle, unit):
    """A commander standing on the unit's base (joined to it), or None."""
    fp = footprint(battle, unit)
    # the widened base lies within its half diagonal and a quarter inch of the centre:
    # a commander farther off is not on it (no shape built for him)
    reach = math.hypot(fp.frontage, fp.depth) / 2 + 0.25 + 1e-6
    for l in battle.live_leaders(unit.side):
        if distance(l.pos, unit.pos) <= reach and _widened(fp, 0.25).contains(Point(l.x, l.y)):
            return l
    return None


@lru_cache(maxsize=4096)
def _widened(fp: Footprint, inches: float):
    """The base widened by some inches (built once a base: asked at every move)."""
    return fp.polygon().buffer(inches)


# ---- sight and cover -----------------------------------------------------------------------
def surely_hidden(battle, unit, targets) -> list:
    """For each target: does `sight_refusal(unit.pos, target.pos, ignore=(unit, target))`
    surely name a base in the way (so `volley`, and check_fire, refuse the shot)? One
    numpy pass per shooter over the base table (`hidden_lines.surely_hidden`). False: "maybe
    not"."""
    return _hidden.surely_hidden(battle, unit, targets)


def sight_refusal(battle, a_xy, b_xy, ignore=()) -> str:
    """Centre to centre: no other base across the line, no more than 3 inches of woods
    (or town) along it, no hill higher than both ends."""
    if len(ignore) == 2 and (tuple(a_xy), tuple(b_xy), *ignore) in _hidden.clear_lines(battle):
        return terrain_sight(battle, a_xy, b_xy)  # surely no base across (`surely_hidden`)
    line = segment(a_xy, b_xy)
    for o in _bases.near_line(battle, a_xy, b_xy, line.length + 8):   # those that could cross
        if o.id in ignore:
            continue
        if footprint(battle, o).polygon().intersects(line):
            return f"{o.name} is in the way"
    return terrain_sight(battle, a_xy, b_xy, line)


def terrain_sight(battle, a_xy, b_xy, line=None) -> str:
    """sight_refusal's terrain part (woods, towns, hills): it hangs on the table, the
    option and the ends only, so it is remembered (the same lines are asked again
    after other units moved)."""
    key = (tuple(a_xy), tuple(b_xy), battle.option("woods_visibility", "through"))
    return on_ground(battle.battlefield, "quickplay.terrain_sight", key, lambda: _terrain_sight(
        battle, a_xy, b_xy, segment(a_xy, b_xy) if line is None else line))


def known_terrain_sight(battle, a_xy, b_xy):
    """`terrain_sight`'s remembered answer for the line, or None when it has not been
    measured on this table: a look that builds nothing (the commander passes over an
    order whose line woods or towns are known to block: the rules refuse it)."""
    key = (tuple(a_xy), tuple(b_xy), battle.option("woods_visibility", "through"))
    return known(battle.battlefield, "quickplay.terrain_sight", key)


def _terrain_sight(battle, a_xy, b_xy, line, boxes_first: bool = True) -> str:
    box_of, clear = _ground.box_of, _ground.clear
    t = table_terrain(battle.battlefield)
    # a line (and its ends) in a box clear of woods and towns has none of them along it
    wooded = not boxes_first or not clear(battle.battlefield, box_of((a_xy, b_xy)),
                                          ("woods", "town"))
    inside = t.length_inside(line, ("woods", "town")) if wooded else 0.0
    if inside > VISIBILITY_IN_WOODS + 1e-6:
        return f"{inside:.1f} inches of woods or buildings (sight is 3 inches in them)"
    if wooded and battle.option("woods_visibility", "through") == "within" and \
            line.length > VISIBILITY_IN_WOODS + 1e-6 and \
            any(t.kinds_at_point(p) & {"woods", "town"} for p in (a_xy, b_xy)):
        return (f"{line.length:.1f} inches apart, one of them in woods or buildings "
                f"(sight is 3 inches in them)")
    blocked = t.sight_blocked(a_xy, b_xy, screens=(), skip=0.0)
    return f"{blocked} blocks the view" if blocked else ""


def cover(battle, unit) -> str:
    """'full' in a town, 'partial' in woods or behind a wall or hedge, '' in the open.
    It hangs on the base and the table alone: remembered by the base."""
    fp = footprint(battle, unit)
    return on_ground(battle.battlefield, "quickplay.cover", fp,
                     lambda: _cover(battle, unit, fp))


def _cover(battle, unit, fp, boxes_first: bool = True) -> str:
    clear = _ground.clear
    x0, y0, x1, y1 = box(fp)
    # a base whose box meets no town or wood, and whose box widened by the inch a wall
    # is looked for meets no wall's, stands in the open (its shapes lie in those boxes)
    if boxes_first and clear(battle.battlefield, (x0, y0, x1, y1), ("town", "woods")) and \
            clear(battle.battlefield, (x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0), (), ("wall",)):
        return ""
    t = table_terrain(battle.battlefield)
    poly = fp.polygon()
    if t.covered(poly, ("town",)) >= 0.5:
        return "full"
    if t.covered(poly, ("woods",)) >= 0.5 or any(
            _widened(fp, 1.0).intersects(w)
            for _, w in t.lines.get("wall", [])):
        return "partial"
    return ""


def in_command(battle, unit) -> bool:
    """Within 12 inches and in sight of its command's leader (or the army's general)."""
    h = battle.hierarchy
    lid = h.leader_of_command(h.command_of(unit.id)) or h.general_of(unit.side)
    leader = battle.leaders.get(lid) if lid else None
    if leader is None or leader.eliminated:
        return False
    if distance(leader.pos, unit.pos) > COMMAND_RANGE:
        return False
    return not sight_refusal(battle, leader.pos, unit.pos, ignore=(unit.id,))


def dice_for_figures(unit, figures: int) -> int:
    if arm(unit) == "artillery":
        return figures                       # a die a gunner
    if arm(unit) == "cavalry":
        return figures                       # melee: a die a trooper
    return math.ceil(figures / FIGURES_PER_DIE)


# the base table, its lines and the ground's boxes import this module at their top: bound
# last, once this module's names are all defined (an import in a function costs a look-up
# a call)
from . import bases as _bases, clear_ground as _ground, hidden_lines as _hidden  # noqa: E402
