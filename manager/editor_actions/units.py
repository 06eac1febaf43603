"""Unit edits: place, remove, relocate, edit, move to another command."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..actions import Action, need, register
from ..events import ScenarioEdited
from ..model.forces import UNIT_KINDS, UNIT_TRAITS, Unit
from .placing import check_spot, snap, taken_ids

EDITABLE = {"name": str, "kind": str, "hits": int, "guard": bool, "fixed": bool,
            "nation": str, "sharpshooters": bool, "formation": str, "traits": tuple}



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
        check_spot(battle, ruleset, self.kind, snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        hits = ruleset.profile(self.kind).get("hits", 1)
        cmd = battle.commands[self.command]
        x, y = snap(battle, self.pos)
        u = Unit(self.id, self.name or self.id, self.kind, cmd.side, hits, hits, x, y,
                 self.facing % 360, nation=cmd.nation)
        from ..arrival_edit import join_arrival, whole_arrival
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
        from ..arrival_edit import leader_back_problem, pending_unit
        coming = pending_unit(battle, self.unit)
        need(self.unit in battle.units or coming, f"there is no unit {self.unit!r}")
        if coming and len(coming[0].units) == 1:      # the last of a command's arrival
            why = leader_back_problem(battle, ruleset, coming[0])
            need(not why, why)

    def apply(self, battle, ruleset, dice):
        from ..arrival_edit import take_from_arrival
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
        check_spot(battle, ruleset, u.kind, snap(battle, self.pos), moving=u.id)

    def apply(self, battle, ruleset, dice):
        x, y = snap(battle, self.pos)
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
            check_spot(battle, ruleset, kind, u.pos, moving=u.id)
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
        from ..arrival_edit import leader_back_problem, pending_unit, whole_arrival
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
        from ..arrival_edit import join_arrival, own_arrival, pending_unit, take_from_arrival, \
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
