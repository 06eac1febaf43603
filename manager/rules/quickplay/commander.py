"""The automatic commander for the quick-play rules: one side, from standing orders.

Each unit acts once: it shoots if it has a target in close range (or any in range
while holding), charges when the exact odds say the roll will likely reach and the
enemy will more likely break, or advances toward the enemy or its objective, keeping
to long musket range, to shoot at the end of the turn. Commanders ride behind their
commands and cry "Rally men!" for a unit hit by fire close by.
"""
from __future__ import annotations

from ...footprint import EPS, bearing, distance, heading
from ...game_actions import Charge, Fire, MoveLeader, MoveUnit, Rally
from ...model.forces import mark
from ..common import OrdersCommander
from .combat import shooter_refusal, volley, volley_bound
from .bases import charged, maybe_in_reach, nearest
from .hidden_lines import surely_hidden
from .melee import charge_plan, charger_refusal, melees, surely_too_far
from .melee_odds import charge_odds, volley_mean
from .move_ground import landing
from .moves import max_allowance, roll_reaches
from .tables import FIRE_ARC, RANGES
from .units import acted, arm, footprint, known_terrain_sight, near, prof

class Commander(OrdersCommander):
    ruleset_id = "quickplay"
    steps = {"act": "_act", "end_fire": "_end_fire", "melee": "_melee"}

    def _act(self):
        b = self.battle
        return (self.first_order(self.leaders(), self._commander, lambda l: l.moved)
                or self.first_order(b.live_units(self.side), self._unit,
                                    lambda u: acted(b, u) or mark(u, "charging")))

    def _commander(self, l):
        action = self._commander_order(l)
        return action if action is not None and self.legal(action) else None

    def _commander_order(self, l):
        b = self.battle
        for u in near(b, l.pos, 12, self.side):
            if mark(u, "hit_by_fire") == b.state.turn and u.hits < u.max_hits:
                return Rally(l.id, u.id)
        return self.ride_behind(l, 5, 14, MoveLeader)

    def _hidden(self, u, targets) -> list:
        """`surely_hidden`, each line judged once a battle version: a unit's charge and
        shot candidates are judged together, in one pass."""
        b = self.battle
        memo = b.cached(("quickplay.hidden", u.id), dict)
        missing = [t for t in targets if t.id not in memo]
        if missing:
            memo.update(zip([t.id for t in missing], surely_hidden(b, u, missing)))
        return [memo[t.id] for t in targets]

    def _seen_blocked(self, u, e) -> bool:
        """Is the line from u to e known (measured before, on this table) to be blocked
        by woods, towns or a hill? The rules then refuse a shot or a charge along it
        (`sight_refusal` names a base in the way or this terrain): units facing a town
        ask it turn after turn."""
        return bool(known_terrain_sight(self.battle, u.pos, e.pos))

    def _shot_candidates(self, u) -> list:
        """Enemies the unit may shoot at for all the cheap looks say: not surely beyond
        range, out of the arc or in melee (the rules would refuse those), none at all
        when the rules refuse the shooter whatever the target."""
        b = self.battle
        if shooter_refusal(b, u):
            return []
        far = RANGES[prof(u)["weapon"]][1] if arm(u) != "cavalry" else -1.0
        held = charged(b, self.side)       # `engaged` of an enemy, asked of dozens at once
        return [e for e in maybe_in_reach(b, u, footprint(b, u), 52, b.enemy_of(self.side),
                                          FIRE_ARC, far)
                if not (mark(e, "charging") or e.id in held)]

    def _targets(self, u, cands=None) -> list:
        """[(mean hits, target id, Fire)] of the best shot allowed (the most hits
        expected, the highest id among equals), or []. The candidates are weighed from
        the strongest volley each could be (`volley_bound`, nothing measured) down; once
        a shot allowed beats the bound of every one left, none left can beat it and
        they are not checked: the pick of weighing every shot."""
        b = self.battle
        cands = self._shot_candidates(u) if cands is None else cands
        order = sorted(((volley_mean(volley_bound(b, u, e)), e.id, e)
                        for e, hidden in zip(cands, self._hidden(u, cands))
                        if not hidden and not self._seen_blocked(u, e)),   # surely refused
                       key=lambda c: c[:2], reverse=True)
        best = None
        for bound, eid, e in order:
            if best is not None and (bound, eid) < best[:2]:
                break                       # no shot left can beat it
            action = Fire(u.id, e.id)
            if self.legal(action):
                shot = (volley_mean(volley(b, u, e)), e.id, action)
                if best is None or shot[:2] > best[:2]:
                    best = shot
        return [best] if best is not None else []

    def _unit(self, u):
        b = self.battle
        kind, obj = self.orders(u)
        enemy = nearest(b, u.pos, 60, b.enemy_of(self.side))
        if enemy is None:
            return None
        # shots are weighed only where they may be chosen below (a unit holding, a gun,
        # or the nearest enemy within close range and 3): elsewhere nobody would read them
        close = RANGES[prof(u)["weapon"]][0] if arm(u) != "cavalry" else 0
        shoots = arm(u) != "cavalry" and (kind in ("hold", "reserve") or arm(u) == "artillery"
                                          or distance(u.pos, enemy.pos) <= close + 3)
        targets = self._shot_candidates(u) if shoots else []
        if arm(u) != "artillery" and kind != "reserve":     # a reserve charges nobody
            best, value = None, 0.3
            # the rules would refuse it: the charger may not charge, or the target is
            # not to its front, surely hidden by a base or surely too far
            # (and those whose bases are surely farther apart than its best roll:
            # `surely_too_far`'s first look, asked of all at once)
            top = max_allowance(b, u)
            slack = top + 1e-6 + EPS + 1e-6
            cands = [] if charger_refusal(b, u) else maybe_in_reach(
                b, u, footprint(b, u), top + 6, b.enemy_of(self.side), 45, slack)
            # the shots' lines judged in the same pass (zip keeps the charges' answers)
            for e, hidden in zip(cands, self._hidden(u, cands + targets)):
                action = Charge(u.id, e.id)
                if hidden or self._seen_blocked(u, e) or surely_too_far(b, u, e) \
                        or not self.legal(action):
                    continue
                # the score (a chance of the defender testing, less one of the attackers)
                # is no more than the chance the roll reaches: too small, no odds asked
                if float(roll_reaches(u, charge_plan(b, u, e)[2])) <= value:
                    continue
                o = charge_odds(b, action).outcomes
                score = o.get("defender tests morale", 0) - o.get("attackers test morale", 0)
                if float(score) > value:
                    best, value = action, float(score)
            if best is not None:
                return best
        if shoots:
            shots = self._targets(u, targets)
            if shots:
                return shots[0][2]
        if kind in ("reserve",):
            return None
        standoff = {"infantry": 8.0, "cavalry": 10.0, "artillery": 24.0}[arm(u)]
        if kind == "withdraw":
            way, want = self.back_bearing(), 6.0
        else:
            goal = enemy.pos if (obj is None or distance(u.pos, enemy.pos) < self.engage(u, 24)) else obj
            if kind == "hold" and obj is not None:
                goal = obj
            way = bearing(u.pos, goal)
            want = max(distance(u.pos, goal) - (standoff if goal == enemy.pos else 0), 0)
            if want < 0.5:
                return None
            off = ((way - u.facing + 180) % 360) - 180
            way = u.facing + max(-40, min(40, off))
        want = min(want, 7.0 if arm(u) != "cavalry" else 14.0)
        hx, hy = heading(way)
        # the bases the spots (along one line) could land on, gathered once
        lands_on_another = landing(b, u, (u.x + hx * want, u.y + hy * want))
        # a unit already facing the way would ask each spot twice (1 spot in 8): the
        # same question of the same battle, so the same refusal
        facings = (round(way) % 360, u.facing)
        facings = facings[:1] if facings[0] == facings[1] else facings
        for k in (1.0, 0.6, 0.3):
            to = (round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
            for facing in facings:
                if lands_on_another(to, facing):   # the rules would refuse it
                    continue
                action = MoveUnit(u.id, to, facing)
                if self.legal(action):
                    return action
        return None

    def _end_fire(self):
        b = self.battle
        for u in b.live_units(self.side):
            if u.id in self.done:
                continue
            self.done.add(u.id)
            if u.moved and arm(u) != "cavalry":
                shots = self._targets(u)
                if shots:
                    return shots[0][2]
        return None

    def _melee(self):
        return self.first_melee(melees)
