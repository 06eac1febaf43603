"""A Featherstone-like Horse and Musket ruleset on an open table (ruleset id `featherstone`).

Figures, not hits: 24 infantry, 12 cavalry, a gun with four gunners. Measured in
inches with the shared geometry (manager/footprint.py, manager/table_terrain.py).
"""
from __future__ import annotations

from ... import game_actions as ga
from .. import register_ruleset
from ..base import Ruleset
from ..common import TableRuleset
from . import (battery_odds, charge_reach, charges, fire, flow, melee, melee_odds, morale,
               moves, shot_odds)
from .recall import checked
from .state import footprint as _footprint
from .tables import FORMATIONS, GENERAL_NEAR, OPTIONS, PHASES, PROFILES, SMALL_ARMS, TRAITS


class Featherstone(TableRuleset, Ruleset):
    id = "featherstone"
    name = "Featherstone-like Horse and Musket (inches)"
    command_radius = GENERAL_NEAR           # where his influence reaches
    profiles = PROFILES

    def range_bands(self, battle, unit):
        bands = SMALL_ARMS.get(self.profile(unit.kind).get("weapon", ""), ())
        return [(label, limit) for label, (limit, _) in zip(("short", "medium", "long"), bands)]
    options = OPTIONS
    phases = PHASES
    arrival_phase = "moves"          # reinforcements come on with the side's moves
    traits = TRAITS
    formations = FORMATIONS

    def __init__(self):
        super().__init__()
        self.plays(ga.StartBattle, flow.check_start, flow.resolve_start)
        self.plays(ga.ChooseInitiative, flow.check_choose, flow.resolve_choose)
        self.plays(ga.EndPhase, flow.check_end_phase, flow.resolve_end_phase)
        self.plays(ga.Rally, flow.check_rally, flow.resolve_rally, morale.rally_odds)
        self.plays(ga.MoveLeader, moves.check_move_leader, moves.resolve_move_leader)
        self.plays(ga.Charge, charge_reach.check_charge, charges.resolve_charge,
                   melee_odds.charge_odds)      # exact, a battery's canister branches too
        self.plays(ga.MoveUnit, checked(moves.check_move_unit), moves.resolve_move_unit)
        self.plays(ga.ChangeFormation, checked(moves.check_change_formation),
                   moves.resolve_change_formation)
        self.plays(moves.SoundRecall, moves.check_recall, moves.resolve_recall)
        self.plays(moves.HoldGround, moves.check_hold, moves.resolve_hold)
        self.plays(moves.DeclineReroll, moves.check_decline, moves.resolve_decline)
        self.plays(moves.CounterCharge, moves.check_counter, moves.resolve_counter)
        self.plays(moves.CommitGeneral, moves.check_commit, moves.resolve_commit)
        self.plays(ga.Fire, checked(fire.check_fire), fire.resolve_fire, shot_odds.fire_odds)
        self.plays(ga.ResolveMelee, melee.check_resolve_melee, melee.resolve_melee,
                   melee_odds.resolve_melee_odds)

    def choices(self, battle, action):
        from .choices import table_choices
        return table_choices(battle, action)

    def melees(self, battle):
        return melee.melees(battle)

    def to_act(self, battle) -> list[str]:
        from ...model.forces import mark
        from .morale import to_check
        state = battle.state
        side = state.active
        if state.phase == "rally":
            return [u.id for u in to_check(battle, side)]
        if state.phase == "generals":
            return [l.id for l in battle.live_leaders(side) if not l.moved]
        if state.phase in ("charges", "moves"):
            return [u.id for u in battle.live_units(side) if u.moved < 2
                    and not mark(u, "charging")]
        if state.phase in ("fire_first", "fire"):
            return [u.id for u in battle.live_units(side) if not fire.may_fire(battle, u)]
        if state.phase == "melee":
            return [m.defender for m in melee.melees(battle)]
        return []

    def commander(self, battle, side: str):
        from .commander import Commander
        return Commander(battle, side)

    def scenario_notes(self, battle) -> list[str]:
        from .state import arm
        n = {a: sum(1 for u in battle.units.values() if arm(u) == a)
             for a in ("infantry", "cavalry", "artillery")}
        return [f"{n['infantry']} battalions of 24, {n['cavalry']} regiments of 12, "
                f"{n['artillery']} batteries of 4 gunners and 10 rounds"]

    # ---- what the battlefield view draws ---------------------------------------------
    def base(self, battle, unit):
        return _footprint(battle, unit)

    def reach_area(self, battle, unit) -> list[tuple]:
        if (battle.state.phase not in ("moves", "charges") or unit.side != battle.state.active
                or unit.moved >= 2 or unit.eliminated):
            return []
        return moves.reach_polygons(battle, unit)


register_ruleset("featherstone", Featherstone)
