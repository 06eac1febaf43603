"""Answers about one segment of the table, kept across battle versions while no base near
the segment changes (issue 17).

A shot's legality reads the shooter's and the target's bases, the ground, and the bases
whose centre lies within the largest half-diagonal of the line from the shooter's front
to the target (`sight_refusal`'s scan); whether a base surely hides the line
(`surely_hidden`) reads those same bases. Foot that stands and shoots asks the same lines
in its move phase (may it shoot? then it stands), again in its shoot phase, and again
next turn, while other units move elsewhere: every change of the battle threw the
answers away. Here they are kept by their key (which names the shooter's and the
target's very bases) and stay good until a base whose centre lies within `reach` of the
segment, before or after a change, has changed: the battle's journal of changes gives
the bases that changed, and the answers near them are dropped.

A wholesale change (a unit dropped, the table or the options changed, a restore) starts
afresh. Only unit changes move bases
in d3 (generals do not hide lines or block paths), and a base is its unit's x, y, facing
and kind (the options' frontage scale changes only wholesale)."""
from __future__ import annotations

import numpy as np

from ...errors import IllegalAction

def base_of(unit) -> tuple:
    """What a unit's base is made of (with the battle's options)."""
    return (unit.x, unit.y, unit.facing, unit.kind)


class _Kept:
    """The answers kept now, with their segments in numpy columns (a slot each), and the
    bases as the battle's journal last left them. A change that moves, turns, removes or
    brings a base drops at once every answer whose segment passes within its reach of
    the base's centre before or after (one vector pass over the answers kept)."""

    __slots__ = ("bases", "answers", "keys", "cols", "used", "alive")

    def __init__(self, battle):
        self.bases = {u.id: base_of(u) for u in battle.live_units()}
        self.answers: dict = {}           # key -> (slot, value, refusal message or None)
        self.keys: list = []              # slot -> key (None once dropped)
        self.cols = np.zeros((6, 64))     # ax, ay, dx, dy, |d|^2, reach^2 by slot
        self.used = 0
        self.alive = 0

    def put(self, key, a, b, reach: float, value, why) -> None:
        if self.used == self.cols.shape[1]:
            self._make_room()
        k = self.used
        dx, dy = b[0] - a[0], b[1] - a[1]
        # (a segment of no length: any positive |d|^2 makes the clip's t 0, its distance)
        self.cols[:, k] = (a[0], a[1], dx, dy, dx * dx + dy * dy or 1.0, reach * reach)
        self.keys.append(key)
        self.answers[key] = (k, value, why)
        self.used += 1
        self.alive += 1

    def _make_room(self) -> None:
        live = [k for k in range(self.used) if self.keys[k] is not None]
        if len(live) * 2 <= self.used:                      # mostly dropped: compact
            cols = self.cols[:, live]
            self.keys = [self.keys[k] for k in live]
            for k, key in enumerate(self.keys):
                self.answers[key] = (k,) + self.answers[key][1:]
            self.cols = np.zeros((6, self.cols.shape[1]))
            self.cols[:, :len(live)] = cols
            self.used = len(live)
        else:
            self.cols = np.concatenate([self.cols, np.zeros_like(self.cols)], axis=1)

    def follow(self, battle, changes) -> None:
        centres = []
        for change in changes:
            if change[0] != "unit":
                continue                    # (leaders and the turn's state hide nothing)
            u = battle.units.get(change[1])
            new = None if u is None or u.eliminated else base_of(u)
            old = self.bases.get(change[1])
            if new == old:
                continue                    # hits or marks alone: the base stands
            centres += [base[:2] for base in (old, new) if base is not None]
            if new is None:
                del self.bases[change[1]]
            else:
                self.bases[change[1]] = new
        if centres and self.alive:
            self._drop_near(centres)

    def _drop_near(self, centres) -> None:
        ax, ay, dx, dy, l2, r2 = self.cols[:, :self.used]
        cx, cy = np.array(centres, dtype=float).T[:, :, None]     # centre by row
        px, py = cx - ax, cy - ay
        t = np.minimum(np.maximum((px * dx + py * dy) / l2, 0.0), 1.0)
        px -= t * dx
        py -= t * dy
        near = np.logical_or.reduce(px * px + py * py <= r2, axis=0)
        for k in near.nonzero()[0].tolist():
            key = self.keys[k]
            if key is not None:
                del self.answers[key]
                self.keys[k] = None
                self.alive -= 1


def _kept(battle) -> _Kept:
    return battle.derived("d3.near_lines", lambda: _Kept(battle),
                          lambda kept, changes: kept.follow(battle, changes))


def known(battle, key, default=None):
    """The answer kept for `key` if one holds, else `default`; a kept refusal comes back
    as the IllegalAction it was."""
    hit = _kept(battle).answers.get(key)
    if hit is None:
        return default
    return hit[1] if hit[2] is None else IllegalAction(hit[2])


def kept(battle, key, segment, reach: float, compute):
    """compute()'s answer (or the IllegalAction it raised, raised again with its message),
    kept until a base whose centre lies within `reach` of the segment (`segment()`: its
    two ends, asked only when the answer is worked out) changes; `key` must name
    everything else the answer reads (the bases at either end, the ground's)."""
    store = _kept(battle)
    hit = store.answers.get(key)
    if hit is None:
        try:
            value, why = compute(), None
        except IllegalAction as e:
            value, why = None, str(e)
        store.put(key, *segment(), reach, value, why)
    else:
        value, why = hit[1], hit[2]
    if why is not None:
        raise IllegalAction(why)
    return value
