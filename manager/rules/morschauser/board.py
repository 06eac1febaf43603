"""The battle as the gridded rules see it: who holds which box, and whose zones cover it.

Built from the model on demand and cached until the battle next changes, so the
many questions a move or the automatic commander asks cost a dictionary lookup.
"""
from __future__ import annotations

from ...geometry import terrain_index
from ...grid import Box, Grid, box_distance, dir_of_degrees, front_boxes
from ..base import UnitProfile
from .tables import PROFILES


class Board:
    def __init__(self, battle):
        bf = battle.battlefield
        self.battle = battle
        self.grid: Grid = Grid(bf.grid, bf.width, bf.height)
        self.terrain = terrain_index(bf)
        self.unit_box: dict[str, Box] = {}
        self.box_unit: dict[Box, str] = {}
        self.leader_box: dict[str, Box] = {}
        self.box_leaders: dict[Box, list[str]] = {}
        self.zoc: dict[str, dict[Box, list[str]]] = {s: {} for s in battle.sides}
        size = self.grid.size
        for u in battle.units.values():
            if u.eliminated:
                continue
            b = (int(u.x // size), int(u.y // size))
            self.unit_box[u.id] = b
            self.box_unit[b] = u.id
            zoc = self.zoc.setdefault(u.side, {})
            for f in front_boxes(b, dir_of_degrees(u.facing)):
                zoc.setdefault(f, []).append(u.id)
        for l in battle.leaders.values():
            if l.eliminated:
                continue
            b = (int(l.x // size), int(l.y // size))
            self.leader_box[l.id] = b
            self.box_leaders.setdefault(b, []).append(l.id)

    def enemy_zoc(self, side: str, box: Box) -> list[str]:
        """Enemy units whose zone of control covers this box."""
        out: list[str] = []
        for s, zoc in self.zoc.items():
            if s != side:
                out.extend(zoc.get(box, ()))
        return out

    def unit_at(self, box: Box):
        uid = self.box_unit.get(box)
        return self.battle.units[uid] if uid else None

    def leaders_at(self, box: Box, side: str | None = None) -> list[str]:
        return [l for l in self.box_leaders.get(box, ())
                if side is None or self.battle.leaders[l].side == side]

    def centre(self, box: Box) -> tuple[float, float]:
        return self.grid.centre(box)


def board(battle) -> Board:
    return battle.cached("morschauser.board", lambda: Board(battle))


def profile(unit) -> UnitProfile:
    return PROFILES[unit.kind]


def box_of(battle, piece) -> Box:
    size = battle.battlefield.grid
    return (int(piece.x // size), int(piece.y // size))


def facing_dir(unit) -> int:
    return dir_of_degrees(unit.facing)


def distance(a: Box, b: Box) -> float:
    return box_distance(a, b)


def is_centre(battle, pos) -> bool:
    size = battle.battlefield.grid
    x, y = pos
    return abs((x / size) % 1 - 0.5) < 1e-6 and abs((y / size) % 1 - 0.5) < 1e-6
