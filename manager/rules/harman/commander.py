"""The automatic commander for Harman's rules: one side, from its commands' orders.

Guns unlimber within effective range and fire in the artillery phase; infantry steps
one square toward the enemy and fires, or charges with the bayonet when the exact odds
of breaking the enemy at once are good; cavalry charges on the same odds and otherwise
waits out of musket range; Generals join a unit that has lost heart and try to rally it.
"""
from __future__ import annotations

from ...game_actions import (ChangeFormation, Charge, Fire, MoveLeader, MoveUnit,
                             Rally)
from ...model.forces import mark
from ..common import OrdersCommander
from .board import box, centre, kinds, occupants, spent, squares, utype
from .combat import charge_odds, melees
from .fire import fire_odds, may_fire
from .moves import allowance, reach
from .tables import ARTILLERY


class Commander(OrdersCommander):
    ruleset_id = "harman"
    steps = {"artillery": "_fire", "move": "_move"}

    def _best_shot(self, u):
        b = self.battle
        best = None
        for e in b.live_units(b.enemy_of(self.side)):
            if squares(box(b, u), box(b, e)) > 9:
                continue
            action = Fire(u.id, e.id)
            if self.legal(action):
                value = float(fire_odds(b, action).lines[0].dist.mean())
                if best is None or value > best[0]:
                    best = (value, action)
        return best[1] if best else None

    def _fire(self):
        b = self.battle
        for u in b.live_units(self.side):
            if u.id in self.done or may_fire(b, u):
                continue
            self.done.add(u.id)
            action = self._best_shot(u)
            if action is not None:
                return action
        return None

    def _move(self):
        b = self.battle
        going_on = self.first_melee(melees)
        if going_on is not None:
            return going_on
        action = self.first_order(self.leaders(), self._general)
        if action is not None:
            return action
        for u in b.live_units(self.side):
            if u.id in self.done:
                continue
            action = self._unit(u)
            if action is None:
                self.done.add(u.id)
            else:
                return action
        return None

    def _gun_spot(self, u):
        """Where a limbered battery should unlimber: the nearest square it can reach this
        turn from which it sees an enemy within its effective range (None: nowhere)."""
        b = self.battle
        key = ("gun_spot", u.id)
        if key in self.done:
            return None
        from ...errors import IllegalAction
        from .fire import shot
        best = None
        for sq, n in sorted(reach(b, u, allowance(b, u, "")).items(), key=lambda t: t[1]):
            if sq in occupants(b) and occupants(b)[sq].id != u.id:
                continue
            x, y = centre(b, sq)
            probe = b.copy()
            probe.update_unit(u.id, x=x, y=y, formation="line")
            pu = probe.units[u.id]
            for e in probe.live_units(probe.enemy_of(self.side)):
                if squares(sq, box(probe, e)) > ARTILLERY[utype(u)][1] + 1:
                    continue
                try:
                    shot(probe, pu, e)
                except IllegalAction:
                    continue
                best = sq
                break
            if best is not None:
                break
        return best

    def _general(self, l):
        b = self.battle
        here = box(b, l)
        for u in b.live_units(self.side):
            if mark(u, "retiring") and u.hits > 0 and not u.moved:
                if box(b, u) == here and not l.rallied:
                    action = Rally(l.id, u.id)
                    if self.legal(action):
                        return action
                elif not l.moved and squares(here, box(b, u)) <= 3:
                    action = MoveLeader(l.id, centre(b, box(b, u)))
                    if self.legal(action):
                        return action
        if l.moved:
            return None
        g = b.battlefield.grid
        action = self.ride_behind(l, g, 3 * g, lambda lid, to: MoveLeader(
            lid, centre(b, (int(to[0] // g), int(to[1] // g)))))
        return action if action is not None and self.legal(action) else None

    def _unit(self, u):
        b = self.battle
        if u.moved or spent(u) or mark(u, "engaged"):
            shot = self._best_shot(u) if not may_fire(b, u) else None
            return shot
        t = utype(u)
        enemies = b.live_units(b.enemy_of(self.side))
        if not enemies:
            return None
        here = box(b, u)
        enemy = min(enemies, key=lambda e: squares(here, box(b, e)))
        d = squares(here, box(b, enemy))
        kind, obj = self.orders(u)
        if t in ("infantry", "cavalry") and kind != "reserve":
            best = None
            for e in enemies:
                if squares(here, box(b, e)) > 5:
                    continue
                action = Charge(u.id, e.id)
                if not self.legal(action) or (t == "cavalry" and e.formation == "square"):
                    continue
                # the chance the enemy breaks at once, and the odds of the fight after it
                p = float(next(iter(charge_odds(b, action).outcomes.values())))
                worth = p + (0.3 if e.hits <= u.hits else 0.0) + (0.3 if spent(e) else 0.0)
                if worth > 0.35 and (best is None or worth > best[0]):
                    best = (worth, action)
            if best is not None:
                return best[1]
        if t.endswith("artillery"):
            if u.formation == "limbered" and self._gun_spot(u) == here:
                return ChangeFormation(u.id, "line")
            if u.formation == "limbered" and self._gun_spot(u) is not None:
                spot = self._gun_spot(u)
                action = MoveUnit(u.id, centre(b, spot), u.facing)
                if self.legal(action):
                    return action
            if u.formation != "limbered" and not may_fire(b, u):
                return self._best_shot(u)
            if u.formation != "limbered":
                return None
        if not may_fire(b, u) and t not in ("cavalry",) and d <= 2:
            return self._best_shot(u)
        if kind == "reserve" or (kind == "hold" and obj is not None and d > 3):
            return None
        goal = box(b, enemy)
        g = b.battlefield.grid
        if obj is not None and d > self.engage(u, 6 * g) / g:     # squares
            goal = (int(obj[0] // g), int(obj[1] // g))
        stand = {"infantry": 2, "skirmishers": 2, "cavalry": 3}.get(t, 6)
        r = reach(b, u, allowance(b, u, ""))
        occ = occupants(b)
        best = None
        close = t == "infantry" and d <= 2
        for sq, n in r.items():
            if (sq in occ and occ[sq].id != u.id) or (close and n > 1):
                continue
            score = abs(squares(sq, goal) - stand) + (0.1 * n if t == "infantry" and n > 1
                                                      and d <= 4 else 0)
            if t == "skirmishers" and kinds(b, sq) & {"road", "bridge", "ford"}:
                score += 1.5             # skirmishers keep off the causeway and the
                                         # crossings the formed troops need
            if best is None or score < best[0]:
                best = (score, sq, n)
        if best is None or best[1] == here:
            return None
        action = MoveUnit(u.id, centre(b, best[1]), u.facing)
        return action if self.legal(action) else None
