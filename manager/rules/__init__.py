"""Rulesets, found by id. Each lives in its own module or package here."""
from __future__ import annotations

from ..errors import IllegalAction

_FACTORIES = {}
_INSTANCES = {}
_BUILTIN = ("d3", "featherstone", "harman", "morschauser", "quickplay")


def register_ruleset(ruleset_id: str, factory) -> None:
    _FACTORIES[ruleset_id] = factory


def _load_builtin() -> None:
    # every built-in, whichever of them was imported first (one registered is not all)
    if not all(r in _FACTORIES for r in _BUILTIN):
        from . import d3, featherstone, harman, morschauser, quickplay  # noqa: F401  (register)


def get_ruleset(ruleset_id: str):
    _load_builtin()
    if ruleset_id not in _INSTANCES:
        if ruleset_id not in _FACTORIES:
            raise IllegalAction(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_FACTORIES))}")
        _INSTANCES[ruleset_id] = _FACTORIES[ruleset_id]()
    return _INSTANCES[ruleset_id]


def ruleset_ids() -> list[str]:
    _load_builtin()
    return sorted(_FACTORIES)
