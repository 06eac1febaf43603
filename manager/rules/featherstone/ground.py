"""Answers that depend on the ground and the bases' geometry alone, kept across battle
versions (issue 17).

Most Featherstone units stand still for much of a turn while their records change (a
mark, a casualty, a general riding up), so the per-version memos (`recall`) are asked
the same geometric questions again and again: a charge path between two bases that
have not moved (the enemy's threats in the generals step, then the charges step), the
terrain across a line of sight between two centres, the terrain a move's path crosses.
Each answer here is a function of its key and of the table's terrain (the battlefield
record, immutable: a new one empties the memo), so it is exact to keep it until then.
"""
from __future__ import annotations

from ...errors import IllegalAction

LIMIT = 50_000          # entries per question before the memo starts afresh (long sessions)


def kept(battle, name: str, key, compute):
    """`compute()` (or its IllegalAction, re-raised with the same message) for this
    key on this battlefield, remembered across versions and trial copies."""
    store = battle.kept("featherstone.ground", dict)
    bf = battle.battlefield
    if store.get("battlefield") is not bf:
        store.clear()
        store["battlefield"] = bf
    memo = store.get(name)
    if memo is None or len(memo) > LIMIT:
        memo = store[name] = {}
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
