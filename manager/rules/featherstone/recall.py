"""Answers remembered until the battle next changes (issue 17).

The automatic commander asks the same questions of one battle version many times: the
rules' check of an order it weighs and then gives (the session checks it again), the
shot a unit could make (the check, its value, the resolution), which enemies could
charge a unit (for each of the player's choices). Each answer is a function of the
battle's state alone, so it is kept in the battle's cache (cleared by every change;
a trial copy has its own) and handed back, a refusal as the same IllegalAction message.
"""
from __future__ import annotations

from functools import wraps

from ...errors import IllegalAction


def recall(battle, name: str, key, pieces: tuple, compute):
    """`compute()` (or the IllegalAction it raised) remembered for this battle version and
    these very records (`pieces`: unit records are immutable, so a changed or trial unit
    is another object and never gets a stale answer)."""
    store = battle.cached(name, dict)
    hit = store.get(key)
    if hit is None or not all(a is b for a, b in zip(hit[0], pieces)):
        try:
            hit = (pieces, compute(), None)
        except IllegalAction as e:
            hit = (pieces, None, str(e))
        store[key] = hit
    if hit[2] is not None:
        raise IllegalAction(hit[2])
    return hit[1]


def checked(check):
    """A rules check remembered per battle version and order (by its repr, which tells
    1 from 1.0): the commander's `legal` and the session's own check ask it in turn."""
    name = f"featherstone.check.{check.__name__}"

    @wraps(check)
    def remembered(battle, action):
        return recall(battle, name, repr(action), (), lambda: check(battle, action))
    return remembered
