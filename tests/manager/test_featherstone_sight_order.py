"""Issue 17, thirteenth session: the commander's sight lines walk the bases in the box
sorted on their squared distance alone (`sight_floats._first_across`), bases at the same
distance left in the band's order. A line's answer does not hang on the order (it is
crossed when any base crosses it); the base found, kept across the line (`BLOCKERS`),
must still be one that crosses it, and the nearest such: the walk stops early."""
from __future__ import annotations

from math import hypot

from play_checks import austerlitz_phases
from manager import spatial
from manager.rules.featherstone import sight_floats
from manager.sightlines import MARGIN

FS = "featherstone"


def crossing(battle, t, origin, ends) -> list:
    """For each end: {place: squared distance} of every base in the box (the origin's
    and the end's own left out) that crosses the line, by the pair test."""
    g = spatial.unit_grid(battle)
    fx, fy, hd, hf, diag = t.as_lists()
    ax, ay = origin.pos
    ex, ey = [e.x for e in ends], [e.y for e in ends]
    w = sight_floats.CENTRE_WITHIN + 1e-6
    box = [k for k in range(len(g.lx))
           if min(ax, min(ex)) - w <= g.lx[k] <= max(ax, max(ex)) + w
           and min(ay, min(ey)) - w <= g.ly[k] <= max(ay, max(ey)) + w
           and k != t.index.get(origin.id, -1)]
    out = []
    for e, tx, ty in zip(ends, ex, ey):
        tx, ty = tx - ax, ty - ay
        length = hypot(tx, ty)
        found = {}
        if length > MARGIN:
            nx, ny = -ty / length, tx / length
            for k in box:
                cx, cy = g.lx[k] - ax, g.ly[k] - ay
                if k != t.index.get(e.id, -2) and abs(cx * nx + cy * ny) < diag[k] + MARGIN \
                        and sight_floats._crosses(cx, cy, tx, ty, nx, ny, length ** 2,
                                                  fx[k], fy[k], hd[k], hf[k]):
                    found[k] = cx * cx + cy * cy
        out.append(found)
    return out


def test_the_base_found_is_the_nearest_across_in_play(monkeypatch):
    """Every scan of 3 Austerlitz turns: -1 when no base crosses the line, else a base
    that crosses it at the least distance of those that do; some lines have more than
    one base across them."""
    real = sight_floats._first_across
    seen = {"lines": 0, "hit": 0, "several": 0, "tied": 0}

    def checked(battle, t, origin, ends):
        got = real(battle, t, origin, ends)
        for k, found in zip(got, crossing(battle, t, origin, ends)):
            seen["lines"] += 1
            if not found:
                assert k == -1
                continue
            assert k in found and found[k] == min(found.values())
            seen["hit"] += 1
            seen["several"] += len(found) > 1
            seen["tied"] += sum(d == found[k] for d in found.values()) > 1
        return got
    monkeypatch.setattr(sight_floats, "_first_across", checked)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert seen["lines"] > 1000 and seen["hit"] > 500 and seen["several"] > 100, seen
