"""The open battle as the UI sees it: one Session, its undo stack, selection and preview.

Every change the UI makes goes through `Document.execute`, which runs the action through
the Session (the one door) and pushes an `ActionCommand` so Ctrl+Z works everywhere.
An ActionCommand does not hold state of its own: it remembers how long the session's log
was before and after it, so undo and redo are the session's own undo and redo (the dice
rewind with them and a redo replays the recorded faces).
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from manager.dice import ManualSource
from manager.editor_actions import RemoveCommand, RemoveTerrain, RemoveUnit
from manager.errors import BerthierError, IllegalAction
from manager.session import Session
from manager.store import BattleFile

from .wording import action_text


class ActionCommand(QUndoCommand):
    def __init__(self, doc: "Document", before: int, after: int, text: str):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after
        self._first = True              # the action already ran when it was pushed

    def redo(self):
        if self._first:
            self._first = False
            return
        s = self.doc.session
        while len(s.entries) < self.after and s.can_redo:
            s.redo()
        self.doc.model_changed()

    def undo(self):
        self.doc.session.undo_to(self.before)
        self.doc.model_changed()


class GroupCommand(ActionCommand):
    """Several actions that undo and redo as one. No child commands: the log range
    (before, after) is all undo and redo need, and Qt-side children owned by a Python
    parent are a double free waiting to happen."""

    def __init__(self, doc: "Document", before: int, text: str):
        super().__init__(doc, before, before, text)
        self.actions = 0


class Document(QObject):
    remote = False                  # a JoinedDocument acts through a host
    network_status = ""             # the link, who acts, the last refusal (rich text)
    network_title = ""              # " — hosting on ADDRESS (2 laptops)"
    network_line = ""               # the link alone, for the log
    changed = Signal()              # the model (or the shown state) changed
    selection_changed = Signal()
    message = Signal(str)           # a sentence for the status bar
    refused = Signal(str)           # an action the engine refused, with its reason
    preview_changed = Signal()

    def __init__(self, battle, path: str | Path | None = None, session: Session | None = None,
                 record=None):
        super().__init__()
        self.session = session or Session(battle)
        self.path = Path(path) if path else None
        # a BattleFile (the game is saved action by action) or an Autosave, or None
        self.record = record
        self.undo_stack = QUndoStack(self)
        self.selection: list[str] = []       # ids of units, leaders, commands or terrain
        self.preview: int | None = None      # show the battle after this many log entries
        self._preview_battle = None
        self._quiet = 0
        self.running = 0                     # inside run(): entries the window made itself
        self._group = None
        self.manual_dice = False
        self.arrivals_by_hand = False        # the umpire sets reinforcements down himself
        self.ask_faces = None                # set by the window: DiceRequest -> faces
        self.confirm = None                  # set by the window: (title, text) -> bool
        # Umpire correction mode: once the battle has begun, edits (place, paint, delete,
        # change a unit's fields) are refused unless the umpire turned this on; each one
        # then stands in the log as an umpire correction.
        self.correcting = False
        self._adopt_history()

    def _adopt_history(self) -> None:
        """A reopened battle: each logged action an undo step, and what was undone before
        it was saved waiting to be redone, so undo, redo and "Undo to here" carry on
        across restarts. The commands only name log ranges: pushing or undoing them here
        runs nothing (the session is already where the file left it)."""
        s = self.session
        if not s.entries and not s.redo_stack:
            return
        first = s.state_at(0)        # names of pieces removed since
        for e in s.entries:
            self.undo_stack.push(ActionCommand(self, e.index, e.index + 1,
                                               action_text(s.battle, e.action, first)))
        n = len(s.entries)
        redo = list(reversed(s.redo_stack))          # the next to redo comes first
        for k, e in enumerate(redo):
            self.undo_stack.push(ActionCommand(self, n + k, n + k + 1,
                                               action_text(s.battle, e.action)))
        for _ in redo:
            self.undo_stack.undo()
        self.undo_stack.setClean()

    # ---- what to draw --------------------------------------------------------------
    @property
    def battle(self):
        return self.session.battle

    @property
    def ruleset(self):
        return self.session.ruleset

    @property
    def shown(self):
        """The battle the views draw: the present, or the past the log has selected."""
        return self._preview_battle if self.preview is not None else self.session.battle

    @property
    def title(self) -> str:
        name = self.path.name if self.path else "untitled"
        return name + (" [read-only]" if getattr(self.record, "read_only", False) else "")

    @property
    def is_battle_file(self) -> bool:
        """Recording into a battle file the user named (not an autosave)."""
        return isinstance(self.record, BattleFile) and not self.record.read_only

    @property
    def record_error(self) -> str | None:
        return getattr(self.record, "error", None)

    def close_record(self) -> None:
        if self.record is not None:
            self.record.close()
            self.record = None

    def mine(self, pid: str) -> bool:
        """May this window act for the piece? (A joined window: only its claimed commands.)"""
        return True

    @property
    def editing_allowed(self) -> bool:
        """Editor tools and edits: always in set-up, during a battle only as corrections."""
        return not self.battle.state.started or self.correcting

    # ---- the one door -----------------------------------------------------------------
    def check(self, action) -> str:
        """'' when the action would be legal now, else the engine's reason."""
        try:
            self.session.check(action)
            return ""
        except IllegalAction as exc:
            return str(exc)

    def execute(self, action, text: str | None = None) -> bool:
        """Run one action; on refusal say why and change nothing."""
        try:
            self.run(action, text)
            return True
        except BerthierError as exc:
            self.refused.emit(str(exc))
            self.model_changed()        # views that previewed a drag snap back
            return False

    def run(self, action, text: str | None = None) -> None:
        """Run one action or raise the engine's refusal (for callers that handle it)."""
        if self.preview is not None:
            raise IllegalAction("you are looking at the past: go back to now to give orders")
        if action.category == "edit" and not self.editing_allowed:
            raise IllegalAction("the battle has begun: editing is off. Turn on Edit > Umpire "
                                "correction to change the table; the change is logged as a "
                                "correction")
        s = self.session
        before = len(s.entries)
        label = text or action_text(s.battle, action)      # names as they stand before it
        if action.category == "edit" and s.battle.state.started:
            label = "Correction: " + label
        source = ManualSource(self.ask_faces) if (self.manual_dice and self.ask_faces) else None
        self.running += 1
        try:
            s.execute(action, source)
        finally:
            self.running -= 1
        if self._group is not None:
            self._group.actions += 1
        else:
            self.undo_stack.push(ActionCommand(self, before, len(s.entries), label))
        self.model_changed()

    def execute_all(self, actions, text: str, whole: bool = False) -> bool:
        """One action as itself, several as one undo step; stops at the first refusal.
        `whole`: a refusal takes back the ones already done (all or nothing)."""
        actions = list(actions)
        if len(actions) == 1:
            return self.execute(actions[0], text if "{n}" not in text else None)
        before = len(self.session.entries)
        with self.group(text.format(n=len(actions))):
            ok = all(self.execute(a) for a in actions)
            if not ok and whole and self._group is not None:
                self.session.undo_to(before)
                self._group.actions = 0
        return ok

    def delete_selection(self) -> bool:
        """Remove the selected units, commands (with their units) and terrain."""
        b = self.battle
        commands = [i for i in self.selection if i in b.commands]
        gone = {u for c in commands for u in b.hierarchy.units_of(c)}
        actions = [RemoveCommand(c) for c in commands]
        actions += [RemoveUnit(u) for u in self.selection if u in b.units and u not in gone]
        terrain = {f.id for f in b.battlefield.features}
        actions += [RemoveTerrain(t) for t in self.selection if t in terrain]
        if not actions:
            self.refused.emit("select units, commands or terrain to delete "
                              "(a leader goes with his command)")
            return False
        if b.state.started:
            if not self.editing_allowed:
                self.refused.emit("the battle has begun: turn on Edit > Umpire correction to "
                                  "remove pieces")
                return False
            names = [action_text(b, a) for a in actions]
            text = "\n".join(names[:12]) + (f"\n… and {len(names) - 12} more" if len(names) > 12 else "")
            if self.confirm is not None and not self.confirm(
                    "Umpire correction: remove pieces?",
                    f"{text}\n\nThis is logged as an umpire correction (Undo takes it back)."):
                return False
        return self.execute_all(actions, "delete {n} pieces")

    @contextmanager
    def group(self, text: str):
        """Several actions that undo as one (a multi-unit drag, a paste)."""
        if self._group is not None:          # nested: the outer group holds everything
            yield
            return
        self._group = GroupCommand(self, len(self.session.entries), text)
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1
            group, self._group = self._group, None
            group.after = len(self.session.entries)
            if group.actions:
                self.undo_stack.push(group)
            self.model_changed()

    @contextmanager
    def batch(self):
        """Many actions, one redraw at the end (the automatic commander's phase)."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1
            self.model_changed()

    def model_changed(self) -> None:
        if self._quiet:
            return
        live = set(self.battle.units) | set(self.battle.leaders) | set(self.battle.commands) | {
            f.id for f in self.battle.battlefield.features}
        kept = [i for i in self.selection if i in live]
        self.changed.emit()
        if kept != self.selection:
            self.select(kept)

    # ---- undo history: the log's "undo to here" ---------------------------------------
    def undo_to(self, count: int) -> None:
        """Rewind the log to `count` entries, through the undo stack so redo still works."""
        self.go_to_present()
        stack = self.undo_stack
        index = stack.index()
        while index > 0 and stack.command(index - 1).after > count:
            index -= 1
        if stack.command(index) is not None and stack.command(index).before < count:
            self.message.emit("that entry is inside a group of edits: rewound to the group's start")
        stack.setIndex(index)

    # ---- looking at the past -----------------------------------------------------------
    def show_past(self, count: int) -> None:
        if count >= len(self.session.entries):
            self.go_to_present()
            return
        self.preview = count
        self._preview_battle = self.session.state_at(count)
        self.preview_changed.emit()
        self.changed.emit()

    def go_to_present(self) -> None:
        if self.preview is None:
            return
        self.preview, self._preview_battle = None, None
        self.preview_changed.emit()
        self.changed.emit()

    # ---- selection, shared by the map and the docks -------------------------------------
    def select(self, ids) -> None:
        ids = list(dict.fromkeys(ids))
        if ids != self.selection:
            self.selection = ids
            self.selection_changed.emit()

    def selected_units(self) -> list[str]:
        return [i for i in self.selection if i in self.shown.units]
