"""Morschauser-style gridded Horse and Musket rules, Mark 3 (ruleset id `morschauser`)."""
from __future__ import annotations

from ... import game_actions as ga
from .. import register_ruleset
from ..base import Ruleset
from . import fire, flow, melee, morale, moves, tableside
from .tables import FORMATIONS, OPTIONS, PHASES, PROFILES, TRAITS


class Morschauser(Ruleset):
    id = "morschauser"
    name = "Morschauser Mark 3 (gridded)"
    measure = "grid"
    profiles = PROFILES
    options = OPTIONS
    phases = PHASES
    traits = TRAITS
    formations = FORMATIONS

    def __init__(self):
        super().__init__()
        self.plays(ga.StartBattle, flow.check_start, flow.resolve_start)
        self.plays(ga.EndPhase, flow.check_end_phase, flow.resolve_end_phase)
        self.plays(ga.Rally, flow.check_rally, flow.resolve_rally, morale.rally_odds)
        self.plays(ga.MoveUnit, moves.check_move_unit, moves.resolve_move_unit)
        self.plays(ga.MoveLeader, moves.check_move_leader, moves.resolve_move_leader)
        self.plays(ga.ChangeFormation, moves.check_change_formation,
                   moves.resolve_change_formation)
        self.plays(ga.Fire, fire.check_fire, fire.resolve_fire, fire.fire_odds)
        self.plays(ga.ResolveMelee, melee.check_resolve_melee, melee.resolve_melee,
                   melee.melee_odds)
        self.plays(ga.TableFire, tableside.check_table_fire, tableside.resolve_table_fire,
                   tableside.table_fire_odds)
        self.plays(ga.TableMelee, tableside.check_table_melee, tableside.resolve_table_melee,
                   tableside.table_melee_odds)

    def tableside_fields(self, battle, action):
        return tableside.fields(battle, action)

    def melees(self, battle):
        return melee.melees(battle)

    def to_act(self, battle) -> list[str]:
        state = battle.state
        if state.phase == "rally":
            return [l.id for l in battle.live_leaders(state.active) if not l.rallied]
        if state.phase == "move":
            return [u.id for u in battle.live_units(state.active) if not u.moved]
        if state.phase == "melee":
            return [m.defender for m in melee.melees(battle)]
        return []

    def scenario_notes(self, battle) -> list[str]:
        from .composition import composition_breaches, composition_report
        return composition_report(battle) + [f"breach: {b}" for b in composition_breaches(battle)]

    def commander(self, battle, side: str):
        from .commander import Commander
        return Commander(battle, side)

    # ---- what the battlefield view draws --------------------------------------------
    def footprint(self, battle, unit) -> tuple[float, float]:
        """A unit fills its box: frontage and depth by arm and formation."""
        from .tables import PROFILES as P
        g = battle.battlefield.grid or 3.0
        arm = P[unit.kind].arm
        if arm == "artillery":
            return 0.6 * g, 0.5 * g
        shape = {"column": (0.45, 0.85), "square": (0.6, 0.6)}.get(unit.formation, (0.9, 0.4))
        return shape[0] * g, shape[1] * g

    def command_area(self, battle, leader) -> list[tuple]:
        """The boxes within the leader's radius (box distance, diagonals 1.5)."""
        from ...grid import box_distance
        from .tables import LEADER
        g = battle.battlefield.grid
        cx, cy = int(leader.x // g), int(leader.y // g)
        r = LEADER["radius"]
        cols, rows = int(battle.battlefield.width // g), int(battle.battlefield.height // g)
        return [_square(g, (x, y)) for x in range(max(cx - r, 0), min(cx + r + 1, cols))
                for y in range(max(cy - r, 0), min(cy + r + 1, rows))
                if box_distance((cx, cy), (x, y)) <= r]

    def reach_area(self, battle, unit) -> list[tuple]:
        """Boxes the unit can end its move in (any facing), by the same search moves use."""
        if (battle.state.phase != "move" or unit.side != battle.state.active or unit.moved
                or unit.eliminated or unit.fixed):
            return []
        reach, roads, backs, _ = moves.move_options(battle, unit)
        boxes = {b for r in (reach, roads) for (b, _f) in r.cost} | set(backs)
        boxes |= {b for r in (reach, roads) for b in r.contact}
        g = battle.battlefield.grid
        return [_square(g, b) for b in sorted(boxes)]

    def position_refusal(self, battle, kind: str, pos) -> str:
        """Why a piece of this kind may not stand at pos in the editor ('' when it may)."""
        from .movement import terrain_refusal
        size = battle.battlefield.grid
        if not size:
            return "this ruleset needs a gridded table"
        return terrain_refusal(battle, kind, (int(pos[0] // size), int(pos[1] // size)))


def _square(g: float, box) -> tuple:
    x0, y0 = box[0] * g, box[1] * g
    return ((x0, y0), (x0 + g, y0), (x0 + g, y0 + g), (x0, y0 + g))


register_ruleset("morschauser", Morschauser)
