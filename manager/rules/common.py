"""Pieces more than one ruleset plays the same way: whose piece it is, a general's ride,
the two-sided start with a dice-off for the first player, charges kept as marks, and
the skeleton of an automatic commander that plays from standing orders."""
from __future__ import annotations

from dataclasses import dataclass

from ..actions import need
from ..autopilot import read_orders
from ..errors import IllegalAction
from ..footprint import distance
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
        need(battle.live_units(side), f"{battle.sides[side].name} has no units")


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
    for u in battle.live_units():
        t = mark(u, "charging")
        if t and t in battle.units and not battle.units[t].eliminated:
            out.setdefault(t, []).append(u.id)
    return {t: sorted(a) for t, a in sorted(out.items())}


class OrdersCommander:
    """The frame of an automatic commander: one side, the phase's done-list, legality by
    the rules' own check, and standing orders with objectives in inches."""
    ruleset_id = ""

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
