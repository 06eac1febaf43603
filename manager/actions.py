"""Actions: every change to a battle is one of these, executed by a Session.

An action is a small dataclass that can explain why it is illegal (`validate`) and
then change the battle (`apply`), returning events. Actions know their names, so a
log of them can be written to text and read back for replay.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from .errors import IllegalAction

REGISTRY: dict[str, type["Action"]] = {}


def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls


@dataclass(frozen=True)
class Action:
    category: ClassVar[str] = "edit"  # "edit" (the scenario) or "game" (the rules)

    @property
    def verb(self) -> str:
        """The action's registered name, e.g. 'MoveUnit' (as the log records it)."""
        return self.__class__.__name__

    def validate(self, battle, ruleset) -> None:
        """Raise IllegalAction with a reason a player can read."""

    def apply(self, battle, ruleset, dice) -> list:
        raise NotImplementedError

    def describe(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{self.verb}({args})"

    def to_dict(self) -> dict:
        d = {"action": self.verb}
        for f in fields(self):
            d[f.name] = _plain(getattr(self, f.name))
        return d


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def action_from_dict(d: dict) -> Action:
    """Rebuild an action from its logged form; a bad record gets a clear message."""
    if not isinstance(d, dict) or "action" not in d:
        raise IllegalAction(f"an action record needs an 'action' name, got {d!r}")
    cls = REGISTRY.get(d["action"])
    if cls is None:                  # a ruleset's own action: load the rulesets, then look again
        from .rules import ruleset_ids
        ruleset_ids()
        cls = REGISTRY.get(d["action"])
    if cls is None:
        raise IllegalAction(f"unknown action {d['action']!r}; known: {', '.join(sorted(REGISTRY))}")
    names = {f.name for f in fields(cls)}
    unknown = set(d) - names - {"action"}
    if unknown:
        raise IllegalAction(f"{d['action']}: unexpected field(s) {', '.join(sorted(unknown))}")
    try:
        return cls(**{k: _frozen(v) for k, v in d.items() if k != "action"})
    except TypeError as exc:
        raise IllegalAction(f"{d['action']}: {exc}") from None


def need(condition, reason: str) -> None:
    """Check, then apply: a failed check stops the action with the reason given."""
    if not condition:
        raise IllegalAction(reason)
