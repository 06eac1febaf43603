"""Editor and order tools. A tool turns mouse and keys into actions for the document;
it never writes the model (Tiled's AbstractTool). The view forwards input to the active
tool; a handler returns True when it used the event."""
from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from manager.editor_actions import RelocateLeader, RelocateUnit
from manager.game_actions import MoveLeader, MoveUnit

from ..wording import action_text
from .items import UnitItem
from .leaders import LeaderItem
from .terrain import TerrainItem


class Tool:
    name = ""
    label = ""
    shortcut = ""
    tip = ""

    def __init__(self, doc, scene, view):
        self.doc, self.scene, self.view = doc, scene, view

    def activate(self) -> None: ...
    def deactivate(self) -> None: ...
    def press(self, event, pos) -> bool: return False
    def move(self, event, pos) -> bool: return False
    def release(self, event, pos) -> bool: return False
    def double_click(self, event, pos) -> bool: return False
    def key(self, event) -> bool: return False
    def wheel(self, event) -> bool: return False

    # ---- shared helpers -------------------------------------------------------------------
    @property
    def grid(self):
        return self.doc.shown.battlefield.grid if self.doc.ruleset.measure == "grid" else None

    def snap(self, x: float, y: float) -> tuple[float, float]:
        """Box centres under gridded rules, free (to a tenth of an inch) otherwise."""
        g = self.doc.shown.battlefield.grid
        if g and self.doc.ruleset.measure == "grid":
            return (math.floor(x / g) + 0.5) * g, (math.floor(y / g) + 0.5) * g
        return round(x, 1), round(y, 1)

    @property
    def turn_step(self) -> int:
        return 45 if self.grid else 15

    def piece_at(self, pos):
        for item in self.scene.items(pos):
            if isinstance(item, (UnitItem, LeaderItem)) and item.isVisible():
                return item
        return None

    def terrain_at(self, pos):
        for item in self.scene.items(pos):
            if isinstance(item, TerrainItem):
                return item
        return None

    @property
    def playing(self) -> bool:
        """Game orders once the battle has begun, unless the umpire is making a correction
        (then a drag sets the piece down where the table says it is)."""
        return self.doc.battle.state.started and not self.doc.correcting


def facings_towards(start, end, current: int, step: int) -> list[int]:
    """Every facing, the current one first, then nearest to the direction of travel."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    heading = (math.degrees(math.atan2(dx, -dy)) + 360) % 360 if (dx or dy) else current
    options = [k * step for k in range(360 // step)]
    options.sort(key=lambda f: min(abs(f - heading), 360 - abs(f - heading)))
    return [current] + [f for f in options if f != current]


class SelectTool(Tool):
    """Select, drag to move, Q/E to turn, drag on open ground for a rubber band.

    Before the battle (or in set-up mode) a drag relocates; during it, a drag is a move
    order: the reachable ground is shown and the engine judges the drop."""

    name, label, shortcut = "select", "Select / move", "S"
    tip = "Click to select, drag to move, Q/E to turn; drag on open ground to select many"

    def __init__(self, doc, scene, view):
        super().__init__(doc, scene, view)
        self._drag = None           # {pid: (item, start pos, facing)}
        self._origin = None
        self._band = None
        self._facing_delta = 0
        self._last_cell = None

    # ---- press ----------------------------------------------------------------------------
    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        ctrl = bool(event.modifiers() & (Qt.ControlModifier | Qt.ShiftModifier))
        piece = self.piece_at(pos)
        if piece is not None:
            sel = list(self.doc.selection)
            if ctrl:
                sel = [i for i in sel if i != piece.uid] if piece.uid in sel else sel + [piece.uid]
            elif piece.uid not in sel:
                sel = [piece.uid]
            self.doc.select(sel)
            if piece.uid in self.doc.selection and self.doc.preview is None:
                self._begin_drag(pos)
            return True
        terrain = self.terrain_at(pos)
        if not ctrl:
            self.doc.select([terrain.fid] if terrain is not None else [])
        self._origin = pos
        self._band = QGraphicsRectItem()
        self._band.setPen(QPen(QColor(255, 176, 0), 0))
        self._band.setBrush(QColor(255, 176, 0, 40))
        self._band.setZValue(100)
        self.scene.addItem(self._band)
        return True

    def _begin_drag(self, pos) -> None:
        b = self.doc.battle
        self._drag = {}
        for pid in self.doc.selection:
            item = self.scene.units.get(pid) or self.scene.leaders.get(pid)
            rec = b.units.get(pid) or b.leaders.get(pid)
            if item is not None and rec is not None:
                self._drag[pid] = (item, (rec.x, rec.y), getattr(rec, "facing", 0))
        self._origin, self._facing_delta, self._last_cell = pos, 0, None
        if self.playing and len(self._drag) == 1:
            pid = next(iter(self._drag))
            if pid in b.units:
                self.scene.show_reach(self.doc.ruleset.reach_area(b, b.units[pid]))

    # ---- drag -----------------------------------------------------------------------------
    def move(self, event, pos) -> bool:
        if self._band is not None:
            self._band.setRect(QRectF(self._origin, pos).normalized())
            return True
        if not self._drag:
            return False
        dx, dy = pos.x() - self._origin.x(), pos.y() - self._origin.y()
        for pid, (item, start, facing) in self._drag.items():
            x, y = self.snap(start[0] + dx, start[1] + dy)
            item.setPos(x, y)
            if isinstance(item, UnitItem):
                item.setRotation((facing + self._facing_delta) % 360)
        self._judge()
        return True

    def _judge(self) -> None:
        """Feedback while dragging one piece: red outline and the engine's reason."""
        if len(self._drag) != 1:
            return
        pid, (item, start, facing) = next(iter(self._drag.items()))
        cell = (item.pos().x(), item.pos().y(), self._facing_delta)
        if cell == self._last_cell:
            return
        self._last_cell = cell
        action, why = self.best_action(pid, (cell[0], cell[1]))
        if isinstance(item, UnitItem):
            item.illegal = bool(why)
            item.update()
        self.doc.message.emit(why or f"Allowed: {action_text(self.doc.battle, action)}")

    def best_action(self, pid: str, to, drag=None) -> tuple:
        """The action a drop at `to` means, and '' or the engine's reason against it."""
        b = self.doc.battle
        if pid in b.leaders:
            action = (MoveLeader(pid, to) if self.playing else RelocateLeader(pid, to))
            return action, self.doc.check(action)
        drag = drag if drag is not None else self._drag
        item, start, facing = drag[pid] if drag and pid in drag else (
            None, b.units[pid].pos, b.units[pid].facing)
        wanted = (facing + self._facing_delta) % 360
        if not self.playing:
            action = RelocateUnit(pid, to, wanted)
            return action, self.doc.check(action)
        first = MoveUnit(pid, to, wanted)
        why = self.doc.check(first)
        if not why or self._facing_delta:
            return first, why
        for f in facings_towards(start, to, facing, self.turn_step)[1:]:
            action = MoveUnit(pid, to, f)
            if not self.doc.check(action):
                return action, ""
        return first, why

    def release(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        if self._band is not None:
            rect = self._band.rect()
            self.scene.removeItem(self._band)
            self._band = None
            if rect.width() > 0.2 or rect.height() > 0.2:
                picked = [i.uid for i in self.scene.items(rect, Qt.IntersectsItemShape)
                          if isinstance(i, (UnitItem, LeaderItem)) and i.isVisible()]
                ctrl = bool(event.modifiers() & (Qt.ControlModifier | Qt.ShiftModifier))
                self.doc.select((self.doc.selection if ctrl else []) + picked)
            return True
        if not self._drag:
            return False
        drag, self._drag = self._drag, None
        self.scene.show_reach([])
        moved = [(pid, item) for pid, (item, start, facing) in drag.items()
                 if (item.pos().x(), item.pos().y()) != tuple(start) or self._facing_delta]
        if not moved:
            self._snap_back(drag)
            return True
        actions = [self.best_action(pid, (item.pos().x(), item.pos().y()), drag)[0]
                   for pid, item in moved]
        self.doc.execute_all(actions, "move {n} pieces")
        self._snap_back(drag)
        return True

    def _snap_back(self, drag) -> None:
        """Dragged items return to whatever the model now says (moved or refused)."""
        for item, _, _ in drag.values():
            item.key = None
            if isinstance(item, UnitItem):
                item.illegal = False
        self.doc.model_changed()
        return True

    # ---- keys: turn, cancel ---------------------------------------------------------------
    def key(self, event) -> bool:
        k = event.key()
        if k in (Qt.Key_Q, Qt.Key_E):
            step = -self.turn_step if k == Qt.Key_Q else self.turn_step
            if self._drag:
                self._facing_delta = (self._facing_delta + step) % 360
                for item, start, facing in self._drag.values():
                    if isinstance(item, UnitItem):
                        item.setRotation((facing + self._facing_delta) % 360)
                self._judge()
            else:
                self.turn_selected(step)
            return True
        if k == Qt.Key_Escape and self._drag:
            drag, self._drag = self._drag, None
            self.scene.show_reach([])
            self._snap_back(drag)
            return True
        return False

    def turn_selected(self, step: int) -> None:
        b = self.doc.battle
        units = [b.units[u] for u in self.doc.selected_units() if u in b.units]
        actions = [(MoveUnit(u.id, u.pos, (u.facing + step) % 360) if self.playing
                    else RelocateUnit(u.id, u.pos, (u.facing + step) % 360)) for u in units]
        if actions:
            self.doc.execute_all(actions, "turn {n} units")
