"""The root of the model: battlefield, forces, hierarchy, turn state and dice counter."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from .arrival import Arrival
from .battlefield import Battlefield
from .forces import Command, Leader, Side, Unit, evolve, with_marks
from .hierarchy import Hierarchy


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    name: str
    ruleset: str
    seed: int = 1
    turns: int = 12                   # turn limit; the battle ends undecided after it
    description: str = ""
    date: str = ""
    scale: str = ""
    first_side: str = "roll"          # a side id, or "roll" as the rules say
    options: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    # the other rulesets' options as the file gave them, so saving keeps them too
    # (this ruleset's own live in `options`, the one place they can change)
    option_sets: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class TurnState:
    started: bool = False
    turn: int = 0                     # game turns: every side has one player turn in each
    phase: str = "setup"
    active: str = ""                  # the side whose player turn it is
    order: tuple[str, ...] = ()       # sides in the order they move
    shaken: frozenset = frozenset()   # command ids; Shaken is permanent
    over: bool = False
    winner: str | None = None
    reason: str = ""
    dice_seq: int = 1                 # next roll's sequence number: the whole dice state
    fought: frozenset = frozenset()   # pieces that fought a melee this phase
    marks: tuple = ()                 # the ruleset's own turn state: sorted (key, value) pairs


class Battle:
    """Holds everything one battle is. Mutated only by actions through a Session.

    `version` grows with every change, so derived views (who stands in which box)
    can cache themselves until the next change.
    """

    def __init__(self, info: ScenarioInfo, battlefield: Battlefield, sides: dict[str, Side],
                 commands: dict[str, Command], units: dict[str, Unit],
                 leaders: dict[str, Leader], hierarchy: Hierarchy,
                 state: TurnState | None = None, pending: tuple = ()):
        self.info = info
        self.battlefield = battlefield
        self.sides = sides
        self.commands = commands
        self.units = units
        self.leaders = leaders
        self.hierarchy = hierarchy
        self.state = state or TurnState()
        # reinforcements still off the table: out of `units`, `leaders` and the hierarchy
        # until they arrive, so no rule counts them (see manager/arrivals.py)
        self.pending: tuple[Arrival, ...] = tuple(pending)
        self.version = 0
        self._cache: dict = {}
        self._kept: dict = {}              # memos that check their own entries (kept)
        self._derived: dict = {}           # views kept up to date from the change journal
        self._journal: list = [("all",)]   # what changed, for incremental views
        self._journal_base = 0
        self._all_at = 0                   # where the journal's last ("all",) stands
        self._undo = None                  # an action's writes while it is applied

    # ---- snapshots: cheap because every record is immutable ------------------------
    # (dict.copy, not dict(): the same keys in the same order, but a copy of the whole
    # table at once where dict() inserts entry by entry; every action takes a snapshot)
    def snapshot(self) -> tuple:
        return (self.info, self.battlefield, self.sides.copy(), self.commands.copy(),
                self.units.copy(), self.leaders.copy(), self.hierarchy, self.state, self.pending)

    def restore(self, snap: tuple) -> None:
        (self.info, self.battlefield, sides, commands, units, leaders,
         self.hierarchy, self.state) = snap[:8]
        self.pending = snap[8] if len(snap) > 8 else ()
        self.sides, self.commands = dict.copy(sides), dict.copy(commands)
        self.units, self.leaders = dict.copy(units), dict.copy(leaders)
        self.touch()

    def copy(self) -> "Battle":
        b = Battle.__new__(Battle)
        b.version, b._cache, b._derived = 0, {}, {}
        b._kept = self._kept      # shared: its entries check themselves (same records)
        b._journal, b._journal_base, b._all_at = [("all",)], 0, 0
        b._undo = None
        b.restore(self.snapshot())
        return b

    def fingerprint(self) -> tuple:
        """Everything that makes the state: two battles are equal when these are."""
        return (self.info, self.battlefield, tuple(sorted(self.sides.items())),
                tuple(sorted(self.commands.items(), key=lambda kv: kv[0])),
                tuple(sorted(self.units.items())), tuple(sorted(self.leaders.items())),
                tuple(sorted(self.hierarchy.graph.edges())),
                tuple(sorted((n, tuple(sorted(d.items()))) for n, d in
                             self.hierarchy.graph.nodes(data=True))),
                self.state, self.pending)

    # ---- an action's writes, taken back if it fails ------------------------------------
    # (what the session's all or nothing needs of a game action, which changes a record
    # or two: a snapshot copies every table, ~160 units, on each of ~140 actions a turn)
    def begin_changes(self) -> None:
        """Note every write through the writers below from now on."""
        self._undo = []

    def end_changes(self) -> None:
        self._undo = None

    def take_back_changes(self) -> None:
        """Undo every write since `begin_changes`, last first: the battle as it was, the
        tables' order too (an entry put in is taken out, one removed brings its whole
        table back as it was), then rebuilt as `restore` leaves it."""
        undo, self._undo = self._undo, None
        for table, key, old in reversed(undo):
            if table is None:                   # a setter's attribute
                setattr(self, key, old)
            elif key is _WHOLE:
                table.clear()
                table.update(old)
            elif old is _MISSING:
                del table[key]
            else:
                table[key] = old
        self.touch()

    def _note(self, table, key) -> None:
        self._undo.append((table, key, table.get(key, _MISSING)))

    # ---- the only writers ------------------------------------------------------------
    def touch(self, what: tuple = ("all",)) -> None:
        self.version += 1
        self._cache.clear()
        if what[0] == "all":
            self._all_at = self._journal_base + len(self._journal)
        self._journal.append(what)
        if len(self._journal) > 4096:          # old readers simply rebuild
            self._journal_base += len(self._journal)
            self._journal = [("all",)]
            self._all_at = self._journal_base

    def changes_since(self, mark: int):
        """(changes after `mark`, new mark); None for the changes when a rebuild is due."""
        end = self._journal_base + len(self._journal)
        # a wholesale change at or after the mark (the last one is noted where touch
        # wrote it: no scan of the changes for it, ~11,000 asks a battle); the journal
        # always begins with one, so a mark from before a wrap is caught too
        if mark <= self._all_at:
            return None, end
        return self._journal[mark - self._journal_base:], end

    def current(self, key):
        """A derived view if it is up to date now, else None (a cheap first look)."""
        hit = self._derived.get(key)
        return hit[0] if hit is not None and hit[2] == self.version else None

    def derived(self, key, build, update):
        """A view kept current by applying the journal of changes to it (or rebuilding)."""
        hit = self._derived.get(key)
        if hit is not None and hit[2] == self.version:
            return hit[0]                      # nothing changed since: the common case
        if hit is None:
            view, mark = build(), self._journal_base + len(self._journal)
        else:
            view, mark, _ = hit
            changes, mark = self.changes_since(mark)
            if changes is None:
                view = build()
            elif changes:
                update(view, changes)
        self._derived[key] = (view, mark, self.version)
        return view

    def put_unit(self, unit: Unit) -> None:
        units, undo = self.units, self._undo
        if undo is not None:                    # (the note written out: every action's)
            undo.append((units, unit.id, units.get(unit.id, _MISSING)))
        units[unit.id] = unit
        self.touch(("unit", unit.id))

    def update_unit(self, uid: str, **changes) -> Unit:
        unit = evolve(self.units[uid], **changes)
        self.put_unit(unit)
        return unit

    def refresh_unit(self, uid: str, **changes) -> Unit:
        """`update_unit`, unless the record already holds these very values (equal and of
        the same type, so the battle is the same field for field): then the record is
        kept, and everything kept for it (its base, its index rows, the memos keyed by
        it) stays good. For the resets of a turn's start, which find most units already
        as the turn leaves them."""
        unit = self.units[uid]
        for name, value in changes.items():
            now = getattr(unit, name)
            if type(now) is not type(value) or now != value:
                return self.update_unit(uid, **changes)
        return unit

    def drop_unit(self, uid: str) -> None:
        if self._undo is not None:
            self._undo.append((self.units, _WHOLE, self.units.copy()))
        del self.units[uid]
        # a wholesale change: were the unit put back, it would stand last in the order
        # of `units`, which a view patched unit by unit (unit_centres.UnitGrid) cannot see
        self.touch()

    def put_leader(self, leader: Leader) -> None:
        if self._undo is not None:
            self._note(self.leaders, leader.id)
        self.leaders[leader.id] = leader
        self.touch(("leader", leader.id))

    def mark_unit(self, uid: str, **changes) -> Unit:
        """Set (or with None clear) some of a unit's ruleset marks."""
        unit = self.units[uid]
        return self.update_unit(uid, marks=with_marks(unit.marks, **changes))

    def update_leader(self, lid: str, **changes) -> Leader:
        leader = evolve(self.leaders[lid], **changes)
        self.put_leader(leader)
        return leader

    def put_command(self, command: Command) -> None:
        if self._undo is not None:
            self._note(self.commands, command.id)
        self.commands[command.id] = command
        self.touch()

    def put_side(self, side: Side) -> None:
        if self._undo is not None:
            self._note(self.sides, side.id)
        self.sides[side.id] = side
        self.touch()

    def set_state(self, **changes) -> TurnState:
        if self._undo is not None:
            self._undo.append((None, "state", self.state))
        self.state = evolve(self.state, **changes)
        self.touch(("state",))
        return self.state

    def set_battlefield(self, battlefield: Battlefield) -> None:
        if self._undo is not None:
            self._undo.append((None, "battlefield", self.battlefield))
        self.battlefield = battlefield
        self.touch()

    def set_hierarchy(self, hierarchy: Hierarchy) -> None:
        if self._undo is not None:
            self._undo.append((None, "hierarchy", self.hierarchy))
        self.hierarchy = hierarchy
        self.touch()

    def set_pending(self, pending) -> None:
        if self._undo is not None:
            self._undo.append((None, "pending", self.pending))
        self.pending = tuple(pending)
        self.touch()

    def set_info(self, info: ScenarioInfo) -> None:
        if self._undo is not None:
            self._undo.append((None, "info", self.info))
        self.info = info
        self.touch()

    # ---- derived views ------------------------------------------------------------------
    def cached(self, key, build):
        """A value derived from the current state, rebuilt after the next change."""
        value = self._cache.get(key, _MISSING)    # (a miss raises no KeyError to catch)
        if value is _MISSING:
            value = self._cache[key] = build()
        return value

    def kept(self, key, build):
        """A store kept across changes (never cleared by `touch`) and shared with copies
        (trial battles the rules build to weigh an order): for memos whose every entry
        checks itself against the very records it was made from."""
        store = self._kept.get(key)
        if store is None:
            store = self._kept[key] = build()
        return store

    def peek(self, key, default=None):
        """A derived value if one is cached now, without building it."""
        return self._cache.get(key, default)

    def option(self, key: str, default=None):
        return self.info.options.get(key, default)

    def live_units(self, side: str | None = None) -> list:
        """Units still in the battle (a fresh list), kept current from the change journal
        (an action changes a unit or two: no scan of every unit after it)."""
        key = ("live_units", side)
        hit = self._derived.get(key)
        if hit is not None and hit[2] == self.version:
            return list(hit[0].units)          # nothing changed since: the common case
        return list(self.derived(key, lambda: _LiveUnits(self, side),
                                 lambda view, changes: view.follow(self, side, changes)).units)

    def live_leaders(self, side: str | None = None):
        return [l for l in self.leaders.values()
                if not l.eliminated and (side is None or l.side == side)]

    def arrival_of(self, ref: str):
        """The pending arrival that holds this unit, leader or command, or None."""
        for a in self.pending:
            if a.holds(ref):
                return a
        return None

    def all_units(self) -> dict:
        """Every unit of the order of battle: on the table, gone, or still to arrive."""
        out = dict(self.units)
        for a in self.pending:
            out.update((u.id, u) for _, u in a.units)
        return out

    def all_leaders(self) -> dict:
        out = dict(self.leaders)
        for a in self.pending:
            if a.leader:
                out[a.leader[1].id] = a.leader[1]
        return out

    def command_of(self, uid: str) -> Command:
        return self.commands[self.hierarchy.command_of(uid)]

    def enemy_of(self, side: str) -> str:
        others = [s for s in self.sides if s != side]
        return others[0] if others else side


_MISSING = object()
_WHOLE = object()                          # an undo entry holding a whole table


class _LiveUnits:
    """`battle.live_units(side)` kept from the journal: a unit changed in place keeps its
    place in `battle.units` (dict order), so its new record replaces the old one where it
    stands; a unit gone, come or put back (or any wholesale change) rebuilds."""

    __slots__ = ("units", "index")

    def __init__(self, battle: Battle, side: str | None):
        self._fill(battle, side)

    def _fill(self, battle: Battle, side: str | None) -> None:
        self.units = [u for u in battle.units.values()
                      if not u.eliminated and (side is None or u.side == side)]
        self.index = None

    def follow(self, battle: Battle, side: str | None, changes) -> None:
        if self.index is None:
            self.index = {u.id: k for k, u in enumerate(self.units)}
        patches = patched_in_place(self.index, battle, side, changes)
        if patches is None:
            return self._fill(battle, side)
        for k, u in patches:
            self.units[k] = u


def patched_in_place(index: dict, battle: Battle, side: str | None, changes):
    """The (place, new record) of each unit of a `live_units(side)` view (`index`: id ->
    place) that the journal's `changes` changed in place (moved, hit, re-formed), or None
    when the view must be rebuilt (a unit gone, arrived or come back): a unit changed in
    place keeps its place in `battle.units` (dict order), so in the view too."""
    units, patches = battle.units, []
    for change in changes:
        if change[0] != "unit":
            continue
        u, k = units.get(change[1]), index.get(change[1])
        live = u is not None and not u.eliminated and (side is None or u.side == side)
        if k is None and not live:
            continue                        # none of this view's units
        if k is None or not live:           # a newcomer, or one gone: rebuild
            return None
        patches.append((k, u))
    return patches
