"""D3 Horse and Musket, a One Hour Wargames variant, on an open table (ruleset id `d3`).

Nine hits eliminate a unit; every move and every shot first passes an activation test
(2 x D6 greater than the hits taken). Measured in inches with the shared geometry.
"""
from __future__ import annotations

from ... import game_actions as ga
from .. import register_ruleset
from ..base import Ruleset
from ..common import TableRuleset
from . import combat, flow, moves, reroll
from .tables import FIRE_ARC, FORMATIONS, MOVE, OPTIONS, PHASES, PROFILES, TRAITS


class D3(TableRuleset, Ruleset):
    id = "d3"
    name = "D3 Horse and Musket (inches)"
    impassable = ("lake", "marsh")
    fire_arc = FIRE_ARC
    profiles = PROFILES

    def range_bands(self, battle, unit):
        reach = self.profile(unit.kind).get("range", 0)
        return [("range", reach)] if reach else []
    options = OPTIONS
    phases = PHASES
    traits = TRAITS
    formations = FORMATIONS

    def __init__(self):
        super().__init__()
        self.plays(ga.StartBattle, flow.check_start, flow.resolve_start)
        self.plays(ga.EndPhase, flow.check_end_phase, flow.resolve_end_phase)
        self.plays(ga.MoveUnit, moves.check_move_unit, moves.resolve_move_unit)
        self.plays(ga.MoveLeader, moves.check_move_leader, moves.resolve_move_leader)
        self.plays(ga.Charge, moves.check_charge, moves.resolve_charge, combat.charge_odds)
        self.plays(ga.Fire, combat.check_fire, combat.resolve_fire, combat.fire_odds)
        self.plays(ga.ResolveMelee, combat.check_resolve_melee, combat.resolve_melee,
                   combat.resolve_melee_odds)
        self.plays(reroll.RerollActivation, reroll.check_reroll, reroll.resolve_reroll)

    def resolve(self, battle, action, dice) -> list:
        """A failed test's re-roll is offered until the next action, then it lapses."""
        before = dict(battle.state.marks).get("reroll_due")
        events = super().resolve(battle, action, dice)
        if before is not None and dict(battle.state.marks).get("reroll_due") == before:
            reroll.clear(battle)
        return events

    def melees(self, battle):
        return combat.melees(battle)

    def to_act(self, battle) -> list[str]:
        from .units import engaged, inactive, utype
        st = battle.state
        units = [u for u in battle.live_units(st.active) if not inactive(battle, u)]
        if st.phase == "move":
            return [u.id for u in units if not u.moved and not engaged(battle, u)] + \
                [l.id for l in moves.generals_to_flee(battle, st.active)]
        if st.phase == "shoot":
            return [u.id for u in units if not u.moved and not u.fired
                    and utype(u) != "cavalry" and not engaged(battle, u)]
        if st.phase == "melee":
            return [m.defender for m in combat.melees(battle)]
        return []

    def commander(self, battle, side: str):
        from .commander import Commander
        return Commander(battle, side)

    def base(self, battle, unit):
        from .units import footprint
        return footprint(battle, unit)

    def reach_area(self, battle, unit) -> list[tuple]:
        from shapely.geometry import Point
        from .units import inactive, utype
        from ...model.forces import mark
        if (battle.state.phase != "move" or unit.side != battle.state.active or unit.moved
                or inactive(battle, unit) or (utype(unit) == "artillery" and mark(unit, "deployed"))):
            return []
        circle = Point(unit.x, unit.y).buffer(MOVE[utype(unit)], 32)
        return [tuple(circle.exterior.coords)[:-1]]


register_ruleset("d3", D3)
