"""The table: its size in inches, an optional square grid, and terrain as shapes."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

# Area terrain is a closed outline; linear terrain a polyline; point terrain one point.
AREA_KINDS = ("woods", "town", "marsh", "lake", "rough", "fields", "hill")
LINEAR_KINDS = ("river", "stream", "road", "wall")
POINT_KINDS = ("bridge", "ford")
TERRAIN_KINDS = AREA_KINDS + LINEAR_KINDS + POINT_KINDS

# What a scenario author may write for a kind, mapped to the kind the rules read.
TERRAIN_ALIASES = {
    "wood": "woods", "forest": "woods", "buildings": "town", "village": "town",
    "built_up": "town", "pond": "lake", "ponds": "lake", "swamp": "marsh",
    "broken": "rough", "difficult": "rough", "crops": "fields", "field": "fields",
    "hedge": "wall", "fence": "wall", "creek": "stream", "brook": "stream",
}


def shape_of(kind: str) -> str:
    if kind in AREA_KINDS:
        return "area"
    if kind in LINEAR_KINDS:
        return "line"
    if kind in POINT_KINDS:
        return "point"
    raise ValueError(f"unknown terrain kind {kind!r}")


@dataclass(frozen=True, slots=True)
class TerrainFeature:
    id: str
    kind: str
    points: tuple[tuple[float, float], ...]
    name: str = ""
    level: int = 1          # hills: contour level (a hill on a hill is level 2)
    variant: str = ""       # wall/hedge/fence, castle, ... (display and notes)

    @property
    def shape(self) -> str:
        return shape_of(self.kind)

    def moved(self, points) -> "TerrainFeature":
        return replace(self, points=tuple((float(x), float(y)) for x, y in points))


@dataclass(frozen=True, slots=True)
class Battlefield:
    width: float
    height: float
    grid: float | None = None          # box size in inches; None for an open table
    features: tuple[TerrainFeature, ...] = field(default_factory=tuple)

    def feature(self, fid: str) -> TerrainFeature:
        for f in self.features:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def with_feature(self, feature: TerrainFeature) -> "Battlefield":
        others = tuple(f for f in self.features if f.id != feature.id)
        return replace(self, features=others + (feature,))

    def without_feature(self, fid: str) -> "Battlefield":
        return replace(self, features=tuple(f for f in self.features if f.id != fid))
