"""The automatic commander for the gridded rules: plays one side from its commands' orders.

Orders (per command, in the scenario): `attack` toward an objective box, `hold` an
objective, or stay in `reserve` until a release turn or until a friendly command is
Shaken. Within that, each unit fires when it has a target, charges when its odds
are better than even, keeps artillery out of contact, and Shaken commands pull back.
It proposes one action at a time; the driver in manager/autopilot.py executes them.
"""
from __future__ import annotations


from ...autopilot import read_orders
from ...game_actions import (ChangeFormation, EndPhase, MoveLeader, MoveUnit, Rally,
                             ResolveMelee)
from ...grid import DIRS, Box, box_distance, direction_to, front_boxes, step
from .board import board, box_of, facing_dir, profile
from .fire import max_range
from .melee import melees
from .morale import rallyable
from .movement import EDGE_DIR, contact_facings, leader_cost
from .moves import move_options
from .reckoning import (TURN_OFF, around, box_gap, leader_spot_scores, nearest, nearest_all,
                        turn_off)
from .shot_choice import find_shot
from .tables import FOOT_GUNS, LEADER


def enemies_of(battle, side: str) -> tuple[list, list[Box]]:
    """(the enemy's live units, their boxes), in the battle's order; kept until the next
    change (the commander asks on every proposal)."""
    def build():
        brd = board(battle)
        others = [s for s in battle.sides if s != side]
        if len(others) == 1:            # one enemy: his own view, kept from the journal
            enemies = battle.live_units(others[0])
        else:
            enemies = [u for u in battle.live_units() if u.side != side]
        return enemies, [brd.unit_box[e.id] for e in enemies]
    return battle.cached(("morschauser.enemies", side), build)


class Commander:
    def __init__(self, battle, side: str):
        self.battle = battle
        self.side = side
        self.done: set[str] = set()         # pieces already decided this phase
        self.phase_key = None
        self.order: list[str] = []          # this phase's units, nearest the enemy first
        self.cursor = 0
        self.nearest: dict[str, Box] = {}   # each unit's nearest enemy box, as the phase began
        self.front: dict[str, float] = {}   # each command's median distance to its objective
        self._orders: dict[str, tuple] = {} # command -> (the records read, its orders)

    # ---- the driver's entry points ----------------------------------------------------
    def next_action(self):
        b = self.battle
        key = (b.state.turn, b.state.active, b.state.phase)
        if key != self.phase_key:
            self.phase_key, self.done, self.order, self.nearest = key, set(), [], {}
            self.front = {}
            self.cursor = 0
        if b.state.active != self.side:
            return None
        phase = b.state.phase
        if phase == "rally":
            return self._rally() or EndPhase()
        if phase == "move":
            return self._move() or EndPhase()
        if phase == "melee":
            ms = melees(b)
            return ResolveMelee(ms[0].defender) if ms else EndPhase()
        return EndPhase()

    def joiners(self, melee) -> tuple:
        """As defender: bring in every unit that fights with a rating of 2 or better."""
        b = self.battle
        return tuple(j for j in melee.may_join
                     if profile(b.units[j])["melee_front"] >= 2 or b.units[j].hits >= 4)

    # ---- orders ----------------------------------------------------------------------------
    def orders(self, cid: str) -> tuple[str, Box | None]:
        """read_orders, kept while the records it reads are the same (the command, the
        turn state, the hierarchy: immutable, replaced on every change); asked per unit."""
        b = self.battle
        state, command, tree = b.state, b.commands[cid], b.hierarchy
        hit = self._orders.get(cid)
        if hit is not None and hit[0] is state and hit[1] is command and hit[2] is tree:
            return hit[3]
        got = read_orders(b, cid, self.side)
        self._orders[cid] = (state, command, tree, got)
        return got

    # ---- rally -----------------------------------------------------------------------------
    def _rally(self):
        b = self.battle
        for leader in sorted(b.live_leaders(self.side), key=lambda l: l.id):
            if leader.rallied or leader.id in self.done:
                continue
            self.done.add(leader.id)
            best = None
            for uid in rallyable(b, leader):
                u = b.units[uid]
                score = (u.max_hits - u.hits) + (2 if 2 * u.hits <= u.max_hits else 0)
                if best is None or score > best[0]:
                    best = (score, uid)
            if best:
                return Rally(leader.id, best[1])
        return None

    # ---- move and fire ----------------------------------------------------------------------
    def _move(self):
        b = self.battle
        brd = board(b)
        if not brd.has_enemies(self.side):
            return None
        if not self.order:      # plan once a phase: the front moves first, the rear follows
            eboxes = enemies_of(b, self.side)[1]
            gap = {}
            mine = b.live_units(self.side)
            heres = [brd.unit_box[u.id] for u in mine]
            for u, here, near in zip(mine, heres, nearest_all(heres, eboxes)):
                self.nearest[u.id], gap[u.id] = near, box_gap(here, near)
            self.order = sorted(gap, key=lambda uid: (gap[uid], uid))
            for cid in b.hierarchy.commands_of(self.side):
                _, obj = self.orders(cid)
                if obj is None:
                    continue
                ds = sorted(box_gap(brd.unit_box[u], obj) for u in b.hierarchy.units_of(cid)
                            if not b.units[u].eliminated)
                if ds:
                    self.front[cid] = ds[len(ds) // 2]
        while self.cursor < len(self.order) and self.order[self.cursor] in self.done:
            self.cursor += 1                # units before the cursor have finished
        for uid in self.order[self.cursor:]:
            u = b.units[uid]
            if uid in self.done or u.eliminated:
                continue
            act = self._unit_turn(u)
            if act is not None:
                return act
            self.done.add(u.id)
        for leader in sorted(b.live_leaders(self.side), key=lambda l: l.id):
            if leader.moved or ("L", leader.id) in self.done:
                continue
            self.done.add(("L", leader.id))
            act = self._leader_move(leader)
            if act is not None:
                return act
        return None

    def _unit_turn(self, u):
        """The next action for this unit, or None when it has finished its turn."""
        b = self.battle
        prof = profile(u)
        kind, obj = self.orders(b.hierarchy.command_of(u.id))
        brd = board(b)
        box_unit = brd.box_unit
        here = brd.unit_box[u.id]           # = box_of(b, u): the board holds live units' boxes
        near = self.nearest.get(u.id) or nearest(here, enemies_of(b, self.side)[1])
        if near not in box_unit:      # that enemy has gone: look again
            near = self.nearest[u.id] = nearest(here, enemies_of(b, self.side)[1])
        dist = box_distance(here, near)
        ahead = box_unit.get(step(here, facing_dir(u)))
        engaged = ahead is not None and b.units[ahead].side != self.side
        shoots = prof["fire_dice"] > 0
        in_reach = u.moved or dist <= max_range(b, u)      # unmoved: the nearest enemy decides
        if not u.fired and shoots and in_reach and (
                engaged or u.moved or kind in ("reserve", "hold") or prof.arm == "artillery"
                or u.fixed):
            shot = self._best_shot(u)
            if shot is not None:
                return shot
        if u.moved or engaged or u.fixed or (u.fired and u.kind in FOOT_GUNS):
            return None                     # a foot battery that fired stays where it is
        if kind == "reserve" or (prof.arm == "artillery" and dist <= max_range(b, u) * 0.75
                                 and self._best_shot(u) is not None):
            return None
        if kind == "hold" and obj is not None and box_gap(here, obj) <= 2 and dist > 4:
            return None                     # holding, and nobody close enough to strike
        form = self._formation(u, dist)
        if form == "square":
            return ChangeFormation(u.id, "square")
        goal = self._goal(u, kind, obj, near)
        return self._choose_move(u, goal, near, kind, form)

    def _formation(self, u, dist: float) -> str:
        """With formations in use: column to march, line to fight, square against
        cavalry close by. '' keeps the formation it has."""
        b = self.battle
        if not b.option("formations") or profile(u).arm != "infantry":
            return ""
        here = box_of(b, u)
        brd = board(b)
        horse = [e for e in enemies_of(b, self.side)[1] if box_gap(here, e) <= 4
                 and profile(b.units[brd.box_unit[e]]).arm == "cavalry"]
        if any(box_gap(here, e) <= 2 for e in horse):
            return "square" if u.formation != "square" else ""
        if u.formation == "square":
            return "line" if not horse else ""
        if dist > 7 and u.formation == "line":
            return "column"
        if dist <= 5 and u.formation == "column":
            return "line"
        return ""

    def _goal(self, u, kind, obj, near) -> Box:
        b = self.battle
        here = board(b).unit_box[u.id]
        if kind == "withdraw":
            d = EDGE_DIR.get(b.sides[self.side].home_edge, 6)
            return (here[0] + DIRS[d][0] * 10, here[1] + DIRS[d][1] * 10)
        # `engage`: how near an enemy must be before the unit turns on him rather than
        # marching on (a column's march to the crossings ignores what it passes)
        engage = (b.commands[b.hierarchy.command_of(u.id)].orders or {}).get("engage", 6)
        if obj is None or box_distance(here, near) <= engage:
            return near
        return obj

    def _choose_move(self, u, goal: Box, near: Box, kind: str, form: str = ""):
        b = self.battle
        prof = profile(u)
        reach, roads, backs, _ = move_options(b, u, form)
        here = board(b).unit_box[u.id]
        best_score, best = self._score_stay(u, goal), None
        # keep the line: marching on the objective, no more than 1.5 boxes ahead of the
        # command's median unit (contact and the enemy itself are not held back)
        front = self.front.get(b.hierarchy.command_of(u.id))
        pace = front is not None and goal != near and kind != "withdraw"
        # hold: once at the objective, stay within 2 boxes of it (3 to close with the enemy)
        _, obj = self.orders(b.hierarchy.command_of(u.id))
        anchor = obj if kind == "hold" and obj is not None and box_gap(here, obj) <= 2 else None
        artillery = prof.arm == "artillery"
        rng = max_range(b, u) if prof["fire_dice"] else 0
        ideal = min(rng * 0.6, 6)
        # box -> (score before facing and cost, wanted dir, pace penalty, the most any
        # facing there can score), or None for a box not to end in, or whose most
        # cannot beat the best so far when first seen: facing and cost only take away
        # and the best only grows, so it never will (rounding is monotonic)
        per_box: dict[Box, tuple | None] = {}
        seen, unseen = per_box.get, _UNSEEN
        for r in (reach, roads):
            for (box, d), cost in r.cost.items():
                pb = seen(box, unseen)
                if pb is unseen:
                    pb = per_box[box] = None
                    if box != here and not (anchor and box_gap(box, anchor) > 2):
                        dx, dy = abs(box[0] - goal[0]), abs(box[1] - goal[1])
                        gap = dx + dy - 0.5 * (dx if dx < dy else dy)   # box_gap, no call
                        base = -abs(box_gap(box, near) - ideal) if artillery else -gap * 2
                        pen = 3 * ((front - gap) - 1.5) if pace and front - gap > 1.5 else None
                        top = base if pen is None else base - pen
                        if top > best_score:
                            pb = per_box[box] = (base, direction_to(box, near if artillery
                                                                    else goal), pen, top)
                if pb is None or pb[3] <= best_score:
                    continue
                s = pb[0] - 0.3 * TURN_OFF[d][pb[1]] - (0 if artillery else 0.05 * cost)
                if pb[2] is not None:
                    s -= pb[2]
                if s > best_score:
                    best_score, best = s, (box, d)
            if artillery or kind == "withdraw":
                continue
            for box in r.contact:
                if anchor and box_gap(box, anchor) > 3:
                    continue
                for d in contact_facings(b, u, box):
                    edge = self._melee_edge(u, box, d)
                    if edge is None:
                        continue
                    s = -box_gap(box, goal) * 2 + 3 * edge
                    if s > best_score:
                        best_score, best = s, (box, d)
        if kind == "withdraw":
            for box, cost in backs.items():
                s = -box_gap(box, goal) * 2
                if s > best_score:
                    best_score, best = s, (box, facing_dir(u))
        if best is None:
            return ChangeFormation(u.id, form) if form else None
        x, y = board(b).centre(best[0])
        return MoveUnit(u.id, (x, y), best[1] * 45, form)

    def _score_stay(self, u, goal) -> float:
        here = board(self.battle).unit_box[u.id]
        return -box_distance(here, goal) * 2 - 0.3 * turn_off(facing_dir(u), direction_to(here, goal))

    def _melee_edge(self, u, box: Box, d: int):
        """Expected hits dealt minus taken if u attacks from box facing d; None to refuse."""
        b = self.battle
        brd = board(b)
        target_id = brd.box_unit.get(step(box, d))
        if target_id is None:
            return None
        t = b.units[target_id]
        mine = u.hits * profile(u)["melee_front"] / 6
        tb = brd.unit_box[t.id]
        flank = box not in front_boxes(tb, facing_dir(t))
        theirs = t.hits * (profile(t)["melee_other"] if flank else profile(t)["melee_front"]) / 6
        edge = mine - theirs
        if 2 * u.hits <= u.max_hits:
            return None                     # a worn unit waits to be rallied, not charged in
        keen = profile(u).arm == "cavalry" or u.kind in ("guard_infantry", "grenadiers")
        return edge if edge > (0.0 if keen else 0.3) else None

    def _best_shot(self, u):
        """The shot `_find_shot` picks, kept until the battle changes: an unmoved gun that
        found no shot is asked again straight away (may it stand?), with nothing changed."""
        b = self.battle
        return b.cached(("morschauser.best_shot", self.side, u.id), lambda: self._find_shot(u))

    def _find_shot(self, u):
        """The shot with the most expected hits (weak targets count more), or None."""
        return find_shot(self.battle, self.side, u)

    # ---- leaders -----------------------------------------------------------------------------
    def _leader_move(self, leader):
        b = self.battle
        units = [b.units[u] for u in b.hierarchy.units_led_by(leader.id) if not b.units[u].eliminated]
        if not units:
            return None
        brd = board(b)
        cx = sum(brd.unit_box[u.id][0] for u in units) / len(units)
        cy = sum(brd.unit_box[u.id][1] for u in units) / len(units)
        edge = DIRS[EDGE_DIR.get(b.sides[self.side].home_edge, 6)]
        want = (round(cx + edge[0]), round(cy + edge[1]))
        here = box_of(b, leader)
        if box_gap(here, want) <= 1.5 and all(box_gap(here, brd.unit_box[u.id]) <= LEADER["radius"]
                                           for u in units):
            return None                     # already where he should be

        spots_of_units = [brd.unit_box[u.id] for u in units]
        radius = LEADER["radius"]

        def scores(boxes):
            return leader_spot_scores(boxes, spots_of_units, want, radius, brd.box_unit)
        # his own box scored in the same pass, last (each row is scored on its own)
        spots = scores([bx for bx in around(want, 2)
                        if brd.grid.contains(bx) and box_gap(here, bx) <= LEADER["move"]] + [here])
        here_score = spots.pop()[0]
        spots.sort()
        if not spots:                       # too far to reach the spot: ride toward it
            spots = sorted(scores([bx for bx in around(here, 4)
                                   if brd.grid.contains(bx) and box_gap(here, bx) <= LEADER["move"]]))
        for sc, bx in spots[:12]:           # best first; the first he can ride to
            if sc >= here_score - 0.5:
                return None
            if bx != here and leader_cost(b, leader, bx) is not None:
                return MoveLeader(leader.id, brd.centre(bx))
        return None


_UNSEEN = object()
