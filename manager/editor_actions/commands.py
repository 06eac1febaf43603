"""Command and leader edits: form, rename and disband a command, appoint a general, edit
and place a leader."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..actions import Action, need, register
from ..events import ScenarioEdited
from ..model.forces import Command, Leader
from .placing import check_spot, snap, taken_ids


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
            check_spot(battle, ruleset, "leader", snap(battle, self.leader_pos))

    def apply(self, battle, ruleset, dice):
        nation = battle.sides[self.side].nation
        battle.put_command(Command(self.id, self.name, self.side, nation))
        h = battle.hierarchy.with_command(self.side, self.id, self.leader_id)
        if self.leader_id:
            x, y = snap(battle, self.leader_pos)
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
        check_spot(battle, ruleset, "leader", snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        x, y = snap(battle, self.pos)
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
        from ..arrival_edit import drop_arrivals_of_command
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
        check_spot(battle, ruleset, "leader", snap(battle, self.pos))

    def apply(self, battle, ruleset, dice):
        x, y = snap(battle, self.pos)
        l = battle.update_leader(self.leader, x=x, y=y)
        return [ScenarioEdited(f"{l.name} placed at ({x:g}, {y:g})")]
