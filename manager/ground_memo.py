"""Answers that hang on the table's ground and their key alone, kept across battle
versions (issue 17): a unit's record changes with every mark while its base stands, so
the rules are asked the same ground questions (a path's terrain, a line's woods, the
cover under a base) again and again. A battlefield record is immutable (an edit makes a
new one), so an answer kept per battlefield object is exact until the ground changes;
battles fought over the same ground (a balance run) share it. Every ruleset's ground
memos are this one store, by question name."""
from __future__ import annotations

from .errors import IllegalAction
from .geometry import per_battlefield

LIMIT = 100_000          # answers per question before it starts afresh (long sessions)


class _Answers(dict):
    """question name -> {key: (value, refusal message or None)} for one battlefield."""

    def __init__(self, battlefield):
        super().__init__()


_answers = per_battlefield(_Answers)


def on_ground(battlefield, name: str, key, compute):
    """`compute()` for this key on this battlefield, remembered; a refusal it raised
    (IllegalAction) is raised again with the same message."""
    memo = _answers(battlefield).get(name)
    if memo is None or len(memo) >= LIMIT:
        memo = _answers(battlefield)[name] = {}
    hit = memo.get(key)
    if hit is None:
        try:
            hit = (compute(), None)
        except IllegalAction as e:
            hit = (None, str(e))
        memo[key] = hit
    if hit[1] is not None:
        raise IllegalAction(hit[1])
    return hit[0]


def holds(battlefield, name: str, key) -> bool:
    """Whether an answer (or a refusal) is kept for this key."""
    return key in _answers(battlefield).get(name, {})


def known(battlefield, name: str, key, default=None):
    """The answer kept for this key, or `default` when it was never worked out: a look
    that computes nothing."""
    hit = _answers(battlefield).get(name, {}).get(key)
    return default if hit is None or hit[1] is not None else hit[0]


def forget(battlefield, name: str) -> None:
    """Drop one question's answers on this battlefield (to ask it afresh)."""
    _answers(battlefield).pop(name, None)
