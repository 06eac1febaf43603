"""Harman's Simple Horse and Musket engagements on a square grid (ruleset id `harman`).

For families new to wargaming: no arithmetic. Units have a quality (4, 3 or 2 Tactical
Dice) and a Combat Value; Tactical Dice are read by their faces (Officer, Target, Flag,
Fire, Sabre), and the log shows the faces, never sums.
"""
from __future__ import annotations

from ... import game_actions as ga
from .. import register_ruleset
from ..base import Ruleset
from . import combat, fire, flow, moves
from .tables import FORMATIONS, OPTIONS, PHASES, PROFILES, TRAITS


class Harman(Ruleset):
    id = "harman"
    name = "Harman's Simple Horse and Musket (grid)"
    measure = "grid"
    profiles = PROFILES
    options = OPTIONS
    phases = PHASES
    traits = TRAITS
    formations = FORMATIONS

    def __init__(self):
        super().__init__()
        self.plays(ga.StartBattle, flow.check_start, flow.resolve_start)
        self.plays(ga.ChooseInitiative, flow.check_choose, flow.resolve_choose)
        self.plays(ga.EndPhase, flow.check_end_phase, flow.resolve_end_phase)
        self.plays(ga.MoveUnit, moves.check_move_unit, moves.resolve_move_unit)
        self.plays(ga.ChangeFormation, moves.check_change_formation,
                   moves.resolve_change_formation)
        self.plays(ga.MoveLeader, moves.check_move_leader, moves.resolve_move_leader)
        self.plays(ga.Charge, combat.check_charge, combat.resolve_charge, combat.charge_odds)
        self.plays(ga.Fire, fire.check_fire, fire.resolve_fire, fire.fire_odds)
        self.plays(ga.ResolveMelee, combat.check_resolve_melee, combat.resolve_melee)
        self.plays(ga.Rally, combat.check_rally, combat.resolve_rally)

    def melees(self, battle):
        return combat.melees(battle)

    def to_act(self, battle) -> list[str]:
        st = battle.state
        units = battle.live_units(st.active)
        if st.phase == "artillery":
            return [u.id for u in units if not fire.may_fire(battle, u)]
        if st.phase == "move":
            return [u.id for u in units if not u.moved] + \
                [l.id for l in battle.live_leaders(st.active) if not l.moved]
        return []

    def commander(self, battle, side: str):
        from .commander import Commander
        return Commander(battle, side)

    def footprint(self, battle, unit) -> tuple[float, float]:
        """A unit fills most of its square; a gun a smaller part."""
        from .board import utype
        g = battle.battlefield.grid or 3.0
        if utype(unit).endswith("artillery"):
            return 0.6 * g, 0.5 * g
        if unit.formation == "square":
            return 0.6 * g, 0.6 * g
        return (0.9 * g, 0.4 * g) if utype(unit) != "skirmishers" else (0.9 * g, 0.15 * g)

    def command_area(self, battle, leader) -> list[tuple]:
        """His own square: he commands the units he joins."""
        from .board import box
        g = battle.battlefield.grid
        c, r = box(battle, leader)
        return [((c * g, r * g), ((c + 1) * g, r * g), ((c + 1) * g, (r + 1) * g),
                 (c * g, (r + 1) * g))]

    def reach_area(self, battle, unit) -> list[tuple]:
        if battle.state.phase != "move" or unit.side != battle.state.active or unit.moved:
            return []
        g = battle.battlefield.grid
        r = moves.reach(battle, unit, moves.allowance(battle, unit, ""))
        return [((c * g, rr * g), ((c + 1) * g, rr * g), ((c + 1) * g, (rr + 1) * g),
                 (c * g, (rr + 1) * g)) for (c, rr) in sorted(r)]

    def position_refusal(self, battle, kind: str, pos) -> str:
        from ...geometry import terrain_index
        g = battle.battlefield.grid
        if not g:
            return "Harman's rules need a gridded table"
        k = terrain_index(battle.battlefield).at((int(pos[0] // g), int(pos[1] // g))).kinds
        return "a lake cannot be entered" if "lake" in k else ""


register_ruleset("harman", Harman)
