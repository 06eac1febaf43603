"""Scenario edits as actions: the editor's tools and the CLI build these, nothing else
writes the model. Each checks that the battle stays one the rules would accept (no unit
where its ruleset forbids it, one unit a box on a grid, ids unique) and is undoable
through the Session like any game move."""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

from .actions import Action, need, register
from .errors import IllegalAction
from .events import ScenarioEdited
from .model.battlefield import TERRAIN_ALIASES, TERRAIN_KINDS, TerrainFeature, shape_of
from .model.forces import UNIT_KINDS, UNIT_TRAITS, Command, Leader, Unit
from .placement import placement_problem

EDITABLE = {"name": str, "kind": str, "hits": int, "guard": bool, "fixed": bool,
            "nation": str, "sharpshooters": bool, "formation": str, "traits": tuple}


def taken_ids(battle) -> set[str]:
    return (set(battle.all_units()) | set(battle.all_leaders()) | set(battle.commands)
            | set(battle.sides))


def fresh_id(taken: set, stem: str) -> str:
    """An id from `stem` not in `taken` (which it joins): 'imperial-guard', then '-2', ..."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in stem.lower()).strip("-") or "x"
    n, candidate = 1, stem
    while candidate in taken:
        n += 1
        candidate = f"{stem}-{n}"
    taken.add(candidate)
    return candidate


def _check_spot(battle, ruleset, kind: str, pos, moving: str = "") -> None:
    """May a piece of this kind stand at pos (inches)? `moving` is the unit being moved."""
    problem = placement_problem(battle, ruleset, kind, pos, moving)
    need(not problem, problem)


def _snap(battle, pos):
    """On a grid every piece stands at its box's centre."""
    g = battle.battlefield.grid
    if not g:
        return float(pos[0]), float(pos[1])
    return ((int(pos[0] // g) + 0.5) * g, (int(pos[1] // g) + 0.5) * g)


@register
@dataclass(frozen=True)
class PlaceUnit(Action):
    id: str
    name: str
    kind: str
    command: str
    pos: tuple
    facing: int = 0

    def validate(self, battle, ruleset):
        need(self.id and self.id not in taken_ids(battle), f"the id {self.id!r} is taken or empty")
        need(self.kind in UNIT_KINDS, f"unknown unit kind {self.kind!r}")
        need(self.command in battle.commands, f"there is no command {self.command!r}")
        need(not (battle.battlefield.grid and self.facing % 45),
             "on a grid a unit faces a multiple of 45 degrees")
        ruleset.profile(self.kind)
        _check_spot(battle, ruleset, self.kind, _snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        hits = ruleset.profile(self.kind).get("hits", 1)
        cmd = battle.commands[self.command]
        x, y = _snap(battle, self.pos)
        u = Unit(self.id, self.name or self.id, self.kind, cmd.side, hits, hits, x, y,
                 self.facing % 360, nation=cmd.nation)
        from .arrival_edit import join_arrival, whole_arrival
        whole = whole_arrival(battle, self.command)
        if whole is not None:           # a command still to come: the new unit comes with it
            join_arrival(battle, whole, self.command, u)
            return [ScenarioEdited(f"{u.name} placed in {cmd.name}, {whole.describe()}")]
        battle.put_unit(u)
        battle.set_hierarchy(battle.hierarchy.with_unit(self.command, self.id))
        return [ScenarioEdited(f"{self.name or self.id} placed in {cmd.name}")]


@register
@dataclass(frozen=True)
class RemoveUnit(Action):
    unit: str

    def validate(self, battle, ruleset):
        from .arrival_edit import leader_back_problem, pending_unit
        coming = pending_unit(battle, self.unit)
        need(self.unit in battle.units or coming, f"there is no unit {self.unit!r}")
        if coming and len(coming[0].units) == 1:      # the last of a command's arrival
            why = leader_back_problem(battle, ruleset, coming[0])
            need(not why, why)

    def apply(self, battle, ruleset, dice):
        from .arrival_edit import take_from_arrival
        if self.unit not in battle.units:             # still to come: out of its arrival
            _, u = take_from_arrival(battle, self.unit)
            return [ScenarioEdited(f"{u.name} removed (it was still to arrive)")]
        name = battle.units[self.unit].name
        battle.drop_unit(self.unit)
        battle.set_hierarchy(battle.hierarchy.without_unit(self.unit))
        return [ScenarioEdited(f"{name} removed")]


@register
@dataclass(frozen=True)
class RelocateUnit(Action):
    """The editor's move: anywhere the rules let the unit stand, at no cost."""
    unit: str
    pos: tuple
    facing: int

    def validate(self, battle, ruleset):
        need(self.unit in battle.units, f"there is no unit {self.unit!r}")
        u = battle.units[self.unit]
        need(not u.eliminated, f"{u.name} has been eliminated")
        need(not (battle.battlefield.grid and self.facing % 45),
             "on a grid a unit faces a multiple of 45 degrees")
        _check_spot(battle, ruleset, u.kind, _snap(battle, self.pos), moving=u.id)

    def apply(self, battle, ruleset, dice):
        x, y = _snap(battle, self.pos)
        u = battle.update_unit(self.unit, x=x, y=y, facing=self.facing % 360)
        return [ScenarioEdited(f"{u.name} placed at ({x:g}, {y:g})")]


@register
@dataclass(frozen=True)
class EditUnit(Action):
    unit: str
    changes: tuple            # ((field, value), ...)

    def validate(self, battle, ruleset):
        need(self.unit in battle.units, f"there is no unit {self.unit!r}")
        u = battle.units[self.unit]
        fields = dict(self.changes)
        for key, value in fields.items():
            need(key in EDITABLE, f"{key!r} cannot be edited; editable: {', '.join(EDITABLE)}")
            need(isinstance(value, EDITABLE[key]) and not (EDITABLE[key] is int and isinstance(value, bool)),
                 f"{key} must be {EDITABLE[key].__name__}, not {value!r}")
        kind = fields.get("kind", u.kind)
        need(kind in UNIT_KINDS, f"unknown unit kind {kind!r}")
        bad = [t for t in fields.get("traits", ()) if t not in UNIT_TRAITS]
        need(not bad, f"traits are {', '.join(UNIT_TRAITS)}; not {', '.join(map(str, bad))}")
        top = ruleset.profile(kind).get("hits", 1)
        hits = fields.get("hits", min(u.hits, top))
        need(1 <= hits <= top, f"hits must be 1 to {top} for this kind, not {hits}")
        if "kind" in fields:
            _check_spot(battle, ruleset, kind, u.pos, moving=u.id)
        need(fields.get("name", u.name).strip() != "", "a unit needs a name")

    def apply(self, battle, ruleset, dice):
        u = battle.units[self.unit]
        fields = dict(self.changes)
        kind = fields.get("kind", u.kind)
        top = ruleset.profile(kind).get("hits", 1)
        fields.setdefault("hits", min(u.hits, top))
        if "traits" in fields:
            fields["traits"] = tuple(sorted(set(fields["traits"])))
        u = battle.update_unit(self.unit, max_hits=top, **fields)
        return [ScenarioEdited(f"{u.name} edited: {', '.join(sorted(dict(self.changes)))}")]


@register
@dataclass(frozen=True)
class ReassignUnit(Action):
    unit: str
    command: str

    """A unit changes command. Reinforcements stay what they were: a unit joining a
    command that arrives as a whole arrives with it; a unit leaving one keeps its timing
    as an arrival of its own; a unit with its own arrival keeps it."""

    def validate(self, battle, ruleset):
        from .arrival_edit import leader_back_problem, pending_unit, whole_arrival
        coming = pending_unit(battle, self.unit)
        need(self.unit in battle.units or coming, f"there is no unit {self.unit!r}")
        need(self.command in battle.commands, f"there is no command {self.command!r}")
        u = battle.units[self.unit] if coming is None else coming[2]
        c = battle.commands[self.command]
        need(u.side == c.side, f"{u.name} cannot join {c.name}: another side")
        cid = coming[1] if coming else battle.hierarchy.command_of(u.id)
        need(cid != c.id, f"{u.name} is already in {c.name}")
        whole = whole_arrival(battle, c.id)
        need(whole is None or not battle.state.started,
             f"{c.name} is still to arrive: a unit joins it before the battle begins")
        need(whole is None or not u.eliminated, f"{u.name} has been eliminated")
        need(not (coming and coming[0].scope == "unit" and whole),
             f"{u.name} has its own arrival and {c.name} arrives as a whole: "
             f"clear one of the two first")
        if coming and coming[0].scope == "command" and len(coming[0].units) == 1 and not whole:
            why = leader_back_problem(battle, ruleset, coming[0])
            need(not why, why)

    def apply(self, battle, ruleset, dice):
        from .arrival_edit import join_arrival, own_arrival, pending_unit, take_from_arrival, \
            whole_arrival
        c = battle.commands[self.command]
        whole = whole_arrival(battle, c.id)
        coming = pending_unit(battle, self.unit)
        if coming is None and whole is None:          # on the table, and stays there
            battle.set_hierarchy(battle.hierarchy.reassigned(self.unit, self.command))
            return [ScenarioEdited(f"{battle.units[self.unit].name} joins {c.name}")]
        if coming is None:                            # off the table with its new command
            u = battle.units[self.unit]
            battle.drop_unit(u.id)
            battle.set_hierarchy(battle.hierarchy.without_unit(u.id))
            join_arrival(battle, whole, c.id, u)
            return [ScenarioEdited(f"{u.name} joins {c.name}, {whole.describe()}")]
        a = coming[0]
        if a.scope == "unit":                         # its own arrival, a new command
            battle.set_pending(replace(p, units=((c.id, coming[2]),)) if p.id == a.id else p
                               for p in battle.pending)
            return [ScenarioEdited(f"{coming[2].name} joins {c.name}, {a.describe()}")]
        _, u = take_from_arrival(battle, self.unit)
        if whole is not None:
            join_arrival(battle, whole_arrival(battle, c.id), c.id, u)
            return [ScenarioEdited(f"{u.name} joins {c.name}, {whole.describe()}")]
        own_arrival(battle, c.id, u, a)
        return [ScenarioEdited(f"{u.name} joins {c.name}, still {a.describe()}")]


@register
@dataclass(frozen=True)
class AddCommand(Action):
    side: str
    id: str
    name: str
    leader_id: str = ""
    leader_name: str = ""
    leader_pos: tuple = ()
    quality: int = 3

    def validate(self, battle, ruleset):
        need(self.side in battle.sides, f"there is no side {self.side!r}")
        need(self.id and self.id not in taken_ids(battle), f"the id {self.id!r} is taken or empty")
        need(self.name.strip(), "a command needs a name")
        if self.leader_id:
            need(self.leader_id not in taken_ids(battle) and self.leader_id != self.id,
                 f"the id {self.leader_id!r} is taken")
            need(0 <= self.quality <= 6,
                 "leader quality is 1 (abysmal) to 6 (superior), or 0 to roll at the start")
            _check_spot(battle, ruleset, "leader", _snap(battle, self.leader_pos))

    def apply(self, battle, ruleset, dice):
        nation = battle.sides[self.side].nation
        battle.put_command(Command(self.id, self.name, self.side, nation))
        h = battle.hierarchy.with_command(self.side, self.id, self.leader_id)
        if self.leader_id:
            x, y = _snap(battle, self.leader_pos)
            battle.put_leader(Leader(self.leader_id, self.leader_name or self.leader_id,
                                     self.side, x, y, self.quality))
        battle.set_hierarchy(h)
        return [ScenarioEdited(f"command {self.name} formed")]


@register
@dataclass(frozen=True)
class AppointGeneral(Action):
    """Give an army without a commander-in-chief its general (e.g. from the OOB library)."""
    side: str
    id: str
    name: str
    pos: tuple
    quality: int = 3
    trait: str = ""

    def validate(self, battle, ruleset):
        need(self.side in battle.sides, f"there is no side {self.side!r}")
        need(not battle.sides[self.side].general,
             f"{battle.sides[self.side].name} already has a general")
        need(self.id and self.id not in taken_ids(battle), f"the id {self.id!r} is taken or empty")
        need(0 <= self.quality <= 6, "leader quality is 1 (abysmal) to 6 (superior), or 0 to roll")
        need(not self.trait or self.trait in ruleset.traits,
             f"{self.trait!r} is not a trait of {ruleset.name}")
        _check_spot(battle, ruleset, "leader", _snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        x, y = _snap(battle, self.pos)
        battle.put_leader(Leader(self.id, self.name or self.id, self.side, x, y, self.quality,
                                 self.trait))
        battle.put_side(replace(battle.sides[self.side], general=self.id))
        battle.set_hierarchy(battle.hierarchy.with_general(self.side, self.id))
        return [ScenarioEdited(f"{self.name} commands {battle.sides[self.side].name}")]


@register
@dataclass(frozen=True)
class RenameCommand(Action):
    command: str
    name: str

    def validate(self, battle, ruleset):
        need(self.command in battle.commands, f"there is no command {self.command!r}")
        need(self.name.strip(), "a command needs a name")

    def apply(self, battle, ruleset, dice):
        old = battle.commands[self.command]
        battle.put_command(replace(old, name=self.name.strip()))
        return [ScenarioEdited(f"{old.name} renamed {self.name.strip()}")]


@register
@dataclass(frozen=True)
class RemoveCommand(Action):
    """Disband a command: its units and its leader leave the battle with it."""
    command: str

    def validate(self, battle, ruleset):
        need(self.command in battle.commands, f"there is no command {self.command!r}")
        side = battle.commands[self.command].side
        need(len(battle.hierarchy.commands_of(side)) > 1,
             f"{battle.commands[self.command].name} is the last command of its army")

    def apply(self, battle, ruleset, dice):
        from .arrival_edit import drop_arrivals_of_command
        h = battle.hierarchy
        cmd = battle.commands[self.command]
        drop_arrivals_of_command(battle, self.command)   # its reinforcements go with it
        for uid in h.units_of(self.command):
            battle.drop_unit(uid)
        leader = h.leader_of_command(self.command)
        if leader:
            del battle.leaders[leader]
        del battle.commands[self.command]
        battle.set_hierarchy(h.without_command(self.command))
        return [ScenarioEdited(f"command {cmd.name} disbanded")]


LEADER_EDITABLE = {"name": str, "quality": int, "trait": str, "hits": int}


@register
@dataclass(frozen=True)
class EditLeader(Action):
    leader: str
    changes: tuple            # ((field, value), ...)

    def validate(self, battle, ruleset):
        need(self.leader in battle.leaders, f"there is no leader {self.leader!r}")
        l = battle.leaders[self.leader]
        for key, value in self.changes:
            need(key in LEADER_EDITABLE,
                 f"{key!r} cannot be edited; editable: {', '.join(LEADER_EDITABLE)}")
            need(isinstance(value, LEADER_EDITABLE[key]) and not isinstance(value, bool),
                 f"{key} must be {LEADER_EDITABLE[key].__name__}, not {value!r}")
        fields = dict(self.changes)
        need(0 <= fields.get("quality", l.quality) <= 6,
             "quality is 1 (abysmal) to 6 (superior), or 0 to roll at the start")
        need(1 <= fields.get("hits", l.hits) <= l.max_hits, f"hits must be 1 to {l.max_hits}")
        trait = fields.get("trait", l.trait)
        need(not trait or trait in ruleset.traits,
             f"unknown trait {trait!r}; known: {', '.join(ruleset.traits) or 'none'}")
        need(fields.get("name", l.name).strip() != "", "a leader needs a name")

    def apply(self, battle, ruleset, dice):
        l = battle.update_leader(self.leader, **dict(self.changes))
        return [ScenarioEdited(f"{l.name} edited: {', '.join(sorted(dict(self.changes)))}")]


@register
@dataclass(frozen=True)
class RelocateLeader(Action):
    leader: str
    pos: tuple

    def validate(self, battle, ruleset):
        need(self.leader in battle.leaders, f"there is no leader {self.leader!r}")
        _check_spot(battle, ruleset, "leader", _snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        x, y = _snap(battle, self.pos)
        l = battle.update_leader(self.leader, x=x, y=y)
        return [ScenarioEdited(f"{l.name} placed at ({x:g}, {y:g})")]


def _need_points(kind: str, points) -> None:
    least = {"area": 3, "line": 2, "point": 1}[shape_of(kind)]
    need(len(points) >= least, f"a {kind} needs at least {least} point(s)")


def _terrain_blocks_units(battle, ruleset, features) -> None:
    """Refuse terrain that would leave a unit standing where its rules forbid."""
    probe = battle.copy()
    from .model.battlefield import Battlefield
    probe.set_battlefield(Battlefield(battle.battlefield.width, battle.battlefield.height,
                                      battle.battlefield.grid, tuple(features)))
    refuse = getattr(ruleset, "position_refusal", None)
    if not refuse:
        return
    for u in probe.live_units():
        why = refuse(probe, u.kind, u.pos)
        need(not why, f"that terrain would leave {u.name} where it cannot stand: {why}")


@register
@dataclass(frozen=True)
class AddTerrain(Action):
    id: str
    kind: str
    points: tuple
    name: str = ""
    level: int = 1

    def validate(self, battle, ruleset):
        kind = TERRAIN_ALIASES.get(self.kind, self.kind)
        need(kind in TERRAIN_KINDS, f"unknown terrain kind {self.kind!r}")
        need(self.id and all(f.id != self.id for f in battle.battlefield.features),
             f"the terrain id {self.id!r} is taken or empty")
        _need_points(kind, self.points)
        _terrain_blocks_units(battle, ruleset, battle.battlefield.features + (self._feature(),))

    def _feature(self):
        kind = TERRAIN_ALIASES.get(self.kind, self.kind)
        return TerrainFeature(self.id, kind, tuple((float(x), float(y)) for x, y in self.points),
                              self.name, self.level)

    def apply(self, battle, ruleset, dice):
        battle.set_battlefield(battle.battlefield.with_feature(self._feature()))
        return [ScenarioEdited(f"{self.name or self.kind} added")]


@register
@dataclass(frozen=True)
class RemoveTerrain(Action):
    id: str

    def validate(self, battle, ruleset):
        need(any(f.id == self.id for f in battle.battlefield.features),
             f"there is no terrain {self.id!r}")
        _terrain_blocks_units(battle, ruleset, [f for f in battle.battlefield.features
                                                if f.id != self.id])

    def apply(self, battle, ruleset, dice):
        battle.set_battlefield(battle.battlefield.without_feature(self.id))
        return [ScenarioEdited(f"terrain {self.id} removed")]


@register
@dataclass(frozen=True)
class ReshapeTerrain(Action):
    id: str
    points: tuple

    def validate(self, battle, ruleset):
        try:
            f = battle.battlefield.feature(self.id)
        except KeyError:
            raise IllegalAction(f"there is no terrain {self.id!r}") from None
        _need_points(f.kind, self.points)
        _terrain_blocks_units(battle, ruleset, [f.moved(self.points) if f.id == self.id else f
                                                for f in battle.battlefield.features])

    def apply(self, battle, ruleset, dice):
        f = battle.battlefield.feature(self.id).moved(self.points)
        battle.set_battlefield(battle.battlefield.with_feature(f))
        return [ScenarioEdited(f"{f.name or f.kind} reshaped")]


@register
@dataclass(frozen=True)
class SetOption(Action):
    key: str
    value: object

    def validate(self, battle, ruleset):
        try:
            ruleset.check_options({**battle.info.options, self.key: self.value})
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    def apply(self, battle, ruleset, dice):
        opts = dict(battle.info.options, **{self.key: self.value})
        battle.set_info(replace(battle.info, options=MappingProxyType(opts)))
        return [ScenarioEdited(f"option {self.key} = {self.value!r}")]


TERRAIN_FIELDS = {"name": str, "variant": str, "level": int}


@register
@dataclass(frozen=True)
class EditTerrain(Action):
    """Name a river, set a wood's or a wall's variant, a hill's level: the properties
    panel's edits of a terrain feature (its shape is ReshapeTerrain's)."""
    id: str
    changes: tuple            # ((field, value), ...)

    def validate(self, battle, ruleset):
        try:
            battle.battlefield.feature(self.id)
        except KeyError:
            raise IllegalAction(f"there is no terrain {self.id!r}") from None
        for key, value in self.changes:
            kind = TERRAIN_FIELDS.get(key)
            need(kind is not None, f"terrain has no field {key!r} "
                                   f"(fields: {', '.join(TERRAIN_FIELDS)})")
            need(isinstance(value, kind) and not isinstance(value, bool),
                 f"{key} must be {'a number' if kind is int else 'text'}, not {value!r}")
            if key == "level":
                need(1 <= value <= 9, f"a hill's level is 1 to 9, not {value}")
            else:
                need(len(value) <= 80 and value.isprintable(),
                     f"{key} must be printable text of at most 80 characters")

    def apply(self, battle, ruleset, dice):
        f = replace(battle.battlefield.feature(self.id), **dict(self.changes))
        battle.set_battlefield(battle.battlefield.with_feature(f))
        return [ScenarioEdited(f"{f.name or f.kind}: " + ", ".join(f"{k} {v}" for k, v in self.changes))]
