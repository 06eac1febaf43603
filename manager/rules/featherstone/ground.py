"""Answers that depend on the ground and the bases' geometry alone, kept across battle
versions (issue 17).

Most Featherstone units stand still for much of a turn while their records change (a
mark, a casualty, a general riding up), so the per-version memos (`recall`) are asked
the same geometric questions again and again: a charge path between two bases that
have not moved (the enemy's threats in the generals step, then the charges step), the
terrain across a line of sight between two centres, the terrain a move's path crosses.
Each answer here is a function of its key and of the table's terrain (the battlefield
record, immutable: a new one asks afresh), so it is exact to keep it until then.
"""
from __future__ import annotations

from ...ground_memo import on_ground


def kept(battle, name: str, key, compute):
    """`compute()` (or its IllegalAction, re-raised with the same message) for this
    key on this battlefield, remembered across versions, trial copies and battles over
    the same ground (the shared `ground_memo` store)."""
    return on_ground(battle.battlefield, "featherstone." + name, key, compute)
