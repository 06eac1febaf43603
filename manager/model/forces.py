"""Sides, commands, units and leaders: immutable records replaced on every change.

Records are frozen so a snapshot of the battle is a copy of a few dicts, which is
what makes undo, replay and all-or-nothing actions cheap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

# The generic kinds a scenario names; each ruleset maps them to its own profile.
UNIT_KINDS = (
    "line_infantry", "light_infantry", "grenadiers", "guard_infantry", "militia", "rifles",
    "skirmishers", "light_cavalry", "heavy_cavalry", "guard_cavalry",
    "foot_artillery", "horse_artillery", "heavy_artillery",
)
INFANTRY_KINDS = frozenset({"line_infantry", "light_infantry", "grenadiers", "guard_infantry",
                            "militia", "rifles", "skirmishers"})
CAVALRY_KINDS = frozenset({"light_cavalry", "heavy_cavalry", "guard_cavalry"})
ARTILLERY_KINDS = frozenset({"foot_artillery", "horse_artillery", "heavy_artillery"})
# What a scenario may say of a unit beyond its kind; rulesets that care read them
# (armoured: cuirassiers and life guards; veteran and conscript: a morale grade).
UNIT_TRAITS = ("lancers", "armoured", "veteran", "conscript")


def evolve(record, **changes):
    """A copy of a frozen slotted record with some fields changed.

    dataclasses.replace re-runs __init__ through generic machinery; the engine replaces
    a record on every hit and move, so this copies the slots directly, by a function
    written once per class and set of changed names (no loop, no test per slot: a name
    is copied or changed as the function was written). Unknown field names are
    refused, as replace would.
    """
    key = (record.__class__, *changes)
    copier = _COPIERS.get(key)
    if copier is None:
        if len(_COPIERS) > 2048:                  # callers pass a few sets of names; bounded
            _COPIERS.clear()
        copier = _COPIERS[key] = _copier(record.__class__, key[1:])
    return copier(record, changes)


_COPIERS: dict = {}


def _copier(cls, changed: tuple):
    """copy(record, changes): a new record of cls, the `changed` slots from changes, the
    others from record. The slots are filled as plain attributes of a mutable twin of
    the class (the same slots in the same order, so the same layout: a store is one
    bytecode, where a frozen record's own descriptors cost a call each, twice the
    time), then the new record is made a cls by __class__ assignment, which Python
    allows between classes of the same layout and checks."""
    names = cls.__slots__
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(unknown))}")
    twin = _twin(cls)
    lines = ["def copy(record, changes):", "    new = make(twin)"]
    for name in names:
        value = f"changes[{name!r}]" if name in changed else f"record.{name}"
        lines.append(f"    new.{name} = {value}")
    lines.append("    new.__class__ = cls")
    lines.append("    return new")
    scope = {"make": object.__new__, "cls": cls, "twin": twin}
    exec("\n".join(lines), scope)                 # names are the class's own slots
    return scope["copy"]


def _twin(cls) -> type:
    """A mutable class with cls's slots, whose instances may become cls's."""
    twin = _TWINS.get(cls)
    if twin is None:
        twin = _TWINS[cls] = type(f"_{cls.__name__}Twin", cls.__bases__,
                                  {"__slots__": cls.__slots__})
        object.__new__(twin).__class__ = cls      # refused here, not mid-action, if unlike
    return twin


_TWINS: dict = {}


def arm_of(kind: str) -> str:
    if kind in INFANTRY_KINDS:
        return "infantry"
    if kind in CAVALRY_KINDS:
        return "cavalry"
    if kind in ARTILLERY_KINDS:
        return "artillery"
    raise ValueError(f"unknown unit kind {kind!r}")


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    name: str
    kind: str
    side: str
    hits: int
    max_hits: int
    x: float
    y: float
    facing: int = 0                 # degrees clockwise from north
    formation: str = "line"
    guard: bool = False             # Guard artillery and the like
    fixed: bool = False             # may change facing only (the Santon guns)
    nation: str = ""
    sharpshooters: bool = False
    eliminated: bool = False
    # per player-turn state, cleared when a side's turn begins
    moved: int = 0                  # 0 not yet, 1 turned or re-formed in place, 2 changed box
    fired: bool = False
    fire_hits: int = 0
    fell_back: bool = False
    disordered: bool = False
    traits: tuple = ()              # sorted names from UNIT_TRAITS
    marks: tuple = ()               # the ruleset's own state: sorted (key, value) pairs

    @property
    def arm(self) -> str:
        return arm_of(self.kind)

    # (x, y): a C getter, no Python frame (the rules ask it ~100,000 times a turn)
    pos = property(attrgetter("x", "y"))


def mark(record, key: str, default=None):
    """A ruleset's mark on a unit (or the turn state), or `default`."""
    for k, v in record.marks:
        if k == key:
            return v
    return default


def with_marks(marks: tuple, **changes) -> tuple:
    """Marks with some keys set (a value of None removes the key), kept sorted."""
    d = dict(marks)
    for k, v in changes.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return tuple(sorted(d.items()))


@dataclass(frozen=True, slots=True)
class Leader:
    id: str
    name: str
    side: str
    x: float
    y: float
    quality: int = 0                # 1 abysmal .. 6 superior; 0 = roll at the start
    trait: str = ""                 # national characteristic: napoleon, wellington, ...
    hits: int = 2
    max_hits: int = 2
    eliminated: bool = False
    rallied: bool = False
    moved: bool = False

    # (x, y): a C getter, no Python frame (the rules ask it ~100,000 times a turn)
    pos = property(attrgetter("x", "y"))


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    nation: str = ""
    home_edge: str = "west"         # the table edge the side retreats towards
    colour: str = "#3050a0"
    general: str = ""               # leader id of the army commander


@dataclass(frozen=True, slots=True)
class Command:
    id: str
    name: str
    side: str
    nation: str = ""
    orders: dict = field(default_factory=dict, hash=False, compare=True)
    note: str = ""
