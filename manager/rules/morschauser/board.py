"""The battle as the gridded rules see it: who holds which box, and whose zones cover it.

Built from the model on demand and cached until the battle next changes, so the
many questions a move or the automatic commander asks cost a dictionary lookup.
"""
from __future__ import annotations

import weakref

from ...geometry import terrain_index
from ...grid import Box, Grid, box_distance, dir_of_degrees, front_boxes
from ..base import UnitProfile
from .tables import PROFILES


CELL = 8                                    # boxes a side of a cell of the unit index


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
        self.unit_front: dict[str, tuple] = {}
        # per side: cell (CELL x CELL boxes) -> its units, for "who is near" without a scan
        self.cells: dict[str, dict[Box, set[str]]] = {s: {} for s in battle.sides}
        # per kind: boxes it may not enter; shared by every board over the same ground and
        # options (a board is rebuilt after a wholesale change, the ground rarely changes)
        self._refusals: dict = _refusal_store(self.terrain, battle.info.options)
        self._built_on = (bf, tuple(battle.sides))
        self._records: dict = {}            # the unit records this board shows
        for uid in battle.units:
            self._add_unit(uid)
        for lid in battle.leaders:
            self._add_leader(lid)

    # ---- incremental upkeep: a move changes two boxes, not the whole board ----------------
    def _add_unit(self, uid: str) -> None:
        u = self.battle.units.get(uid)
        self._records[uid] = u
        if u is None or u.eliminated:
            return
        size = self.grid.size
        b = (int(u.x // size), int(u.y // size))
        self.unit_box[uid] = b
        self.box_unit[b] = uid
        zoc = self.zoc.setdefault(u.side, {})
        d = dir_of_degrees(u.facing)
        front = front_boxes(b, d)
        self.unit_front[uid] = (u.side, front, d)
        for f in front:
            zoc.setdefault(f, []).append(uid)
        self.cells.setdefault(u.side, {}).setdefault((b[0] // CELL, b[1] // CELL),
                                                     set()).add(uid)

    def resync(self) -> bool:
        """After a wholesale change (new orders, an arrival, an undo): bring this board
        up to date unit record by unit record (records are immutable: the same record is
        the same piece in the same box). False when it cannot be (other ground or sides,
        or two units in one box, where a fresh board's order of building decides)."""
        battle = self.battle
        if self._built_on != (battle.battlefield, tuple(battle.sides)):
            return False
        units, records = battle.units, self._records
        for uid in [u for u in records if u not in units] + [
                u for u, rec in units.items() if records.get(u) is not rec]:
            self._remove_unit(uid)
            self._add_unit(uid)
        if len(self.unit_box) != len(self.box_unit):
            return False
        self._refusals = _refusal_store(self.terrain, battle.info.options)
        self.leader_box, self.box_leaders = {}, {}      # a few: as a fresh board orders them
        for lid in battle.leaders:
            self._add_leader(lid)
        return True

    def _in_place(self, uid: str) -> bool:
        """Is the unit still in the battle, in the box it holds here, facing as it was?
        (Then taking it off and putting it back would leave every table as it is.)"""
        u = self.battle.units.get(uid)
        b = self.unit_box.get(uid)
        if u is None or u.eliminated or b is None or self.box_unit.get(b) != uid:
            return False
        size = self.grid.size
        return (b == (int(u.x // size), int(u.y // size))
                and self.unit_front[uid][2] == dir_of_degrees(u.facing))

    def _remove_unit(self, uid: str) -> None:
        b = self.unit_box.pop(uid, None)
        if b is None:
            return
        if self.box_unit.get(b) == uid:
            del self.box_unit[b]
        side, front, _ = self.unit_front.pop(uid)
        zoc = self.zoc[side]
        for f in front:
            zoc[f].remove(uid)
            if not zoc[f]:
                del zoc[f]
        cells = self.cells[side]
        cell = cells[(b[0] // CELL, b[1] // CELL)]
        cell.discard(uid)
        if not cell:
            del cells[(b[0] // CELL, b[1] // CELL)]

    def _add_leader(self, lid: str) -> None:
        l = self.battle.leaders.get(lid)
        if l is None or l.eliminated:
            return
        size = self.grid.size
        b = (int(l.x // size), int(l.y // size))
        self.leader_box[lid] = b
        self.box_leaders.setdefault(b, []).append(lid)

    def _remove_leader(self, lid: str) -> None:
        b = self.leader_box.pop(lid, None)
        if b is not None:
            self.box_leaders[b].remove(lid)
            if not self.box_leaders[b]:
                del self.box_leaders[b]

    def update(self, changes) -> None:
        for change in changes:
            if change[0] == "unit":
                if self._in_place(change[1]):
                    self._records[change[1]] = self.battle.units[change[1]]
                    continue                # shot, hit or marked: the board is the same
                self._remove_unit(change[1])
                self._add_unit(change[1])
            elif change[0] == "leader":
                self._remove_leader(change[1])
                self._add_leader(change[1])

    def refusals(self, kind: str, rule) -> dict[Box, str]:
        """Every on-table box `kind` may not enter, with the reason; built once per kind."""
        table = self._refusals.get((kind, rule))
        if table is None:
            table = self._refusals[(kind, rule)] = {
                bx: why for bx, t in self.terrain.boxes.items()
                if (why := rule(self.battle, kind, bx, t))}
        return table

    def refusal(self, kind: str, box: Box, rule) -> str:
        """Why `kind` may not enter `box` ('' when it may)."""
        if not self.grid.contains(box):
            return "off the table"
        return self.refusals(kind, rule).get(box, "")

    def has_enemies(self, side: str) -> bool:
        for s, cells in self.cells.items():         # (asked before every proposal)
            if s != side and cells:
                return True
        return False

    def enemies_near(self, side: str, here: Box, reach: float) -> list[str]:
        """Every enemy unit within `reach` boxes of `here` on both axes, and maybe a few
        more (whole cells); in no set order."""
        r = int(reach)
        x0, x1 = (here[0] - r) // CELL, (here[0] + r) // CELL
        y0, y1 = (here[1] - r) // CELL, (here[1] + r) // CELL
        out: list[str] = []
        for s, cells in self.cells.items():
            if s == side:
                continue
            for cx in range(x0, x1 + 1):
                for cy in range(y0, y1 + 1):
                    uids = cells.get((cx, cy))
                    if uids:
                        out.extend(uids)
        return out

    def enemy_zoc_boxes(self, side: str):
        """Every box in an enemy zone of control, for `in` tests: with two sides the other
        side's own table (kept current by the upkeep above), else a set made now."""
        others = [z for s, z in self.zoc.items() if s != side]
        if len(others) == 1:
            return others[0]
        return set().union(*others)

    def in_enemy_zoc(self, side: str, box: Box) -> bool:
        for s, zoc in self.zoc.items():
            if s != side and box in zoc:
                return True
        return False

    def enemy_zoc(self, side: str, box: Box) -> list[str]:
        """Enemy units whose zone of control covers this box."""
        out: list[str] = []
        for s, zoc in self.zoc.items():
            if s != side:
                out.extend(zoc.get(box, ()))
        return out

    def leaders_at(self, box: Box, side: str | None = None) -> list[str]:
        return [l for l in self.box_leaders.get(box, ())
                if side is None or self.battle.leaders[l].side == side]

    def centre(self, box: Box) -> tuple[float, float]:
        return self.grid.centre(box)


_REFUSALS: dict[int, tuple] = {}        # id(terrain index) -> (it, {options: {kind: table}})


def _refusal_store(terrain, options) -> dict:
    """The refusal tables for this ground under these options (the rules read both)."""
    hit = _REFUSALS.get(id(terrain))
    if hit is None or hit[0] is not terrain:
        if len(_REFUSALS) > 8:
            _REFUSALS.clear()
        hit = _REFUSALS[id(terrain)] = (terrain, {})
    key = tuple(sorted(options.items(), key=lambda kv: kv[0]))
    try:
        return hit[1].setdefault(key, {})
    except TypeError:                       # an option value that cannot be a key
        return {}


BOARD = "morschauser.board"


def board(battle) -> Board:
    # the common case, nothing changed since: battle.current(BOARD) without the method
    # call (asked ~2,000 times a turn), as spatial._current reads it
    hit = battle._derived.get(BOARD)
    if hit is not None and hit[2] == battle.version:
        return hit[0]
    return battle.derived(BOARD, lambda: _rebuilt(battle), lambda v, changes: v.update(changes))


_LAST: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # battle -> its last board


def _rebuilt(battle) -> Board:
    """The board after a wholesale change: the battle's last one brought up to date when
    it can be (most of the table has not moved), else a new one."""
    last = _LAST.get(battle)
    if last is not None and last.battle is battle and last.resync():
        return last
    fresh = _LAST[battle] = Board(battle)
    return fresh


def profile(unit) -> UnitProfile:
    return PROFILES[unit.kind]


def box_of(battle, piece) -> Box:
    size = battle.battlefield.grid
    return (int(piece.x // size), int(piece.y // size))


def facing_dir(unit) -> int:
    return (unit.facing // 45) % 8          # grid facings are multiples of 45 (checked on load)


distance = box_distance                    # the rules' word for it (no call of a call)


def is_centre(battle, pos) -> bool:
    size = battle.battlefield.grid
    x, y = pos
    return abs((x / size) % 1 - 0.5) < 1e-6 and abs((y / size) % 1 - 0.5) < 1e-6


def army_trait(battle, side: str) -> str:
    """The army general's national characteristic, when those rules are in use."""
    if not battle.option("national_characteristics"):
        return ""
    gid = battle.sides[side].general
    general = battle.leaders.get(gid) if gid else None
    # the characteristic is the man's: it goes when he falls
    return general.trait if general is not None and not general.eliminated else ""


def in_stream(t) -> bool:
    """Is a box (its BoxTerrain) in a stream or ford? Not where a bridge crosses, and not
    in a town the stream runs through (a village garrison is in the buildings)."""
    k = t.kinds
    return ("stream" in k or "ford" in k) and not ("bridge" in k or "town" in k)


def bombarding(battle) -> bool:
    """Is this still the opening bombardment (long-range artillery and rallying only)?"""
    return battle.state.turn <= battle.option("bombardment_turns", 0)
