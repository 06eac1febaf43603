"""Terrain edits (add, remove, reshape, edit) and the ruleset's options."""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

from ..actions import Action, need, register
from ..errors import IllegalAction
from ..events import ScenarioEdited
from ..model.battlefield import TERRAIN_ALIASES, TERRAIN_KINDS, TerrainFeature, shape_of


def _need_points(kind: str, points) -> None:
    least = {"area": 3, "line": 2, "point": 1}[shape_of(kind)]
    need(len(points) >= least, f"a {kind} needs at least {least} point(s)")


def _terrain_blocks_units(battle, ruleset, features) -> None:
    """Refuse terrain that would leave a unit standing where its rules forbid."""
    probe = battle.copy()
    from ..model.battlefield import Battlefield
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
