"""Table-side mode: fire and melee for miniatures that stand on a real table.

The umpire names the units and types what the map would otherwise tell: the range in
boxes, the target's cover, who faces whom, the terrain -1s, the leaders standing with
the units. The arithmetic is the map's own (`spec_for`, `pieces`' ratings, `roll_pieces`,
`decide`); only what needs a position changes: a unit that must fall back is told to,
with the distance, and the umpire moves the miniature.
"""
from __future__ import annotations

from ...actions import need
from ...events import FallBackOrdered, MeleeResolved, UnitFired
from ...odds import Odds
from ..base import SituationField, read_situation
from .fire import check_fire_unit, max_range, spec_for, volley_odds
from .melee import Piece, _unit_piece, decide, pieces_odds, roll_pieces
from .morale import kutusov_holds, leader_check, settle, take_hits
from .tables import FALL_BACK_BOXES, FIRE_HITS_FOR_FALL_BACK, LEADER

COVER = ("none", "woods", "buildings", "behind a wall", "two kinds of cover")


def _leaders(battle, side: str) -> tuple:
    return ("",) + tuple(l.id for l in battle.live_leaders(side))


def fields(battle, action) -> list[SituationField]:
    verb = action.__class__.__name__
    if verb == "TableFire":
        unit, target = battle.units.get(action.unit), battle.units.get(action.target)
        top = max_range(battle, unit) if unit else 8
        return [SituationField("range", "Range in boxes", 1, low=1, high=max(top, 1),
                               help="boxes between the two units (diagonals count 1.5, round up)"),
                SituationField("cover", "Target's cover", "none", COVER),
                SituationField("leader", "Leader with the target", "",
                               _leaders(battle, target.side) if target else ("",))]
    if verb == "TableMelee":
        a = battle.units.get(action.attackers[0]) if action.attackers else None
        d = battle.units.get(action.defenders[0]) if action.defenders else None
        return [SituationField("defender_front", "Every attacker is in the defender's front", True),
                SituationField("attacker_minus", "Attackers' terrain -1s (uphill, from a stream, "
                               "into woods or a town)", 0, low=0, high=3),
                SituationField("attack_leader", "Leader with the attackers", "",
                               _leaders(battle, a.side) if a else ("",)),
                SituationField("defend_leader", "Leader with the defenders", "",
                               _leaders(battle, d.side) if d else ("",))]
    return []


def _own(battle, uid: str, side: str | None = None):
    need(uid in battle.units, f"there is no unit {uid!r}")
    u = battle.units[uid]
    need(not u.eliminated, f"{u.name} has been eliminated")
    if side is not None:
        need(u.side == side, f"{u.name} is not on the {battle.sides[side].name}'s side")
    return u


# ---- fire -----------------------------------------------------------------------------
def check_table_fire(battle, action) -> None:
    unit = _own(battle, action.unit, battle.state.active)
    target = _own(battle, action.target)
    need(target.side != unit.side, f"{target.name} is on {unit.name}'s own side")
    check_fire_unit(battle, unit)
    s = read_situation(fields(battle, action), action.situation)
    need(_spec(battle, action, s).dice > 0, f"{unit.name} has no dice left to roll at that range")


def _spec(battle, action, s):
    cover = [] if s["cover"] == "none" else (
        ["cover", "cover"] if s["cover"] == "two kinds of cover" else [s["cover"]])
    return spec_for(battle, battle.units[action.unit], battle.units[action.target], s["range"], cover)


def resolve_table_fire(battle, action, dice) -> list:
    s = read_situation(fields(battle, action), action.situation)
    unit, target = battle.units[action.unit], battle.units[action.target]
    spec = _spec(battle, action, s)
    roll = dice.roll(spec.dice, f"fire: {unit.name} at {target.name} (table)")
    hits = sum(spec.hits_for(f) for f in roll.faces)
    battle.update_unit(unit.id, fired=True)
    events: list = [UnitFired(unit.name, target.name, spec.dice, hits)]
    if s["leader"]:
        leader_check(battle, s["leader"], dice, events, f"{target.name} shot at")
    if take_hits(battle, target.id, hits, events):
        settle(battle, events)
        return events
    target = battle.units[target.id]
    if hits:
        target = battle.update_unit(target.id, fire_hits=target.fire_hits + hits)
    if (target.fire_hits >= FIRE_HITS_FOR_FALL_BACK and not target.fell_back
            and not kutusov_holds(battle, target)):
        battle.update_unit(target.id, fell_back=True)
        events.append(FallBackOrdered(target.name, FALL_BACK_BOXES))
    settle(battle, events)
    return events


def table_fire_odds(battle, action) -> Odds:
    check_table_fire(battle, action)
    s = read_situation(fields(battle, action), action.situation)
    unit, target = battle.units[action.unit], battle.units[action.target]
    return volley_odds(battle, unit, target, _spec(battle, action, s),
                       [s["leader"]] if s["leader"] else [])


# ---- melee ------------------------------------------------------------------------------
def check_table_melee(battle, action) -> None:
    need(action.attackers and action.defenders, "a melee needs attackers and defenders")
    active = battle.state.active
    for a in action.attackers:
        _own(battle, a, active)
    enemy = battle.enemy_of(active)
    for d in action.defenders:
        _own(battle, d, enemy)
    fought = set(action.attackers + action.defenders) & battle.state.fought
    need(not fought, f"{', '.join(battle.units[f].name for f in sorted(fought))} "
         "already fought a melee this phase")
    read_situation(fields(battle, action), action.situation)


def _pieces(battle, action, s) -> list[Piece]:
    lead = action.defenders[0]
    out = [_unit_piece(battle, a, "attack", lead, True, s["attacker_minus"]) for a in action.attackers]
    out.append(_unit_piece(battle, lead, "defend", action.attackers[0], s["defender_front"], 0))
    out += [_unit_piece(battle, d, "defend", action.attackers[0], True, 0) for d in action.defenders[1:]]
    for key, side, target in (("attack_leader", "attack", lead),
                              ("defend_leader", "defend", action.attackers[0])):
        if s[key]:
            leader = battle.leaders[s[key]]
            out.append(Piece(leader.id, leader.name, side, leader.hits, LEADER["melee"], target, True))
    return out


def resolve_table_melee(battle, action, dice) -> list:
    s = read_situation(fields(battle, action), action.situation)
    ps = _pieces(battle, action, s)
    events: list = []
    dealt = roll_pieces(battle, ps, dice, events)
    for key in ("attack_leader", "defend_leader"):
        if s[key]:
            leader_check(battle, s[key], dice, events, "in melee")
    att, dfn, outcome, losers, winners = decide(ps, dealt["attack"], dealt["defend"])
    for uid in losers:
        if winners and not battle.units[uid].eliminated:
            battle.update_unit(uid, fell_back=True)
            events.append(FallBackOrdered(battle.units[uid].name, FALL_BACK_BOXES))
    battle.set_state(fought=battle.state.fought | {p.id for p in ps})
    events.insert(0, MeleeResolved(battle.units[action.defenders[0]].name, tuple(att), tuple(dfn),
                                   dealt["attack"], dealt["defend"], outcome))
    settle(battle, events)
    return events


def table_melee_odds(battle, action) -> Odds:
    check_table_melee(battle, action)
    s = read_situation(fields(battle, action), action.situation)
    return pieces_odds(battle, _pieces(battle, action, s), Odds("melee"), penalties={})

