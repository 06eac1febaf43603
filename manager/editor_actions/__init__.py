"""Scenario edits as actions: the editor's tools and the CLI build these, nothing else
writes the model. Each checks that the battle stays one the rules would accept (no unit
where its ruleset forbids it, one unit a box on a grid, ids unique) and is undoable
through the Session like any game move."""
from __future__ import annotations

# one module a kind of edit; importing the package registers them all
from .commands import (AddCommand, AppointGeneral, RenameCommand, RemoveCommand, EditLeader,
                       RelocateLeader)
from .placing import fresh_id, taken_ids
from .terrain import AddTerrain, RemoveTerrain, ReshapeTerrain, SetOption, EditTerrain
from .units import PlaceUnit, RemoveUnit, RelocateUnit, EditUnit, ReassignUnit

__all__ = ["AddCommand", "AddTerrain", "AppointGeneral", "EditLeader",
           "EditTerrain", "EditUnit", "PlaceUnit", "ReassignUnit", "RelocateLeader",
           "RelocateUnit", "RemoveCommand", "RemoveTerrain", "RemoveUnit", "RenameCommand",
           "ReshapeTerrain", "SetOption", "fresh_id", "taken_ids"]
