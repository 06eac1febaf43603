"""The battle model: plain records with ids, no rules beyond their own invariants."""
from .battlefield import Battlefield, TerrainFeature, AREA_KINDS, LINEAR_KINDS, POINT_KINDS, TERRAIN_KINDS
from .forces import Unit, Leader, Side, Command, UNIT_KINDS
from .hierarchy import Hierarchy
from .arrival import Arrival
from .battle import Battle, ScenarioInfo, TurnState

__all__ = ["Battlefield", "TerrainFeature", "AREA_KINDS", "LINEAR_KINDS", "POINT_KINDS",
           "TERRAIN_KINDS", "Unit", "Leader", "Side", "Command", "UNIT_KINDS", "Hierarchy",
           "Battle", "ScenarioInfo", "TurnState", "Arrival"]
