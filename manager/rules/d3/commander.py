"""The automatic commander for D3: one side, from its commands' standing orders.

Foot and guns close to their range and shoot; cavalry (`cavalry.py`) charges where the
exact odds are good and otherwise rides to a spot it can charge from next turn;
generals ride behind their commands, and away when the enemy comes within 6 inches.
"""
from __future__ import annotations

from ... import spatial
from ...errors import IllegalAction
from ...footprint import angle_between, bearing, distance, heading
from ...game_actions import Fire, MoveLeader, MoveUnit
from ...model.forces import mark
from ..common import OrdersCommander
from .cavalry import CavalryMixin
from .combat import (in_range_candidates, melees, shooter_refusal, shooting_chance, shot,
                     shot_bound, shot_mean, surely_no_candidates, surely_out_of_range)
from .tables import GENERAL_MOVE, MOVE, RANGE
from .moves import landing, surely_blocked_each, surely_refused_by_units
from .reroll import RerollActivation, pending
from .ring import hundredth
from .sight import surely_hidden
from .units import near, reroller, threatened_general, utype

class Commander(CavalryMixin, OrdersCommander):
    ruleset_id = "d3"
    steps = {"move": "_move", "shoot": "_shoot", "melee": "_melee"}

    def legal(self, action) -> bool:
        """The rules' check; a move another unit stands in the way of is refused first
        (`surely_refused_by_units`: only moves the check refuses are passed over)."""
        if type(action) is MoveUnit and surely_refused_by_units(self.battle, action):
            return False
        return super().legal(action)

    def next_action(self):
        """A failed test is re-rolled when it is worth the general's one re-roll."""
        b = self.battle
        due = pending(b)
        if due is not None and b.state.active == self.side:
            act = self._reroll(due)
            if act is not None:
                return act
        return super().next_action()

    def _reroll(self, due):
        """By value: a charge or a shot always; a move only with an enemy within 18
        inches (a march far from the enemy can wait for a later turn)."""
        b = self.battle
        u = b.units[due["unit"]]
        general = reroller(b, u)
        if general is None:
            return None
        kind = due["action"]["action"]
        if kind == "MoveUnit" and not near(b, u.pos, 18, b.enemy_of(self.side)):
            return None
        action = RerollActivation(general.id, u.id)
        return action if self.legal(action) else None

    # ---- movement ------------------------------------------------------------------------
    def _move(self):
        b = self.battle
        leaders = self.leaders()        # (asking a general's order changes nothing: once)
        for l in leaders:               # the text's "must move 12 inches away", whenever it
            if not l.moved and threatened_general(b, l):   # arises (a friend moving off
                action = self._general(l)                  # can expose him after his turn)
                if action is not None:
                    return action
        return (self.first_order(leaders, self._general, lambda l: l.moved)
                or self.first_order(self.battle.live_units(self.side), self._unit,
                                    lambda u: u.moved or mark(u, "charging")))

    def _general(self, l):
        b = self.battle
        back = self.back_bearing()
        if threatened_general(b, l):
            # a full 12 inches away (or to the table's edge), the way home first, then
            # wheeling round: cornered against the edge or the enemy, any way out will do
            for turn in (0, -30, 30, -60, 60, -90, 90, -120, 120, -150, 150, 180):
                hx, hy = heading((back + turn) % 360)
                to = (min(max(l.x + hx * GENERAL_MOVE, 0), b.battlefield.width),
                      min(max(l.y + hy * GENERAL_MOVE, 0), b.battlefield.height))
                if self.legal(MoveLeader(l.id, to)):
                    return MoveLeader(l.id, to)
            return None
        action = self.ride_behind(l, 6, GENERAL_MOVE, MoveLeader)
        return action if action is not None and self.legal(action) else None

    def _unit(self, u):
        b = self.battle
        t = utype(u)
        enemy = self._nearest(u)
        if enemy is None:
            return None                            # no enemy within 60 inches
        kind, obj = self.orders(u)
        if t == "cavalry" and kind != "reserve":
            action = self._cavalry(u, kind)
            if action is not None:
                return action
        gap = distance(enemy.pos, u.pos)
        # "stand and shoot" is asked last of the orders that would stand it anyway: a
        # deployed gun or a reserve, or a unit with under half an inch to go, already
        # facing its nearest enemy stands whether or not it could shoot (`_face` turns
        # it no more); no enemy centre within the range + 4: no candidate, no shot
        shoots = t != "cavalry" and gap <= RANGE[t] + 4
        if kind in ("reserve",) or (t == "artillery" and mark(u, "deployed")):
            if self._faces(u, enemy) or (shoots and self._could_shoot(u)):
                return None
            return self._face(u, enemy)
        standoff = {"infantry": 10.0, "skirmishers": 10.0, "artillery": 30.0, "cavalry": 10.0}[t]
        if kind == "withdraw":
            way, want = self.back_bearing(), MOVE[t]
        else:
            goal = enemy.pos if (gap < self.engage(u, 30) or obj is None or kind == "hold") else obj
            if kind == "hold" and obj is not None and distance(u.pos, obj) > 3:
                goal = obj
            way = bearing(u.pos, goal)
            want = min(MOVE[t], max(distance(u.pos, goal) - (standoff if goal == enemy.pos else 0), 0))
        if want < 0.5 and self._faces(u, enemy):
            return None
        if shoots and self._could_shoot(u):
            return None                            # stand and shoot
        if want < 0.5:
            return self._face(u, enemy)
        face_to = round(bearing(u.pos, enemy.pos)) % 360 if kind != "withdraw" else round(way) % 360
        hx, hy = heading(way)
        # (an end the rounding puts beyond the allowance, as it can the full move's, is
        # refused by check_move_unit whatever the facing: not looked at)
        tos = [to for to in ((hundredth(u.x + hx * want * k), hundredth(u.y + hy * want * k))
                             for k in (1.0, 0.75, 0.5, 0.25))
               if distance(u.pos, to) <= MOVE[t] + 1e-6]
        lands = landing(b, u, (u.x + hx * want, u.y + hy * want))
        for to, blocked in zip(tos, surely_blocked_each(b, u, tos)):
            if blocked:                              # through a base: refused, any facing
                continue
            for facing in dict.fromkeys((face_to, round(way) % 360, u.facing)):
                if lands(to, facing):                # on another base: the rules refuse it
                    continue
                action = MoveUnit(u.id, to, facing)
                if self.legal(action):
                    return action
        return None

    def _nearest(self, u, reach: float = 60):
        """The first of the nearest enemies in live_units order, if within `reach`
        (min(near(u.pos, reach, enemies), key=distance to u)), else None."""
        return spatial.nearest_unit(self.battle, u.pos, reach, self.battle.enemy_of(self.side))

    @staticmethod
    def _faces(u, enemy) -> bool:
        """Does the unit face the enemy near enough (40 degrees) not to turn to him?"""
        return angle_between(bearing(u.pos, enemy.pos), u.facing) <= 40

    def _face(self, u, enemy):
        if self._faces(u, enemy):
            return None
        action = MoveUnit(u.id, u.pos, round(bearing(u.pos, enemy.pos)) % 360)
        return action if self.legal(action) else None

    def _could_shoot(self, u) -> bool:
        """Any(_can_shoot): the lines of sight a friend's base surely blocks are judged
        together first (`surely_hidden`: only shots the rules refuse are passed over)."""
        b = self.battle
        cands = in_range_candidates(b, u, RANGE[utype(u)] + 4, b.enemy_of(self.side))
        return any(not hidden and self._can_shoot(u, e)
                   for e, hidden in zip(cands, _hidden(b, u, cands)))

    def _can_shoot(self, u, e) -> bool:
        if utype(u) == "cavalry" or distance(u.pos, e.pos) > RANGE[utype(u)] + 4 \
                or surely_out_of_range(self.battle, u, e):
            return False
        try:
            shot(self.battle, u, e)
            return True
        except IllegalAction:
            return False

    # ---- shooting and charges ---------------------------------------------------------------
    def _shoot(self):
        b = self.battle
        for u in b.live_units(self.side):
            if u.id in self.done:
                continue
            self.done.add(u.id)
            if utype(u) == "cavalry" or shooter_refusal(b, u):
                continue                           # the rules refuse its every shot
            if utype(u) != "artillery" and surely_no_candidates(b, u, b.enemy_of(self.side)):
                continue                           # (foot: a band of the index, no numpy)
            cands = [e for e in in_range_candidates(b, u, 55, b.enemy_of(self.side))
                     if e.hits > 0]
            best = self._best_shot(u, cands)
            if best is not None:
                return best
        return None

    def _best_shot(self, u, cands):
        """The legal shot of the most worth: max((odds' mean hits + (9 - hits) * 0.05,
        target id)) over the candidates. The mean is the shooter's activation chance
        times the D3 less the shot's minus, and cover only adds to SHOT_MINUS: so
        `shot_bound` (SHOT_MINUS alone) + (9 - hits) * 0.05 bounds a target's worth from
        above. The targets are judged fewest hits left first (then the highest id), and
        only until the best legal shot found beats the next one's bound with its id
        (its option can be no more; those after it, less: their bounds are lower, as
        hits a twentieth apart stay apart in floats this size, or equal with a lower
        id): the same pick as judging every one. A shot's mean is fire_odds' (`shot_mean`
        of the shooter's chance, asked once, and the shot's minus), its odds not built."""
        b = self.battle
        hidden = _hidden(b, u, cands)        # (most lines are: the pre-check still pays)
        ranked = sorted((((9 - e.hits) * 0.05, e.id, e) for e, h in zip(cands, hidden)
                         if not h), key=lambda r: r[:2], reverse=True)
        best, top, p = None, None, None
        for extra, eid, e in ranked:
            if best is not None:
                top = shot_bound(b, u, p) if top is None else top   # (asked once, if at all)
                if best[:2] > (top + extra, eid):
                    break
            action = Fire(u.id, e.id)
            if self.legal(action):
                p = shooting_chance(b, u) if p is None else p
                option = (shot_mean(p, shot(b, u, e).minus) + extra, e.id, action)
                if best is None or option > best:
                    best = option
        return best[2] if best else None

    def _melee(self):
        return self.first_melee(melees)


HIDDEN_FROM = 4     # candidates from which the lines are judged together first


def _hidden(battle, unit, cands) -> list:
    """surely_hidden for four or more candidates; for fewer, all "maybe not" (the rules'
    shot answers each: the pre-check's pass over every base, rebuilt after each change,
    costs more than a few shots: ~0.9 ms a call against ~0.5 ms a shot, measured
    over 8 Austerlitz turns)."""
    return surely_hidden(battle, unit, cands) if len(cands) >= HIDDEN_FROM \
        else [False] * len(cands)
