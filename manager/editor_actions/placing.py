"""What every scenario edit shares: ids not yet taken, and may a piece stand there."""
from __future__ import annotations

from ..actions import need
from ..placement import placement_problem


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


def check_spot(battle, ruleset, kind: str, pos, moving: str = "") -> None:
    """May a piece of this kind stand at pos (inches)? `moving` is the unit being moved."""
    problem = placement_problem(battle, ruleset, kind, pos, moving)
    need(not problem, problem)


def snap(battle, pos):
    """On a grid every piece stands at its box's centre."""
    g = battle.battlefield.grid
    if not g:
        return float(pos[0]), float(pos[1])
    return ((int(pos[0] // g) + 0.5) * g, (int(pos[1] // g) + 0.5) * g)
