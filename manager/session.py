"""The Session: the only way a battle changes. Execute, undo, redo, replay.

A battle is its scenario plus the ordered log of actions and the dice each rolled.
Undo restores the nearest snapshot and replays the log up to the entry before, so
the dice counter rewinds with everything else; redo replays the undone entry with
its recorded dice, so nobody can undo to re-roll.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import arrival_edit, arrivals, editor_actions, game_actions, plans  # noqa: F401  (every action in the registry)
from .actions import Action, action_from_dict
from .dice import Dice, DiceRoll, ReplaySource, SeededSource
from .errors import BerthierError, DiceError, IllegalAction
from .events import EventBus
from .game_actions import GameAction
from .rules import get_ruleset


@dataclass
class LogEntry:
    index: int
    action: Action
    rolls: tuple[DiceRoll, ...]
    events: list = field(default_factory=list)
    turn: int = 0
    phase: str = ""
    side: str = ""

    def to_dict(self) -> dict:
        return {"index": self.index, "action": self.action.to_dict(),
                "rolls": [r.to_dict() for r in self.rolls], "turn": self.turn,
                "phase": self.phase, "side": self.side,
                "events": [e.describe() for e in self.events]}

    @classmethod
    def from_dict(cls, d: dict) -> "LogEntry":
        return cls(int(d["index"]), action_from_dict(d["action"]),
                   tuple(DiceRoll.from_dict(r) for r in d.get("rolls", ())),
                   [], int(d.get("turn", 0)), str(d.get("phase", "")), str(d.get("side", "")))


class Session:
    SNAPSHOT_EVERY = 32

    def __init__(self, battle, source=None):
        self.battle = battle
        self.ruleset = get_ruleset(battle.info.ruleset)
        self.source = source or SeededSource(battle.info.seed)
        self.entries: list[LogEntry] = []
        self.redo_stack: list[LogEntry] = []
        self.taken_back: list[LogEntry] = []       # every entry ever undone, for the record
        self._snapshots: dict[int, tuple] = {0: battle.snapshot()}
        self.bus = EventBus()

    # ---- the one door --------------------------------------------------------------
    def check(self, action: Action) -> None:
        """Would this action be legal now? Raises IllegalAction with the reason."""
        if self.battle.state.over and action.category == "game":
            raise IllegalAction(f"the battle is over: {self.battle.state.reason}")
        action.validate(self.battle, self.ruleset)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
            return True
        except IllegalAction:
            return False

    def execute(self, action: Action, source=None) -> list:
        """Validate, apply, log and announce one action; all or nothing."""
        self.check(action)
        entry = self._apply(action, source or self.source)
        self.entries.append(entry)
        self.redo_stack.clear()
        self._maybe_snapshot()
        self.bus.emit("executed", entry)
        return entry.events

    def _apply(self, action: Action, source) -> LogEntry:
        battle = self.battle
        state = battle.state
        # a game action writes through the battle's writers alone (the rules have no
        # other way in), so its writes are noted and taken back should it fail; other
        # actions (the editor's, arrivals) may write the tables directly: a snapshot
        noted = isinstance(action, GameAction)
        before = None if noted else battle.snapshot()
        dice = Dice(source, state.dice_seq)
        version = battle.version
        if noted:                       # (noting starts in the try's reach: always ended)
            battle.begin_changes()
        try:
            events = action.apply(battle, self.ruleset, dice)
            # the counter moves on with the dice; an action that rolled none and changed
            # the battle (so its views are rebuilt already) leaves the state as it is
            if dice.next_seq != battle.state.dice_seq or battle.version == version:
                battle.set_state(dice_seq=dice.next_seq)
        except BaseException:
            # a refused die or a bug leaves nothing half-done
            if noted:
                battle.take_back_changes()
            else:
                battle.restore(before)
            raise
        finally:
            if noted:
                battle.end_changes()
        return LogEntry(len(self.entries), action, tuple(dice.rolls), list(events),
                        state.turn, state.phase, state.active)

    def fold(self, entry: LogEntry) -> LogEntry:
        """Append an entry recorded by another session (a host's): its action replayed
        with its own recorded dice, never rolled here; all or nothing."""
        if entry.index != len(self.entries):
            raise IllegalAction(f"log entry {entry.index} arrived when entry "
                                f"{len(self.entries)} was expected")
        self.check(entry.action)
        before = self.battle.snapshot()
        feed = ReplaySource(entry.rolls)
        replayed = self._apply(entry.action, feed)
        if not feed.exhausted():
            self.battle.restore(before)
            raise DiceError(f"log entry {entry.index} recorded more rolls than its replay used")
        self.entries.append(replayed)
        self.redo_stack.clear()
        self._maybe_snapshot()
        self.bus.emit("executed", replayed)
        return replayed

    def _maybe_snapshot(self) -> None:
        n = len(self.entries)
        if n % self.SNAPSHOT_EVERY == 0:
            self._snapshots[n] = self.battle.snapshot()

    # ---- undo and redo ----------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self.entries)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo(self) -> LogEntry:
        if not self.entries:
            raise IllegalAction("nothing to undo")
        entry = self.entries.pop()
        self.redo_stack.append(entry)
        self.taken_back.append(entry)
        self._rewind_to(len(self.entries))
        self.bus.emit("undone", entry)
        return entry

    def redo(self) -> LogEntry:
        if not self.redo_stack:
            raise IllegalAction("nothing to redo")
        entry = self.redo_stack.pop()
        replayed = self._apply(entry.action, ReplaySource(entry.rolls))
        self.entries.append(replayed)
        self._maybe_snapshot()
        self.bus.emit("redone", replayed)
        return replayed

    def undo_to(self, count: int) -> None:
        """Rewind until only the first `count` entries remain (the log's 'undo to here')."""
        while len(self.entries) > count:
            self.undo()

    def _rewind_to(self, n: int) -> None:
        for k in [k for k in self._snapshots if k > n]:
            del self._snapshots[k]
        base = max(self._snapshots)
        self.battle.restore(self._snapshots[base])
        for entry in self.entries[base:n]:
            self._apply(entry.action, ReplaySource(entry.rolls))

    def initial_battle(self):
        """A copy of the battle as the session began (the scenario its log folds over)."""
        return self.state_at(0)

    def state_at(self, n: int):
        """A copy of the battle as it was after the first n entries (for the log view)."""
        base = max(k for k in self._snapshots if k <= n)
        probe = self.battle.copy()
        probe.restore(self._snapshots[base])
        shadow = Session.__new__(Session)
        shadow.battle, shadow.ruleset, shadow.entries = probe, self.ruleset, []
        for entry in self.entries[base:n]:
            shadow._apply(entry.action, ReplaySource(entry.rolls))
        return probe

    # ---- replay --------------------------------------------------------------------
    @classmethod
    def replay(cls, scenario_battle, log: list[LogEntry], source=None) -> "Session":
        """Fold a log over its scenario: same actions, same dice, same state."""
        session = cls(scenario_battle, source)
        for entry in log:
            feed = ReplaySource(entry.rolls)
            try:
                session.check(entry.action)
                replayed = session._apply(entry.action, feed)
            except BerthierError as exc:
                exc.entry = entry.index           # so a file's refusal can name the entry
                raise
            if not feed.exhausted():
                exc = DiceError(f"log entry {entry.index} recorded more rolls than its replay used")
                exc.entry = entry.index
                raise exc
            session.entries.append(replayed)
            session._maybe_snapshot()
        return session

    def log(self) -> list[dict]:
        return [e.to_dict() for e in self.entries]
