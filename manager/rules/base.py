"""What every ruleset provides: profiles, options, a phase table and resolvers.

The engine knows only this interface. A ruleset maps the scenario's generic unit
kinds to its own profiles, declares its options (with defaults and the choices a
club might argue about), lists its phases as data, and registers one checker and
one resolver per action class it plays.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import IllegalAction


@dataclass(frozen=True)
class UnitProfile:
    kind: str                 # the generic kind this profile serves
    label: str                # the ruleset's own name for it
    arm: str                  # infantry, cavalry, artillery
    stats: dict = field(default_factory=dict, hash=False)   # the ruleset's table row

    def __getitem__(self, key):
        return self.stats[key]

    def get(self, key, default=None):
        return self.stats.get(key, default)


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    help: str
    choices: tuple = ()

    def check(self, value) -> Any:
        if self.choices and value not in self.choices:
            raise ValueError(f"one of {', '.join(map(repr, self.choices))}")
        if isinstance(self.default, bool) and not isinstance(value, bool):
            raise ValueError("true or false")
        if isinstance(self.default, (int, float)) and not isinstance(self.default, bool):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError("a number")
        return value


@dataclass(frozen=True)
class SituationField:
    """One thing the table-side umpire types instead of reading it off the map."""
    key: str
    label: str
    default: Any
    choices: tuple = ()          # allowed values (a choice); empty for a number or flag
    low: int | None = None
    high: int | None = None
    help: str = ""

    def read(self, value) -> Any:
        if self.choices:
            if value not in self.choices:
                raise IllegalAction(f"{self.label}: one of {', '.join(map(str, self.choices))}, "
                                    f"not {value!r}")
        elif isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise IllegalAction(f"{self.label}: yes or no, not {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or not (
                (self.low is None or value >= self.low) and (self.high is None or value <= self.high)):
            raise IllegalAction(f"{self.label}: a whole number from {self.low} to {self.high}, "
                                f"not {value!r}")
        return value


def read_situation(fields: list[SituationField], situation) -> dict:
    """The typed situation as {key: value}, defaults filled, every value checked."""
    known = {f.key: f for f in fields}
    given = dict(situation)
    unknown = set(given) - set(known)
    if unknown:
        raise IllegalAction(f"unknown situation {', '.join(sorted(unknown))}; "
                            f"expected {', '.join(known) or 'nothing'}")
    return {k: f.read(given.get(k, f.default)) for k, f in known.items()}


def roll_leader_qualities(battle, dice, label_of: Callable[[int], str],
                          purpose: str = "leader quality") -> list:
    """At the start: a D6 for every leader without a rating (every leader when the
    scenario's `leader_quality` option says `rolled`)."""
    from ..events import LeaderQualityRolled
    events = []
    rolled = battle.option("leader_quality") == "rolled"
    for lid in sorted(battle.leaders):
        leader = battle.leaders[lid]
        if rolled or not leader.quality:
            q = dice.d6(f"{purpose}: {leader.name}")
            battle.update_leader(lid, quality=q)
            events.append(LeaderQualityRolled(leader.name, q, label_of(q)))
    return events


@dataclass(frozen=True)
class Phase:
    name: str
    label: str
    actions: frozenset          # action class names allowed in this phase
    help: str = ""


class Ruleset:
    """Base class: subclasses fill in the data and register their resolvers."""
    id = ""
    name = ""
    measure = "grid"            # "grid" (boxes) or "inches"
    profiles: dict[str, UnitProfile] = {}
    options: tuple[Option, ...] = ()
    phases: tuple[Phase, ...] = ()
    traits: tuple[str, ...] = ()        # leader characteristics a scenario may name
    formations: tuple[str, ...] = ("line",)
    # the phase in which reinforcements come on, at the start of their side's move
    arrival_phase = "move"

    def __init__(self):
        self._checkers: dict[str, Callable] = {}
        self._resolvers: dict[str, Callable] = {}
        self._odds: dict[str, Callable] = {}

    # ---- registration ----------------------------------------------------------------
    def plays(self, action_cls, check: Callable, resolve: Callable,
              odds: Callable | None = None) -> None:
        """Register an action's checker and resolver, and `odds(battle, action)` if its
        outcome can be told exactly before the dice."""
        self._checkers[action_cls.__name__] = check
        self._resolvers[action_cls.__name__] = resolve
        if odds is not None:
            self._odds[action_cls.__name__] = odds

    # ---- the engine's calls --------------------------------------------------------------
    def check(self, battle, action) -> None:
        # an automatic commander asks `legal` of the very action it then executes, at the
        # same battle version: the check of the execute is the same question, answered
        # (the store is the battle's cache, emptied by every change; kept by identity,
        # the action held so its id is never another's)
        passed = battle.cached("checked_actions", dict)
        if passed.get(id(action)) is action:
            return
        self._check(battle, action)
        passed[id(action)] = action

    def _check(self, battle, action) -> None:
        name = action.__class__.__name__
        if name not in self._checkers:
            raise IllegalAction(f"{self.name} has no {name} move")
        if name != "StartBattle":
            state = battle.state
            if not state.started:
                raise IllegalAction("the battle has not started: start it first")
            phase = self.phase(state.phase)
            if name not in phase.actions:
                allowed = ", ".join(sorted(phase.actions))
                side = battle.sides.get(state.active)
                whose = f" of {side.name}'s turn" if side is not None else ""
                raise IllegalAction(f"{name} is not allowed in the {phase.label} phase"
                                    f"{whose} (allowed: {allowed})")
        self._checkers[name](battle, action)

    def resolve(self, battle, action, dice) -> list:
        return self._resolvers[action.__class__.__name__](battle, action, dice)

    _phase_table = None          # (the phases it was made from, name -> first such phase)

    def phase(self, name: str) -> Phase:
        # asked by every check (the commanders check thousands of orders a turn): by
        # name from a table of the phases, rebuilt should a ruleset's phases change
        table = self._phase_table
        if table is None or table[0] is not self.phases:
            first: dict = {}
            for p in self.phases:
                first.setdefault(p.name, p)
            table = self._phase_table = (self.phases, first)
        p = table[1].get(name)
        if p is None:
            raise IllegalAction(f"unknown phase {name!r}")
        return p

    def profile(self, kind: str) -> UnitProfile:
        try:
            return self.profiles[kind]
        except KeyError:
            raise IllegalAction(f"{self.name} has no profile for unit kind {kind!r}") from None

    def option_defaults(self) -> dict:
        return {o.key: o.default for o in self.options}

    def check_options(self, options: dict) -> dict:
        """Merge a scenario's options over the defaults; raise ValueError naming the key."""
        known = {o.key: o for o in self.options}
        merged = self.option_defaults()
        for key, value in options.items():
            if key not in known:
                raise ValueError(f"unknown option {key!r} for {self.id} "
                                 f"(known: {', '.join(sorted(known))})")
            try:
                merged[key] = known[key].check(value)
            except ValueError as exc:
                raise ValueError(f"option {key!r} must be {exc}") from None
        return merged

    # ---- queries the UI and the automatic commander use (rulesets override) ----------------
    def odds(self, battle, action):
        name = action.__class__.__name__
        if name not in self._odds:
            raise IllegalAction(f"{self.name} gives no odds for {name}")
        return self._odds[name](battle, action)

    def choices(self, battle, action) -> list[tuple[str, Any]]:
        """The player's choices that bear on `action` (a charge or a melee about to be
        resolved), as (label, action) pairs the umpire may take, each one action through
        the session: a general committed, a counter-charge, a re-roll declined. None here."""
        return []

    def scenario_notes(self, battle) -> list[str]:
        """What the ruleset would tell a scenario author about this battle."""
        return []

    def to_act(self, battle) -> list[str]:
        """Pieces of the active side that can still act this phase."""
        return []

    def commander(self, battle, side: str):
        raise NotImplementedError

    def tableside_fields(self, battle, action) -> list[SituationField]:
        """What the umpire types for a table-side TableFire or TableMelee (none: unsupported)."""
        return []

    def melees(self, battle) -> list:
        """Melees still to fight this phase (objects with .defender, .attackers, .may_join)."""
        return []

    # ---- what the battlefield view draws (inches; rulesets measured in boxes override) --
    FRONTAGE = {"infantry": (4.0, 1.0), "cavalry": (4.0, 1.5), "artillery": (2.0, 2.0)}

    def footprint(self, battle, unit) -> tuple[float, float]:
        """(frontage, depth) of the unit's base on the table, in inches."""
        return self.FRONTAGE.get(self.profile(unit.kind).arm, (3.0, 1.0))

    def unit_flags(self, battle, unit) -> list[str]:
        """Short words for the state a player looks for on a unit ("disordered", "fell
        back"), for views that cannot draw the map's marks (the players' page)."""
        flags = []
        if unit.disordered:
            flags.append("disordered")
        if unit.fell_back:
            flags.append("fell back")
        return flags

    def command_area(self, battle, leader) -> list[tuple]:
        """Outline(s) of the ground a leader commands, as polygons in inches."""
        return []

    def reach_area(self, battle, unit) -> list[tuple]:
        """Polygons (inches) the unit could move to now; [] when it cannot move."""
        return []

    # degrees either side of the front a unit may shoot, where the rules give one
    fire_arc: float | None = None

    def range_bands(self, battle, unit) -> list[tuple[str, float]]:
        """The unit's shooting ranges as (label, inches), nearest first, for the map's
        bands on an open table; [] where it does not shoot or the table is gridded."""
        return []

    def describe_profiles(self) -> list[dict]:
        return [{"kind": p.kind, "label": p.label, "arm": p.arm, **p.stats}
                for p in self.profiles.values()]
