"""Harman's gridded table: who stands in which square, terrain by square, sight, reach.

Squares are the battlefield's grid boxes; a unit stands at its square's centre (generals
may share a square with a unit). Terrain is read with the shared per-box index.
"""
from __future__ import annotations

from ...geometry import terrain_index
from ...grid import line_boxes
from ...model.forces import mark
from .tables import PROFILES

ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAG = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def utype(unit) -> str:
    return PROFILES[unit.kind]["type"]


def box(battle, piece) -> tuple[int, int]:
    g = battle.battlefield.grid
    return int(piece.x // g), int(piece.y // g)


def centre(battle, b) -> tuple[float, float]:
    g = battle.battlefield.grid
    return ((b[0] + 0.5) * g, (b[1] + 0.5) * g)


def occupants(battle) -> dict:
    """{square: unit} for the live units."""
    return battle.cached("harman.occupants", lambda: {box(battle, u): u
                                                      for u in battle.live_units()})


def kinds(battle, b) -> frozenset:
    return terrain_index(battle.battlefield).at(b).kinds


def level(battle, b) -> int:
    return terrain_index(battle.battlefield).at(b).elevation


def on_table(battle, b) -> bool:
    return terrain_index(battle.battlefield).grid.contains(b)


def squares(a, b) -> int:
    """Squares between centres, counted as the king moves."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def ortho_adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def enemies_adjacent(battle, unit) -> list:
    here = box(battle, unit)
    occ = occupants(battle)
    return [occ[(here[0] + dx, here[1] + dy)] for dx, dy in ORTHO
            if (here[0] + dx, here[1] + dy) in occ
            and occ[(here[0] + dx, here[1] + dy)].side != unit.side]


def wall_across(battle, a, b) -> bool:
    return terrain_index(battle.battlefield).wall_between(a, b)


def generals_with(battle, unit) -> list:
    here = box(battle, unit)
    return [l for l in battle.live_leaders(unit.side) if box(battle, l) == here]


def quality_dice(battle, unit) -> int:
    """Tactical Dice by quality (scenario traits veteran and conscript override); one
    less once it has lost over (half) its Combat Value."""
    if "veteran" in unit.traits:
        n = 4
    elif "conscript" in unit.traits:
        n = 2
    else:
        n = PROFILES[unit.kind]["dice"]
    return n - (1 if weakened(battle, unit) else 0)


def quality(unit) -> int:
    """Troop quality for Flags: the unit's full number of Tactical Dice."""
    if "veteran" in unit.traits:
        return 4
    if "conscript" in unit.traits:
        return 2
    return PROFILES[unit.kind]["dice"]


def weakened(battle, unit) -> bool:
    if battle.option("weakened_at") == "never":
        return False
    return (unit.max_hits - unit.hits) * 2 > unit.max_hits


def spent(unit) -> bool:
    """Lost all its Combat Value: any further hit or Flag routs it. (A unit that halts and
    retires on Flags is not spent: it keeps its CV and a General may rally it.)"""
    return unit.hits <= 0


def retiring(unit) -> bool:
    """Falling back a square each move: spent, or Flags equal to its quality."""
    return unit.hits <= 0 or bool(mark(unit, "retiring"))


def sight_refusal(battle, shooter, target) -> str:
    """Forests, hills and built-up areas block sight; tall crops block foot and guns (not
    horse or generals); formed units between block (a skirmish line does not: it screens
    from musketry instead), except that guns on a hill fire over friends on lower ground."""
    a, b = box(battle, shooter), box(battle, target)
    if _high_wall_between(battle, a, b):
        return "a high wall blocks the view"
    occ = occupants(battle)
    gun_on_hill = utype(shooter).endswith("artillery") and level(battle, a) > 0
    for sq in line_boxes(a, b):
        k = kinds(battle, sq)
        if "woods" in k:
            return "a forest blocks the view"
        if "town" in k:
            return "buildings block the view"
        if "hill" in k and level(battle, sq) > max(level(battle, a), level(battle, b)):
            return "a hill blocks the view"
        if "fields" in k and utype(shooter) != "cavalry":
            return "tall crops block the view"
        o = occ.get(sq)
        if o is not None and utype(o) != "skirmishers" and not (
                gun_on_hill and o.side == shooter.side and level(battle, sq) < level(battle, a)):
            return f"{o.name} is in the way"          # single skirmish figures hide no one
    return ""


def _high_wall_between(battle, a, b) -> bool:
    """Estate walls (terrain `wall` with variant `high`) block sight; fences and low walls
    do not."""
    from shapely.geometry import LineString
    from ...geometry import feature_geometry
    walls = [f for f in battle.battlefield.features if f.kind == "wall" and f.variant == "high"]
    if not walls:
        return False
    sight = LineString([centre(battle, a), centre(battle, b)])
    return any(sight.intersects(feature_geometry(f)) for f in walls)


def screened(battle, unit, from_square) -> bool:
    """Is the unit behind a friendly skirmish screen facing the shot (skirmishing rule)?"""
    if not battle.option("skirmishing") or utype(unit) == "skirmishers":
        return False
    here = box(battle, unit)
    occ = occupants(battle)
    for sq in line_boxes(here, from_square) or ():
        o = occ.get(sq)
        if o is not None and o.side == unit.side and utype(o) == "skirmishers" \
                and squares(sq, here) == 1:
            return True
    return False
