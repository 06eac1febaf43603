"""Game moves. Each is generic; the battle's ruleset checks and resolves it.

No ruleset is named here: `ruleset.check(...)` and `ruleset.resolve(...)` dispatch
on the action's class, so a new ruleset brings its own resolvers and, if it needs
moves these do not cover, its own registered actions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .actions import Action, register


@dataclass(frozen=True)
class GameAction(Action):
    category: ClassVar[str] = "game"

    def validate(self, battle, ruleset) -> None:
        ruleset.check(battle, self)

    def apply(self, battle, ruleset, dice) -> list:
        return ruleset.resolve(battle, self, dice)


@register
@dataclass(frozen=True)
class StartBattle(GameAction):
    """Roll leader qualities where the scenario asks, dice for the first side, begin turn 1."""


@register
@dataclass(frozen=True)
class MoveUnit(GameAction):
    unit: str
    to: tuple            # inches (x, y): on a grid, a box centre
    facing: int          # degrees; on a grid, a multiple of 45
    formation: str = ""  # change formation as part of the move ("" keeps it)


@register
@dataclass(frozen=True)
class MoveLeader(GameAction):
    leader: str
    to: tuple


@register
@dataclass(frozen=True)
class ChangeFormation(GameAction):
    unit: str
    formation: str


@register
@dataclass(frozen=True)
class Fire(GameAction):
    unit: str
    target: str


@register
@dataclass(frozen=True)
class Rally(GameAction):
    leader: str
    unit: str
    influence: int | None = None  # where the rules let the player choose the leader's modifier


@register
@dataclass(frozen=True)
class ResolveMelee(GameAction):
    defender: str                 # the attacked piece that names the melee
    joiners: tuple = ()           # defenders with an attacker in their zone who choose to fight
    support: tuple | None = None  # units that fire in support (None: every one able to)
    pursue: tuple | None = None   # winners that choose to pursue where the rules say "may"
                                  # (None: every one able to)


@register
@dataclass(frozen=True)
class Charge(GameAction):
    """Charge an enemy unit: the rules move the charger into contact (or not) and make
    the target answer at once; the melee is fought in its own phase."""
    unit: str
    target: str


@register
@dataclass(frozen=True)
class ChooseInitiative(GameAction):
    """The side that won the initiative names who goes first, in every step of the
    turn or only in the steps listed."""
    first: str
    steps: tuple = ()


@register
@dataclass(frozen=True)
class EndPhase(GameAction):
    pass


@register
@dataclass(frozen=True)
class TableFire(GameAction):
    """Table-side mode: a volley between units whose miniatures stand on a real table;
    range and cover are typed in `situation` ((key, value), ...), not read off the map."""
    unit: str
    target: str
    situation: tuple = ()


@register
@dataclass(frozen=True)
class TableMelee(GameAction):
    """Table-side mode: a melee between the units named, the situation typed."""
    attackers: tuple
    defenders: tuple
    situation: tuple = ()
