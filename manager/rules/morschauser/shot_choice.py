"""The automatic commander's choice of a shot (Morschauser): the target with the most
expected hits among the few nearest and weakest it can see."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game_actions import Fire
from ...grid import DIRS, in_front_arc
from .board import board, bombarding, facing_dir, profile
from .fire import GRAPE_RANGE, check_fire_unit, fire_spec, max_range, sight
from .reckoning import hits_per_die


def find_shot(battle, side: str, u):
    """The shot with the most expected hits (weak targets count more), or None.

    Cheap filters first (range, arc), the firer's own eligibility once, then line of
    sight and dice only for the few targets left; the Session re-checks the winner.
    """
    b = battle
    try:
        check_fire_unit(b, u)
    except IllegalAction:
        return None
    # the opening bombardment: only guns fire, and only beyond grape (a refused
    # proposal is not in the log, so it must not be made at all)
    bomb = bombarding(b)
    if bomb and profile(u).arm != "artillery":
        return None
    brd = board(b)
    here = brd.unit_box[u.id]
    rng = max_range(b, u)
    face = facing_dir(u)
    arc = b.option("fire_arc", 45)
    candidates = []
    hx, hy = here
    boxes = brd.unit_box
    # the order candidates are found in does not matter: they are sorted by a key
    # that ends with the unit id
    units = b.units
    fx, fy = DIRS[face]
    ahead_only = arc < 89               # the arc is narrower than a half-turn
    square = arc == 45                  # in_front_arc's own whole-number test, here
    f2 = fx * fx + fy * fy
    for eid in brd.enemies_near(side, here, rng):
        eb = boxes[eid]
        dx, dy = eb[0] - hx, eb[1] - hy
        # surely out, told cheaply (most of the enemies near): beyond the range on
        # one axis (the gap is at least that), or not ahead of the shooter
        dot = fx * dx + fy * dy
        if (dx > rng or -dx > rng or dy > rng or -dy > rng
                or (ahead_only and dot <= 0)):
            continue
        if square:                      # (dot > 0 here: the box is not the shooter's)
            if 2 * dot * dot < f2 * (dx * dx + dy * dy):
                continue
        elif not in_front_arc(here, face, eb, arc):
            continue
        dx, dy = abs(dx), abs(dy)
        gap = dx + dy - 0.5 * (dx if dx < dy else dy)
        if gap > rng or (bomb and gap <= GRAPE_RANGE):
            continue
        e = units[eid]
        # rank by a cheap guess (near and weak first); exact dice only for the best few
        # (sorted as (-guess, id): the ids are unique, so the records are never compared)
        candidates.append((-(1.5 if e.hits <= 2 else 1.0) / (1 + gap), e.id, e, eb))
    candidates.sort()
    best, looked = None, 0
    hidden = sight(b, why=False)
    for _, _, e, eb in candidates:
        if hidden(here, eb):
            continue
        spec = fire_spec(b, u, e)
        if spec.dice > 0:
            per_die = hits_per_die(spec)
            value = spec.dice * per_die * (1.5 if e.hits <= 2 else 1.0)
            if best is None or value > best[0]:
                best = (value, Fire(u.id, e.id))
        looked += 1
        if looked >= 3:
            break
    return best[1] if best else None
