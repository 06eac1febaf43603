"""Morschauser's plain code as it was before the speed-ups of issue 17, kept as the
reference the speed tests compare the fast paths with; and a board compared field by field.
"""
import math

from manager.game_actions import Fire
from manager.grid import DIRS, Box, direction_to
from manager.rules.morschauser import commander as cm, reckoning
from manager.rules.morschauser import fire, moves
from manager.rules.morschauser import movement as mv
from manager.rules.morschauser.board import board, bombarding, box_of, facing_dir, profile


# ---- the references: the plain code before the speed-ups ----------------------------------
def ref_search(battle, unit, budget, roads_only=False):
    b = board(battle)
    start = (box_of(battle, unit), facing_dir(unit))
    reach = mv.Reach()
    reach.cost[start] = 0.0
    if roads_only and "road" not in b.terrain.at(start[0]).kinds:
        return reach
    limit = int(budget * 2 + 1e-9)
    best = {start: 0}
    buckets = [[] for _ in range(limit + 1)]
    buckets[0].append(start)
    ok, ok_cache = mv._stepper(battle, unit, roads_only)
    enemy_zocs = [z for s, z in b.zoc.items() if s != unit.side]
    no_contact = bombarding(battle)
    contact = reach.contact
    for cost in range(limit + 1):
        for state in buckets[cost]:
            if best[state] != cost:
                continue
            box, d = state
            if cost + 1 <= limit:
                for nd in ((d + 1) & 7, (d - 1) & 7):
                    ns = (box, nd)
                    if cost + 1 < best.get(ns, 99):
                        best[ns] = cost + 1
                        buckets[cost + 1].append(ns)
            c = cost + (3 if d & 1 else 2)
            if c > limit:
                continue
            dx, dy = DIRS[d]
            nb = (box[0] + dx, box[1] + dy)
            through, stop = ok(nb)
            if not through:
                continue
            if any(nb in z for z in enemy_zocs):
                if stop and not no_contact and c < contact.get(nb, 99) * 2:
                    contact[nb] = c / 2
                continue
            ns = (nb, d)
            if c < best.get(ns, 99):
                best[ns] = c
                buckets[c].append(ns)
    for state, c in best.items():
        if state[0] == start[0] or ok_cache.get(state[0], (True, True))[1]:
            reach.cost[state] = c / 2
    return reach


def ref_line_walk(a: Box, b: Box) -> tuple[Box, ...]:
    """grid.line_boxes as it was worked out before issue 17's thirteenth session: in
    floats, column strip by column strip, with tolerances for the corner touches."""
    if abs(b[0] - a[0]) < abs(b[1] - a[1]):       # walk the longer axis
        return tuple((c, r) for r, c in ref_line_walk((a[1], a[0]), (b[1], b[0])))
    x0, y0, x1, y1 = a[0] + 0.5, a[1] + 0.5, b[0] + 0.5, b[1] + 0.5
    if x0 == x1:
        return ()
    step_c = 1 if x1 > x0 else -1
    slope = (y1 - y0) / (x1 - x0)
    out = []
    for c in range(a[0], b[0] + step_c, step_c):
        lo_x, hi_x = max(min(x0, x1), c), min(max(x0, x1), c + 1)
        if hi_x - lo_x <= 1e-12:
            continue
        ya, yb = y0 + slope * (lo_x - x0), y0 + slope * (hi_x - x0)
        lo_y, hi_y = min(ya, yb), max(ya, yb)
        rows = range(math.floor(lo_y), math.ceil(hi_y)) if hi_y > lo_y else (math.floor(lo_y),)
        order = rows if (y1 >= y0) else reversed(rows)
        for r in order:
            # the open segment must cross the open box: a corner touch is not enough
            if hi_y > lo_y and (min(hi_y, r + 1) - max(lo_y, r)) <= 1e-9:
                continue
            if (c, r) != a and (c, r) != b:
                out.append((c, r))
    return tuple(out)


def ref_blocked(battle, a, b):
    mode = battle.option("line_of_sight", "units_and_terrain")
    if mode == "none":
        return ""
    brd = board(battle)
    heights, screens = brd.terrain.heights, brd.terrain.screens
    top = max(heights.get(a, 0), heights.get(b, 0))
    units = brd.box_unit if mode == "units_and_terrain" else {}
    for box in ref_line_walk(a, b):
        h = heights.get(box, 0)
        if h > top:
            return f"higher ground at {box}"
        if box in screens:
            return f"{screens[box]} at {box}"
        if box in units and not top > h:
            return f"{battle.units[units[box]].name} is in the way"
    return ""


def ref_choose_move(self, u, goal, near, kind, form=""):
    b = self.battle
    prof = profile(u)
    reach, roads, backs, _ = moves.move_options(b, u, form)
    here = box_of(b, u)
    best_score, best = self._score_stay(u, goal), None
    front = self.front.get(b.hierarchy.command_of(u.id))
    pace = front is not None and goal != near and kind != "withdraw"
    _, obj = self.orders(b.hierarchy.command_of(u.id))
    anchor = obj if kind == "hold" and obj is not None and reckoning.box_gap(here, obj) <= 2 else None
    artillery = prof.arm == "artillery"
    rng = fire.max_range(b, u) if prof["fire_dice"] else 0
    ideal = min(rng * 0.6, 6)
    per_box = {}
    for r in (reach, roads):
        for (box, d), cost in r.cost.items():
            if box == here or (anchor and reckoning.box_gap(box, anchor) > 2):
                continue
            pb = per_box.get(box)
            if pb is None:
                if artillery:
                    pb = (-abs(reckoning.box_gap(box, near) - ideal), direction_to(box, near))
                else:
                    pb = (-reckoning.box_gap(box, goal) * 2, direction_to(box, goal))
                per_box[box] = pb
            s = pb[0] - 0.3 * reckoning.turn_off(d, pb[1]) - (0 if artillery else 0.05 * cost)
            if pace:
                ahead = front - reckoning.box_gap(box, goal)
                if ahead > 1.5:
                    s -= 3 * (ahead - 1.5)
            if s > best_score:
                best_score, best = s, (box, d)
        if artillery or kind == "withdraw":
            continue
        for box in r.contact:
            if anchor and reckoning.box_gap(box, anchor) > 3:
                continue
            for d in mv.contact_facings(b, u, box):
                edge = self._melee_edge(u, box, d)
                if edge is None:
                    continue
                s = -reckoning.box_gap(box, goal) * 2 + 3 * edge
                if s > best_score:
                    best_score, best = s, (box, d)
    if kind == "withdraw":
        for box, cost in backs.items():
            s = -reckoning.box_gap(box, goal) * 2
            if s > best_score:
                best_score, best = s, (box, facing_dir(u))
    if best is None:
        return cm.ChangeFormation(u.id, form) if form else None
    x, y = board(b).centre(best[0])
    return cm.MoveUnit(u.id, (x, y), best[1] * 45, form)


def ref_find_shot(self, u):
    """Commander._find_shot as a scan of every enemy, each judged by the full rules of
    range and arc (no index, no cheap first looks)."""
    from manager.errors import IllegalAction
    from manager.grid import in_front_arc
    b = self.battle
    try:
        fire.check_fire_unit(b, u)
    except IllegalAction:
        return None
    bomb = bombarding(b)
    if bomb and profile(u).arm != "artillery":
        return None
    here, rng = box_of(b, u), fire.max_range(b, u)
    candidates = []
    for e in b.live_units():
        if e.side == u.side:
            continue
        eb = box_of(b, e)
        gap = reckoning.box_gap(here, eb)
        if gap > rng or not in_front_arc(here, facing_dir(u), eb, b.option("fire_arc", 45)) or (
                bomb and gap <= fire.GRAPE_RANGE):
            continue
        candidates.append(((1.5 if e.hits <= 2 else 1.0) / (1 + gap), e.id, e, eb))
    candidates.sort(key=lambda c: (-c[0], c[1]))
    best, looked = None, 0
    for _, _, e, eb in candidates:
        if fire.blocked(b, here, eb):
            continue
        spec = fire.fire_spec(b, u, e)
        if spec.dice > 0:
            value = spec.dice * reckoning.hits_per_die(spec) * (1.5 if e.hits <= 2 else 1.0)
            if best is None or value > best[0]:
                best = (value, Fire(u.id, e.id))
        looked += 1
        if looked >= 3:
            break
    return best[1] if best else None


def ref_leader_cost(battle, leader, to):
    import heapq
    import math
    b = board(battle)
    start = box_of(battle, leader)
    budget = float(mv.LEADER["move"])

    def guess(box):
        dx, dy = abs(box[0] - to[0]), abs(box[1] - to[1])
        return dx + dy - 0.5 * min(dx, dy)
    if guess(start) > budget + 1e-9:
        return None
    cost = {start: 0.0}
    heap = [(guess(start), 0.0, start)]
    while heap:
        _, c, box = heapq.heappop(heap)
        if box == to:
            return c
        if c > cost[box]:
            continue
        for d, (dx, dy) in enumerate(DIRS):
            nb = (box[0] + dx, box[1] + dy)
            nc = c + (1.5 if d % 2 else 1.0)
            if nc + guess(nb) > budget + 1e-9 or nc >= cost.get(nb, math.inf):
                continue
            if b.refusal("leader", nb, mv._refusal):
                continue
            other = b.box_unit.get(nb)
            if other and battle.units[other].side != leader.side:
                continue
            cost[nb] = nc
            heapq.heappush(heap, (nc + guess(nb), nc, nb))
    return None


def ref_leader_scores(boxes, units, want, radius, taken):
    out = []
    for box in boxes:
        bx, by = box
        far = 0
        for ux, uy in units:
            dx, dy = abs(ux - bx), abs(uy - by)
            if dx + dy - 0.5 * (dx if dx < dy else dy) > radius:
                far += 1
        out.append((reckoning.box_gap(box, want) + 3 * far + (1 if box in taken else 0), box))
    return out


def same_board(b):
    """The board kept up to date change by change is the board built afresh."""
    from manager.rules.morschauser.board import Board
    kept, fresh = board(b), Board(b)
    assert kept.unit_box == fresh.unit_box and kept.box_unit == fresh.box_unit
    assert kept.leader_box == fresh.leader_box
    assert {k: sorted(v) for k, v in kept.box_leaders.items()} == \
        {k: sorted(v) for k, v in fresh.box_leaders.items()}
    for side in fresh.zoc:
        assert {k: sorted(v) for k, v in kept.zoc.get(side, {}).items()} == \
            {k: sorted(v) for k, v in fresh.zoc[side].items()}
        assert kept.cells.get(side, {}) == fresh.cells[side]
    assert kept.unit_front == fresh.unit_front


def ref_melees(battle):
    """melee.melees' build as it was: every unit of the side scanned in id order."""
    from manager.grid import step
    from manager.rules.morschauser.melee import Melee
    if bombarding(battle):
        return []
    brd = board(battle)
    active, fought = battle.state.active, battle.state.fought
    groups = {}
    for u in sorted(battle.live_units(active), key=lambda u: u.id):
        if u.id in fought:
            continue
        box = step(brd.unit_box[u.id], facing_dir(u))
        d = brd.box_unit.get(box)
        if d is not None:
            if battle.units[d].side != active and d not in fought:
                groups.setdefault(d, Melee(d)).attackers.append(u.id)
        else:
            foes = [l for l in brd.box_leaders.get(box, ()) if battle.leaders[l].side != active]
            for lid in foes:
                groups.setdefault(lid, Melee(lid, lone_leader=True)).attackers.append(u.id)
    attacked = set(groups)
    for m in groups.values():
        if m.lone_leader:
            continue
        zoc = brd.zoc.get(battle.units[m.defender].side, {})
        joiners = {e for a in m.attackers for e in zoc.get(brd.unit_box[a], ())}
        m.may_join = sorted(e for e in joiners if e not in attacked and e not in fought)
    return [groups[k] for k in sorted(groups)]
