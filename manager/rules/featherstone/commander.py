"""The automatic commander for the Featherstone-like rules: one side, from its orders.

Orders as for every ruleset (`attack` toward an objective, `hold` it, `reserve` until a
release turn or a friendly command is Shaken; objectives in boxes on a gridded table,
in inches on an open one). Infantry closes to musket range and shoots; guns stand and
fire when they have a target; cavalry waits out of musket range and charges when the
exact odds favour it; infantry forms square when enemy horse comes near. Generals ride
behind their commands and lend their influence to rallies when it helps; the player's
other choices (a near general's influence in a charge, counter-charging on a 7, a
grenadier's re-roll) are decided by value from the odds (choices.py).
"""
from __future__ import annotations

from math import hypot

from ... import spatial
from ...spatial import nearest_unit
from ...errors import IllegalAction
from ...footprint import angle_between, bearing, distance, heading, surely_apart
from ...game_actions import (ChangeFormation, Charge, Fire, MoveLeader, MoveUnit,
                             Rally)
from ...model.forces import mark
from ..common import OrdersCommander
from .fire import may_fire, shot_spec, square_face
from .fire_near import fire_near
from .fire_sight import ground_blocking, maybe_in_arc, surely_hidden
from .shot_odds import casualty_dist
from .melee import melees
from .charge_reach import surely_in_the_way, surely_too_far
from .charges import must_charge_left
from .choices import charge_value, commit_for_defence, counter_choice, reroll_choice
from .morale import may_influence, to_check
from .moves import landing_on
from .shot_bound import shot_bound
from .stuck import TRIALS, note_stuck, settled_refusal, still_stuck, stuck_key
from .state import allowance, arm, engaged, engaged_ids, footprint, profile
from .nearby import near_bases_apart, near_units, unit_gap
from .tables import ARTILLERY_RANGES, GENERAL_MOVE, NEAR_MOD, PROFILES, SMALL_ARMS
from .threats import charge_looks, threatened_ids


class Commander(OrdersCommander):
    ruleset_id = "featherstone"
    steps = {"rally": "_rally", "generals": "_generals", "charges": "_charges",
             "moves": "_moves", "fire_first": "_fire", "fire": "_fire", "melee": "_melee"}

    # ---- steps -------------------------------------------------------------------------
    def _rally(self):
        b = self.battle
        for u in to_check(b, self.side):
            if u.id in self.done:
                continue
            self.done.add(u.id)
            best = None
            for l in b.live_leaders(self.side):
                if not may_influence(b, l, u) and NEAR_MOD[l.quality or 3] > 0:
                    best = l
                    break
            return Rally(best.id if best else "", u.id)
        return None

    def _generals(self):
        def ride(l):
            action = self.ride_behind(l, 4, GENERAL_MOVE, MoveLeader)
            return action if action is not None and self.legal(action) else None
        action = self.first_order(self.leaders(), ride, lambda l: l.moved)
        return action if action is not None else self._stances()

    def _stances(self):
        """Once the generals have ridden: for each unit the enemy may charge this turn,
        counter-charge on a 7 or not, and a near general's influence, by value."""
        b = self.battle
        reach = threatened_ids(b, self.side)
        for u in b.live_units(self.side):
            key = ("stance", u.id)
            if key in self.done:
                continue
            self.done.add(key)
            if u.id not in reach:
                continue            # no enemy can charge it: neither choice weighs anything
            for choose in (counter_choice, commit_for_defence):
                action = choose(b, u)
                if action is not None and self.legal(action):
                    return action
        return None

    def _charges(self):
        b = self.battle
        pending, self.pending = getattr(self, "pending", None), None
        if pending is not None and self.legal(pending):
            return pending                  # the charge a general was committed to
        # a unit that rallied on a 7 must charge before the phase can end: first, whatever
        # the commander thought of it earlier in the phase
        for u, e in must_charge_left(b, self.side):
            return Charge(u.id, e.id)
        # the enemies each unit could charge by the first looks (one numpy pass for the
        # side): the others are beyond its move + 8, surely too far or out of its arc,
        # which the rules would refuse
        looks = charge_looks(b, self.side)
        for u in b.live_units(self.side):
            if u.id in self.done or u.moved or arm(u) == "artillery":
                continue
            self.done.add(u.id)
            kind, _ = self.orders(u)
            must = mark(u, "must_charge")
            if kind in ("reserve", "withdraw") and not must:
                continue
            best, best_p = None, 0.45 if arm(u) == "cavalry" else 0.5
            for e in looks.get(u.id, ()):
                if surely_too_far(b, u, e) or surely_in_the_way(b, u, e):
                    continue                          # the rules would refuse it
                action = Charge(u.id, e.id)
                if not self.legal(action):
                    continue
                try:
                    # worth it: the melee won, or the target gives way before contact
                    # (with a near general committed, less his risk, if that is more)
                    p, commit = charge_value(b, action)
                except IllegalAction:
                    continue
                if p > best_p or (must and best is None):
                    best, best_p, best_commit = action, p, commit
            if best is not None:
                commit = best_commit
                if commit is not None and self.legal(commit):
                    self.pending = best
                    return commit
                return best
        return None

    def _moves(self):
        b = self.battle
        return self.first_order(b.live_units(self.side), self._move_for,
                                lambda u: u.moved >= 2 or mark(u, "charging"))

    def _move_for(self, u):
        b = self.battle
        foe = b.enemy_of(self.side)
        # the enemy nearest within 40 inches (by the units sorted by x, not all 40 inches'
        # units measured: most units have one within 12 or 24)
        enemy = nearest_unit(b, u.pos, 40, foe)
        gap = unit_gap(b, enemy, u) if enemy else 1e9
        if arm(u) == "infantry":
            cav_near = self._cavalry_near(u, near_units(b, u.pos, self._horse_reach(u), foe))
            if cav_near and u.formation != "square":
                action = ChangeFormation(u.id, "square")
                if self.legal(action):
                    return action
            if not cav_near and u.formation == "square":
                return ChangeFormation(u.id, "line") if self.legal(
                    ChangeFormation(u.id, "line")) else None
        kind, obj = self.orders(u)
        if kind == "reserve":
            return None
        if kind == "withdraw":
            back = self.back_bearing()
            return self._toward(u, back, allowance(u) / 2, keep_facing=True)
        standoff = {"infantry": 5.0, "cavalry": 9.0, "artillery": 14.0}[arm(u)]
        if gap <= standoff + 1 or (arm(u) == "artillery" and self._has_target(u)):
            if enemy is not None and angle_between(bearing(u.pos, enemy.pos), u.facing) > 40:
                return self._face(u, enemy)
            return None
        if kind == "hold" and obj is not None and distance(u.pos, obj) <= 4:
            return self._face(u, enemy) if enemy is not None and angle_between(
                bearing(u.pos, enemy.pos), u.facing) > 40 else None
        goal = enemy.pos if (enemy is not None and (gap < self.engage(u, 24) or obj is None)) else obj
        if goal is None:
            return None
        want = min(allowance(u), max(distance(u.pos, goal) - standoff, 0))
        if arm(u) == "artillery":
            want = min(want, allowance(u) / 2)        # keep the guns able to fire
        if want < 0.5:
            return None
        return self._toward(u, bearing(u.pos, goal), want)

    def _cavalry_near(self, u, enemies) -> bool:
        """Enemy horse within 12 inches of the unit's base (bases whose circles are
        farther apart are not measured)."""
        b = self.battle
        fp = None
        for e in enemies:
            if PROFILES[e.kind].arm != "cavalry":       # (arm(e), without a call per enemy)
                continue
            fp = fp or footprint(b, u)
            if not surely_apart(footprint(b, e), fp, 12) and unit_gap(b, e, u) <= 12:
                return True
        return False

    def _horse_reach(self, u) -> float:
        """The reach of the enemies `_cavalry_near` need be given (it was given those
        within 40 inches): a base farther than 12 inches beyond u's circle and the
        largest base's half diagonal is surely apart (its circle is), passed over."""
        fp = footprint(self.battle, u)
        _, top = spatial.radii_list(self.battle, footprint)
        return min(40.0, 12 + hypot(fp.frontage, fp.depth) / 2 + top + 1e-3)

    def _toward(self, u, way: float, inches: float, keep_facing: bool = False):
        key = stuck_key(self.battle, u, way, inches, keep_facing)
        if still_stuck(self.battle, key):
            return None                 # every end lands on the bases it landed on last
        arc = self.battle.option("forward_arc", 45)
        off = ((way - u.facing + 180) % 360) - 180
        if not keep_facing and arm(u) != "artillery":
            way = u.facing + max(-arc, min(arc, off))
        facing = u.facing if keep_facing else round(way) % 360
        way = facing if not keep_facing else way
        blocker, blockers, settled = None, [], 0
        hx, hy = heading(way)
        for k in TRIALS:
            to = (round(u.x + hx * inches * k, 2), round(u.y + hy * inches * k, 2))
            # on another base: the rules would refuse it (the last trial's first)
            blocker = landing_on(self.battle, u, to, facing, blocker)
            if blocker is not None:
                blockers.append(blocker)
                continue
            action = MoveUnit(u.id, to, facing)
            if self.legal(action):
                return action
            settled += settled_refusal(self.battle, u, to, facing)
        if len(blockers) + settled == len(TRIALS):
            note_stuck(self.battle, key, blockers)
        return None

    def _face(self, u, enemy):
        facing = round(bearing(u.pos, enemy.pos)) % 360
        action = MoveUnit(u.id, u.pos, facing)
        return action if self.legal(action) else None

    def _has_target(self, u) -> bool:
        # beyond range or surely hidden by a base (all judged together): no shot, value 0
        b = self.battle
        cands = maybe_in_arc(b, u, *near_bases_apart(b, u, b.enemy_of(self.side), 50,
                                                     self._longest(u)))
        # (ground across the line: shot_spec refuses it, value 0)
        return any(not hidden and not ground_blocking(b, u, e) and self._shot_value(u, e) > 0
                   for e, hidden in zip(cands, surely_hidden(b, u, cands)))

    def _longest(self, u) -> float:
        weapon = profile(u)["weapon"]
        return (ARTILLERY_RANGES[weapon][-1] if arm(u) == "artillery"
                else SMALL_ARMS[weapon][-1][0])

    def _fire_looks(self, u):
        """(reach, inches): the enemy bases a shooter's first looks keep (near_bases);
        None for a unit with no weapon (horse: never asked)."""
        if not profile(u)["weapon"]:
            return None
        return 55 if arm(u) == "artillery" else 20, self._longest(u)

    def _out_of_range(self, u, e) -> bool:
        """Beyond the weapon's longest range whatever the bases' angles: the rules would
        refuse the shot (after judging the line of sight, the costly part), so skip it.
        (near_bases asks it of every enemy near at once.)"""
        return surely_apart(footprint(self.battle, u), footprint(self.battle, e),
                            self._longest(u))

    def _shot_value(self, u, e) -> float:
        if self._out_of_range(u, e):
            return 0.0
        try:
            return float(casualty_dist(shot_spec(self.battle, u, e)).mean())
        except IllegalAction:
            return 0.0

    def _fire(self):
        b = self.battle
        for u in b.live_units(self.side):
            if u.id in self.done:
                continue
            if may_fire(b, u):
                # refused all this step (nothing our own shots change: the arm, moves,
                # marks, the figures as the step began, a volley fired): not asked
                # again; only a melee could end within it, so that refusal is asked again
                if not engaged(b, u):
                    self.done.add(u.id)
                continue
            # fire at a charger: ResolveMelee takes it; beyond range or surely hidden by
            # a base (all candidates judged together): the rules would refuse the shot
            # (and outside the arc of fire: the rules refuse it before the sight line)
            busy = engaged_ids(b)
            near, apart = fire_near(b, u, b.enemy_of(self.side), *self._fire_looks(u),
                                    self._fire_looks)
            free = [i for i, e in enumerate(near) if e.id not in busy]
            cands = maybe_in_arc(b, u, [near[i] for i in free], [apart[i] for i in free])
            options = self._shots(u, cands)
            if not options:
                self.done.add(u.id)
                continue
            value, _, action = max(options)
            if arm(u) == "artillery" and value < 0.5 and mark(u, "shots", 0) >= 6:
                self.done.add(u.id)                 # save the last rounds for better targets
                continue
            if u.formation != "square":
                self.done.add(u.id)
            return action
        return None

    def _shots(self, u, cands) -> list:
        """(value, target id, Fire) for the shots at `cands` that could be the best: the
        lines of sight first (all judged together: the surely hidden are refused by the
        rules), then the targets in order of `shot_bound` (an upper bound of the value,
        cheap), each checked and valued only while its bound is not below the best value
        found; a target passed over could not have been the best, so the pick is the one
        judging them all would make. (`cands` are not engaged: never a charger, whose
        shot other rules judge.) A square's targets beyond a face that has fired are
        refused by the check before anything else."""
        b = self.battle
        faces = mark(u, "faces", ()) if u.formation == "square" else ()
        if faces:               # a face of the square that has fired: the check refuses it
            cands = [e for e in cands if square_face(b, u, e) not in faces]
        seen = [e for e, hidden in zip(cands, surely_hidden(b, u, cands)) if not hidden]
        if len(seen) > 1:
            bounds = {e.id: shot_bound(b, u, e) for e in seen}
            seen.sort(key=lambda e: -bounds[e.id])
        options, best = [], None
        for e in seen:
            if best is not None and bounds[e.id] < best:
                break                       # in bound order: the rest are lower still
            if ground_blocking(b, u, e):
                continue                    # the check refuses it (not a charger: no
            action = Fire(u.id, e.id)       # first or support fire)
            if self.legal(action):
                value = self._shot_value(u, e)
                options.append((value, e.id, action))
                best = value if best is None else max(best, value)
        return options

    def _melee(self):
        for m in melees(self.battle):
            key = ("reroll", m.defender)
            if key not in self.done:
                self.done.add(key)
                action = reroll_choice(self.battle, m, self.side)
                if action is not None and self.legal(action):
                    return action
        return self.first_melee(melees)
