"""Pieces more than one ruleset plays the same way: whose piece it is, a general's ride,
the two-sided start with a dice-off for the first player, charges kept as marks, and
the skeleton of an automatic commander that plays from standing orders."""
from __future__ import annotations

from dataclasses import dataclass

from ..actions import need
from ..autopilot import read_orders
from ..errors import IllegalAction
from ..footprint import distance
from ..game_actions import EndPhase
from ..model.forces import mark


def own_unit(battle, uid: str):
    unit = battle.units.get(uid)
    need(unit is not None, f"there is no unit {uid!r}")
    need(not unit.eliminated, f"{unit.name} is no longer in the battle")
    need(unit.side == battle.state.active, f"{unit.name} is not on the side to move")
    return unit


def check_ride(battle, action, reach: float):
    """A general's move: his side's, not yet moved, on the table, within `reach` inches."""
    leader = battle.leaders.get(action.leader)
    need(leader is not None and not leader.eliminated, f"there is no general {action.leader!r}")
    need(leader.side == battle.state.active, f"{leader.name} is not on the side to move")
    need(not leader.moved, f"{leader.name} has already moved this turn")
    bf = battle.battlefield
    need(0 <= action.to[0] <= bf.width and 0 <= action.to[1] <= bf.height, "off the table")
    d = distance(leader.pos, action.to)
    need(d <= reach + 1e-6, f"{leader.name} rides {reach:g} inches; that is {d:.1f}")
    return leader, d


def check_two_sides(battle) -> None:
    need(not battle.state.started, "the battle has already started")
    need(len(battle.sides) == 2, f"a battle needs two sides, this one has {len(battle.sides)}")
    for side in battle.sides:
        need(battle.live_units(side) or any(a.side == side for a in battle.pending),
             f"{battle.sides[side].name} has no units")     # (reinforcements count)


def dice_off(battle, dice, purpose: str) -> str:
    """A D6 each, high wins, ties re-rolled: the winning side's id."""
    sides = list(battle.sides)
    while True:
        a = dice.d6(f"{purpose}: {battle.sides[sides[0]].name}")
        b = dice.d6(f"{purpose}: {battle.sides[sides[1]].name}")
        if a != b:
            return sides[0] if a > b else sides[1]


@dataclass
class Melee:
    """A fight to resolve: the charged unit and its chargers (`may_join`: none here)."""
    defender: str
    attackers: tuple
    may_join: tuple = ()


def charges_by_target(battle) -> dict[str, list[str]]:
    """{target id: [charger ids]} from the `charging` marks of live units."""
    out: dict[str, list[str]] = {}
    units = battle.units
    for uid, t in chargers(battle).items():     # (any order: the answer is sorted)
        if t in units and not units[t].eliminated:
            out.setdefault(t, []).append(uid)
    return {t: sorted(a) for t, a in sorted(out.items())}


def chargers(battle) -> dict:
    """{live unit id: the id its `charging` mark names} for every live unit whose mark is
    set, kept current from the battle's journal of changes (a change re-reads that unit's
    mark; a wholesale change rebuilds): asked many times a battle version, where a scan
    reads every unit's marks. Not in live_units order. The dict is the view itself,
    changed by later updates: read it, do not keep it."""
    def build():
        out = {}
        for u in battle.live_units():
            t = mark(u, "charging")
            if t:
                out[u.id] = t
        return out

    def update(view, changes):
        units = battle.units
        for change in changes:
            if change[0] == "unit":
                u = units.get(change[1])
                t = None if u is None or u.eliminated else mark(u, "charging")
                if t:
                    view[change[1]] = t
                else:
                    view.pop(change[1], None)

    return battle.derived("chargers", build, update)


class OrdersCommander:
    """The frame of an automatic commander: one side, the phase's done-list, legality by
    the rules' own check, and standing orders with objectives in inches."""
    ruleset_id = ""
    steps: dict = {}           # phase -> the method proposing that phase's next order

    def __init__(self, battle, side: str):
        from . import get_ruleset
        self.battle, self.side = battle, side
        self.done: set = set()
        self.key = None
        self.rules = get_ruleset(self.ruleset_id)

    def joiners(self, melee) -> tuple:
        return ()

    def legal(self, action) -> bool:
        try:
            self.rules.check(self.battle, action)
            return True
        except IllegalAction:
            return False

    def next_action(self):
        """The next order for this side, EndPhase when it has none; None if not its turn."""
        if not self.new_phase():
            return None
        name = self.steps.get(self.battle.state.phase)
        return (getattr(self, name)() if name else None) or EndPhase()

    def new_phase(self) -> bool:
        """Track the phase; False when it is not this side's to play."""
        b = self.battle
        key = (b.state.turn, b.state.active, b.state.phase)
        if key != self.key:
            self.key, self.done = key, set()
        return b.state.active == self.side

    def orders(self, unit):
        b = self.battle
        kind, obj = read_orders(b, b.hierarchy.command_of(unit.id), self.side)
        if obj is not None and b.battlefield.grid:      # a gridded scenario names boxes
            g = b.battlefield.grid
            obj = ((obj[0] + 0.5) * g, (obj[1] + 0.5) * g)
        return kind, obj

    def engage(self, unit, default: float) -> float:
        """How near (inches) an enemy must be before the unit turns on him instead of
        marching on to its objective: the orders' `engage` (boxes on a gridded table,
        inches otherwise, as the plans measure), else this commander's own `default`."""
        b = self.battle
        o = b.commands[b.hierarchy.command_of(unit.id)].orders or {}
        return default if "engage" not in o else o["engage"] * (b.battlefield.grid or 1.0)

    # ---- moves every inch commander makes the same way ----------------------------------
    EDGE_BEARING = {"west": 270, "east": 90, "north": 0, "south": 180}

    def first_order(self, pieces, propose, skip=lambda piece: False):
        """The first order `propose(piece)` makes for a piece not yet decided this phase;
        each piece is decided once (`skip` passes one over without deciding it)."""
        for piece in pieces:
            if piece.id in self.done or skip(piece):
                continue
            self.done.add(piece.id)
            action = propose(piece)
            if action is not None:
                return action
        return None

    def leaders(self) -> list:
        return sorted(self.battle.live_leaders(self.side), key=lambda l: l.id)

    def back_bearing(self) -> float:
        return self.EDGE_BEARING.get(self.battle.sides[self.side].home_edge, 270)

    def ride_behind(self, leader, behind: float, reach: float, make):
        """An order for a general to ride toward a spot `behind` inches to the rear of his
        units' centre (`make(leader_id, (x, y))` builds it), or None when he is there."""
        from ..footprint import heading
        b = self.battle
        units = [b.units[u] for u in b.hierarchy.units_led_by(leader.id)
                 if not b.units[u].eliminated]
        if not units:
            return None
        cx, cy = sum(u.x for u in units) / len(units), sum(u.y for u in units) / len(units)
        hx, hy = heading(self.back_bearing())
        tx = min(max(cx + hx * behind, 0.5), b.battlefield.width - 0.5)
        ty = min(max(cy + hy * behind, 0.5), b.battlefield.height - 0.5)
        d = distance(leader.pos, (tx, ty))
        if d < 1.5:
            return None
        k = min(1.0, reach / d)
        return make(leader.id, (round(leader.x + (tx - leader.x) * k, 2),
                                round(leader.y + (ty - leader.y) * k, 2)))

    def first_melee(self, melees):
        from ..game_actions import ResolveMelee
        for m in melees(self.battle):
            return ResolveMelee(m.defender)
        return None


def melees(battle) -> list:
    """Every charge that reached its target, as Melee records (chargers sorted)."""
    return [Melee(t, tuple(a)) for t, a in charges_by_target(battle).items()]


def find_melee(battle, defender: str, listed=None) -> Melee:
    for m in (listed or melees)(battle):
        if m.defender == defender:
            return m
    need(False, f"there is no melee at {defender!r}")


def next_turn(battle, begin) -> list:
    """After a turn: the limit ends the battle, else `begin(turn)` starts the next."""
    from ..events import BattleEnded
    turn = battle.state.turn + 1
    if turn > battle.info.turns:
        battle.set_state(over=True, winner=None, phase="over",
                         reason=f"the turn limit ({battle.info.turns}) is reached")
        return [BattleEnded(None, battle.state.reason)]
    return begin(turn)


class TableRuleset:
    """What every ruleset on an open table draws the same way (mixed into Ruleset):
    bases from the ruleset's own footprint, a leader's reach as a circle, and lakes (and
    whatever else `impassable` names) refused in the editor."""
    measure = "inches"
    command_radius = 12.0
    impassable = ("lake",)

    def base(self, battle, unit):
        raise NotImplementedError

    def footprint(self, battle, unit) -> tuple[float, float]:
        fp = self.base(battle, unit)
        return fp.frontage, fp.depth

    def command_area(self, battle, leader) -> list[tuple]:
        from shapely.geometry import Point
        circle = Point(leader.x, leader.y).buffer(self.command_radius, 24)
        return [tuple(circle.exterior.coords)[:-1]]

    def position_refusal(self, battle, kind: str, pos) -> str:
        from ..table_terrain import table_terrain
        bad = table_terrain(battle.battlefield).kinds_at_point(pos) & set(self.impassable)
        return f"{', '.join(sorted(bad))} cannot be entered" if bad else ""
