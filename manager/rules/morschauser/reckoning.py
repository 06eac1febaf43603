"""The gridded commander's reckoning, repeated thousands of times a battle: the gap
between boxes, the nearest of many, a leader's spot scores, the turn between facings,
a volley's expected hits a die. Plain arithmetic or one numpy pass, each exact in floats
(whole and half boxes)."""
from __future__ import annotations

from itertools import chain

import numpy as np

from ...grid import Box


def box_gap(a: Box, b: Box) -> float:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dx + dy - 0.5 * (dx if dx < dy else dy)     # = box_distance, without a call


def nearest(here: Box, boxes: list[Box]) -> Box:
    hx, hy = here
    best, best_d = boxes[0], 1e9
    for bx, by in boxes:
        dx, dy = abs(hx - bx), abs(hy - by)
        d = dx + dy - 0.5 * (dx if dx < dy else dy)
        if d < best_d:
            best, best_d = (bx, by), d
    return best


def nearest_all(heres: list[Box], boxes: list[Box]) -> list[Box]:
    """[nearest(h, boxes) for h in heres] in one numpy pass: the same box for each (the
    distances are whole or half boxes, exact in floats; argmin takes the first of equals
    as nearest's strict < does)."""
    if not heres:
        return []
    h = np.array(heres, dtype=np.int64)
    e = np.array(boxes, dtype=np.int64)
    dx = np.abs(h[:, 0:1] - e[None, :, 0])
    dy = np.abs(h[:, 1:2] - e[None, :, 1])
    d = dx + dy - 0.5 * np.minimum(dx, dy)
    return [boxes[i] for i in d.argmin(axis=1).tolist()]


def leader_spot_scores(boxes: list[Box], units: list[Box], want: Box, radius: float,
                       taken) -> list[tuple[float, Box]]:
    """(score, box) for each box a leader might ride to, lower better: near the spot he
    wants, few of his units beyond his radius (3 each), not a box a unit holds. The
    units beyond are counted for all boxes in one numpy pass, in whole numbers: twice
    the gap, 2 dx + 2 dy - min(dx, dy), against twice the radius (the arrays made from
    flat runs of numbers, which numpy reads without looking into each tuple)."""
    if not boxes:
        return []
    flat = chain.from_iterable
    bxs = np.fromiter(flat(boxes), np.int64, 2 * len(boxes)).reshape(-1, 2)
    ups = np.fromiter(flat(units), np.int64, 2 * len(units)).reshape(-1, 2)
    dx = np.abs(bxs[:, 0:1] - ups[:, 0])
    dy = np.abs(bxs[:, 1:2] - ups[:, 1])
    far = ((2 * (dx + dy) - np.minimum(dx, dy)) > 2 * radius).sum(axis=1).tolist()
    return [(box_gap(box, want) + 3 * f + (1 if box in taken else 0), box)
            for box, f in zip(boxes, far)]


def around(centre: Box, radius: int):
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            yield (centre[0] + dx, centre[1] + dy)


def turn_off(a: int, b: int) -> int:
    diff = (b - a) % 8
    return min(diff, 8 - diff)


TURN_OFF = tuple(tuple(turn_off(a, b) for b in range(8)) for a in range(8))


def hits_per_die(spec) -> float:
    """Expected hits of one die of the volley; a few kinds of volley recur all battle."""
    key = (spec.to_hit, spec.modifier, spec.double_at)
    got = _PER_DIE.get(key)
    if got is None:
        got = _PER_DIE[key] = sum(spec.hits_for(f) for f in range(1, 7)) / 6
    return got


_PER_DIE: dict[tuple, float] = {}
