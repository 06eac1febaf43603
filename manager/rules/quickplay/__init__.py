"""One-page quick-play Horse and Musket rules on an open table (ruleset id `quickplay`).

Figures in ranks, variable moves rolled after they are declared, 5-6 to hit, morale
after a lost melee or a quarter lost to fire, commanders who rally and lead.
"""
from __future__ import annotations

from ... import game_actions as ga
from ...actions import need
from .. import register_ruleset
from ..base import Ruleset
from ..common import TableRuleset
from . import combat, flow, melee, melee_odds, moves
from .tables import FIRE_ARC, FORMATIONS, OPTIONS, PHASES, PROFILES, RANGES, TRAITS

ACTIVATIONS = ("MoveUnit", "ChangeFormation", "Charge", "Fire", "MoveLeader", "Rally",
               "FollowMe")


class QuickPlay(TableRuleset, Ruleset):
    id = "quickplay"
    name = "Quick-play Horse and Musket (inches)"
    profiles = PROFILES
    options = OPTIONS
    phases = PHASES
    arrival_phase = "act"          # reinforcements come on with the side's moves
    fire_arc = FIRE_ARC

    def range_bands(self, battle, unit):
        close, long = RANGES.get(self.profile(unit.kind).get("weapon", ""), (0, 0))
        return [("close", close), ("long", long)] if long else []
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
        self.plays(moves.FollowMe, moves.check_follow_me, moves.resolve_follow_me)
        self.plays(ga.Charge, melee.check_charge, melee.resolve_charge, melee_odds.charge_odds)
        self.plays(ga.Fire, combat.check_fire, combat.resolve_fire, melee_odds.fire_odds)
        self.plays(ga.ResolveMelee, melee.check_resolve_melee, melee.resolve_melee,
                   melee_odds.resolve_melee_odds)
        self.plays(ga.Rally, melee.check_rally, melee.resolve_rally)

    # with the card deck a side activates one piece a card (one per player on the side)
    def check(self, battle, action) -> None:
        super().check(battle, action)
        if (battle.option("activation") == "cards" and battle.state.phase == "act"
                and action.__class__.__name__ in ACTIVATIONS):
            uses = dict(battle.state.marks).get("uses", 0)
            per = int(battle.option("players_per_side") or 1)
            need(uses < per, f"this card has been used ({per} activation"
                 f"{'s' if per > 1 else ''} a card): end the phase to draw the next")

    def resolve(self, battle, action, dice) -> list:
        events = super().resolve(battle, action, dice)
        if (battle.option("activation") == "cards" and battle.state.phase == "act"
                and action.__class__.__name__ in ACTIVATIONS):
            from ...model.forces import with_marks
            uses = dict(battle.state.marks).get("uses", 0) + 1
            battle.set_state(marks=with_marks(battle.state.marks, uses=uses))
        return events

    def melees(self, battle):
        return melee.melees(battle)

    def to_act(self, battle) -> list[str]:
        from .units import acted
        st = battle.state
        if st.phase == "act":
            return [u.id for u in battle.live_units(st.active) if not acted(battle, u)] + \
                [l.id for l in battle.live_leaders(st.active) if not l.moved]
        if st.phase == "end_fire":
            return [u.id for u in battle.live_units(st.active) if u.moved and not u.disordered]
        if st.phase == "melee":
            return [m.defender for m in melee.melees(battle)]
        return []

    def commander(self, battle, side: str):
        from .commander import Commander
        return Commander(battle, side)

    def base(self, battle, unit):
        from .units import footprint
        return footprint(battle, unit)


register_ruleset("quickplay", QuickPlay)
