"""Melee: attackers are the moving side's units facing into an enemy box.

Each attacked enemy box is one melee (the fewest units in each, as the text asks):
the defender, every attacker facing into its box, the leaders standing with them,
and those other defenders who have one of the attackers in their zone of control
and choose to join. Every piece rolls as many dice as it has hits left; a die at or
under its melee rating is a hit. The side causing fewer hits falls back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...actions import need
from ...events import MeleeResolved
from ...grid import direction_to, front_boxes, step
from ...odds import Dist, Odds, OddsLine
from .board import army_trait, board, bombarding, box_of, facing_dir, in_stream, profile
from .morale import fall_back, fall_back_penalty, leader_checks, settle, take_hits
from .movement import is_shaken, terrain_refusal
from .tables import LEADER


@dataclass
class Melee:
    defender: str                           # unit id, or leader id when a leader stands alone
    attackers: list[str] = field(default_factory=list)
    may_join: list[str] = field(default_factory=list)
    lone_leader: bool = False


def melees(battle) -> list[Melee]:
    """The melees still to fight this phase, in a stable order."""
    def build():
        if bombarding(battle):
            return []
        brd = board(battle)
        active, fought = battle.state.active, battle.state.fought
        groups: dict[str, Melee] = {}
        box_unit, box_leaders = brd.box_unit, brd.box_leaders
        # the units with a unit or a leader ahead (a few), then in the order of their ids
        ahead = []
        for uid, (side, front, d) in brd.unit_front.items():
            if side == active and (front[1] in box_unit or front[1] in box_leaders):
                ahead.append((uid, front[1]))
        ahead.sort()
        for uid, box in ahead:
            if uid in fought:
                continue
            d = box_unit.get(box)
            if d is not None:
                if battle.units[d].side != active and d not in fought:
                    groups.setdefault(d, Melee(d)).attackers.append(uid)
            else:
                foes = [l for l in brd.box_leaders.get(box, ()) if battle.leaders[l].side != active]
                for lid in foes:
                    groups.setdefault(lid, Melee(lid, lone_leader=True)).attackers.append(uid)
        attacked = set(groups)
        for m in groups.values():
            if m.lone_leader:
                continue
            zoc = brd.zoc.get(battle.units[m.defender].side, {})
            joiners = {e for a in m.attackers for e in zoc.get(brd.unit_box[a], ())}
            m.may_join = sorted(e for e in joiners if e not in attacked and e not in fought)
        return [groups[k] for k in sorted(groups)]
    return battle.cached("morschauser.melees", build)


def find_melee(battle, defender: str) -> Melee:
    for m in melees(battle):
        if m.defender == defender:
            return m
    raise_for = battle.units.get(defender) or battle.leaders.get(defender)
    name = raise_for.name if raise_for else repr(defender)
    need(False, f"{name} is not attacked in melee this phase")


@dataclass
class Piece:
    id: str
    name: str
    side: str               # "attack" or "defend"
    dice: int
    rating: int
    target: str             # unit id its hits go to
    is_leader: bool = False


def _terrain_penalty(battle, attacker_box, defender_box) -> int:
    t = board(battle).terrain
    ta, td = t.at(attacker_box), t.at(defender_box)
    reasons = [ta.elevation < td.elevation,
               in_stream(ta),
               "woods" in td.kinds, "town" in td.kinds]
    n = sum(reasons)
    return n if battle.option("terrain_penalties_stack") else min(n, 1)


def _unit_piece(battle, uid: str, role: str, target: str, front: bool, penalty: int) -> Piece:
    unit = battle.units[uid]
    prof = profile(unit)
    formations = battle.option("formations")
    front = front or (formations and unit.formation == "square")
    rating = prof["melee_front"] if front else prof["melee_other"]
    rating -= penalty + (1 if is_shaken(battle, unit) else 0)
    dice = unit.hits
    if formations and unit.formation in ("column", "square"):
        dice += 1
    if (role == "attack" and unit.kind == "militia" and unit.nation == "prussia"
            and army_trait(battle, unit.side) == "blucher"):
        dice += 1
    return Piece(uid, unit.name, role, dice, max(rating, 0), target)


def pieces(battle, m: Melee, joiners) -> list[Piece]:
    brd = board(battle)
    d_unit = battle.units[m.defender]
    d_box = brd.unit_box[m.defender]
    d_front = set(front_boxes(d_box, facing_dir(d_unit)))
    a_boxes = {a: brd.unit_box[a] for a in m.attackers}
    in_front = [a for a in m.attackers if a_boxes[a] in d_front]
    rule = battle.option("defender_front_when", "all_in_front")
    front = len(in_front) == len(m.attackers) if rule == "all_in_front" else bool(in_front)
    d_target = (in_front or m.attackers)[0]
    out = [_unit_piece(battle, a, "attack", m.defender, True,
                       _terrain_penalty(battle, a_boxes[a], d_box)) for a in m.attackers]
    out.append(_unit_piece(battle, m.defender, "defend", d_target, front, 0))
    for j in joiners:
        jf = set(front_boxes(brd.unit_box[j], facing_dir(battle.units[j])))
        tgt = next(a for a in m.attackers if a_boxes[a] in jf)
        out.append(_unit_piece(battle, j, "defend", tgt, True, 0))
    for p in list(out):        # leaders fight beside the units in their box
        for lid in brd.leaders_at(brd.unit_box[p.id], battle.units[p.id].side):
            leader = battle.leaders[lid]
            out.append(Piece(lid, leader.name, p.side, leader.hits, LEADER["melee"], p.target, True))
    return out


def check_resolve_melee(battle, action) -> None:
    m = find_melee(battle, action.defender)
    for j in action.joiners:
        need(j in m.may_join, f"{battle.units[j].name if j in battle.units else j} may not join "
             f"this melee (it needs an attacker in its zone of control)")


def resolve_melee(battle, action, dice) -> list:
    m = find_melee(battle, action.defender)
    events: list = []
    brd = board(battle)
    if m.lone_leader:
        leader = battle.leaders[m.defender]
        a_boxes = [brd.unit_box[a] for a in m.attackers]
        lbox = brd.leader_box[m.defender]
        leader_checks(battle, lbox, dice, events, "caught alone in melee")
        _leader_escapes(battle, m.defender, a_boxes)
        battle.set_state(fought=battle.state.fought | set(m.attackers) | {m.defender})
        events.append(MeleeResolved(leader.name, tuple(m.attackers), (m.defender,), 0, 0,
                                    f"{leader.name} rides clear"))
        return events
    ps = pieces(battle, m, action.joiners)
    boxes = {p.id: (brd.unit_box[p.id] if not p.is_leader else brd.leader_box[p.id]) for p in ps}
    dealt = roll_pieces(battle, ps, dice, events)
    for box in sorted({b for b in boxes.values()}):
        leader_checks(battle, box, dice, events, "in melee")
    a, d = dealt["attack"], dealt["defend"]
    att_ids, def_ids, outcome, losers, winners = decide(ps, a, d)
    opponent = {p.id: p.target for p in ps if not p.is_leader}
    for uid in losers:          # each loser backs away from the enemy it fought
        if winners and not battle.units[uid].eliminated:
            foe = battle.units[opponent[uid]]
            foe_box = boxes[foe.id] if foe.id in boxes else box_of(battle, foe)
            fall_back(battle, uid, [foe_box], events, "lost melee")
    battle.set_state(fought=battle.state.fought | {p.id for p in ps})
    events.insert(0, MeleeResolved(battle.units[m.defender].name, tuple(att_ids), tuple(def_ids),
                                   a, d, outcome))
    settle(battle, events)
    return events


def roll_pieces(battle, ps: list[Piece], dice, events: list) -> dict:
    """Every piece rolls its dice at once; hits go to each piece's target."""
    dealt = {"attack": 0, "defend": 0}
    to_unit: dict[str, int] = {}
    for p in ps:
        if p.dice <= 0:
            continue
        roll = dice.roll(p.dice, f"melee: {p.name} (needs {p.rating} or less)")
        hits = sum(1 for f in roll.faces if f <= p.rating)
        dealt[p.side] += hits
        to_unit[p.target] = to_unit.get(p.target, 0) + hits
    for uid, hits in sorted(to_unit.items()):
        take_hits(battle, uid, hits, events)
    return dealt


def decide(ps: list[Piece], a: int, d: int):
    """(attacker ids, defender ids, outcome, losers, winners): fewer hits falls back."""
    att_ids = [p.id for p in ps if p.side == "attack" and not p.is_leader]
    def_ids = [p.id for p in ps if p.side == "defend" and not p.is_leader]
    if a < d:
        return att_ids, def_ids, "attackers fall back", att_ids, def_ids
    if d < a:
        return att_ids, def_ids, "defenders fall back", def_ids, att_ids
    return att_ids, def_ids, "a drawn melee", [], []


def _leader_escapes(battle, lid: str, enemy_boxes) -> None:
    """A leader caught alone rides two boxes clear of the enemy, where ground allows."""
    leader = battle.leaders[lid]
    if leader.eliminated:
        return
    brd = board(battle)
    here = box_of(battle, leader)
    away = (direction_to(here, enemy_boxes[0]) + 4) % 8
    for _ in range(2):
        for d in (away, (away + 1) % 8, (away - 1) % 8):
            nb = step(here, d)
            other = brd.box_unit.get(nb)
            if terrain_refusal(battle, "leader", nb) or (
                    other and battle.units[other].side != leader.side):
                continue
            here = nb
            break
    x, y = brd.centre(here)
    battle.update_leader(lid, x=x, y=y)


def melee_odds(battle, action) -> Odds:
    check_resolve_melee(battle, action)
    m = find_melee(battle, action.defender)
    odds = Odds("melee")
    if m.lone_leader:
        odds.notes.append("a leader alone: he rolls for a hit (2 or 3 on 2D6) and rides clear")
        odds.outcomes[f"{battle.leaders[m.defender].name} hit"] = Fraction(3, 36)
        return odds
    return pieces_odds(battle, pieces(battle, m, action.joiners), odds)


def pieces_odds(battle, ps: list[Piece], odds: Odds, penalties: dict | None = None) -> Odds:
    """Exact hit distributions per piece and the melee's outcomes, each counted once: a
    side falls back when it caused fewer hits and one of its units is left to do so (a
    unit eliminated is eliminated, not falling back); each unit's chance of elimination,
    blocked fall backs' hits included (`penalties`: {unit id: hits}, read off the board
    when not given); each leader's chance of a hit."""
    per_target: dict[str, Dist] = {}
    dealer: dict[str, str] = {}
    for p in ps:
        dist = Dist.die([1 if f <= p.rating else 0 for f in range(1, 7)]).times(p.dice)
        odds.lines.append(OddsLine(f"{p.name} ({p.dice} dice, {p.rating} or less)", dist, p.target))
        per_target[p.target] = per_target.get(p.target, Dist.point(0)) + dist
        dealer[p.target] = p.side
    units = {p.id: p for p in ps if not p.is_leader}
    if penalties is None:
        penalties = {uid: fall_back_penalty(battle, battle.units[uid],
                                            [box_of(battle, battle.units[p.target])])
                     for uid, p in units.items()}
    targets = sorted(per_target)
    hits_left = {uid: battle.units[uid].hits for uid in units}
    # whole-number weights summed, each divided by the product of the totals once at
    # the end: the same fractions, without a Fraction sum per leaf of the walk
    out = {"attackers fall back": 0, "defenders fall back": 0, "drawn": 0}
    gone = {uid: 0 for uid in units}
    denom = 1
    for t in targets:
        denom *= per_target[t].total

    def walk(i, weight, taken):
        if i < len(targets):
            t = targets[i]
            for k, w in enumerate(per_target[t].weights):
                if w:
                    taken[t] = k
                    walk(i + 1, weight * w, taken)
            return
        a = sum(k for t, k in taken.items() if dealer[t] == "attack")
        d = sum(k for t, k in taken.items() if dealer[t] == "defend")
        losers = "attack" if a < d else "defend" if d < a else ""
        p = weight
        standing = False
        for uid, piece in units.items():
            lost = taken.get(uid, 0)
            if piece.side == losers and lost < hits_left[uid]:
                lost += penalties.get(uid, 0)
            if lost >= hits_left[uid]:
                gone[uid] += p
            elif piece.side == losers:
                standing = True
        if not losers:
            out["drawn"] += p
        elif standing:
            out[f"{'attackers' if losers == 'attack' else 'defenders'} fall back"] += p
    walk(0, 1, {})
    odds.outcomes.update({k: Fraction(w, denom) for k, w in out.items()})
    for uid in units:
        odds.outcomes[f"{battle.units[uid].name} eliminated"] = Fraction(gone[uid], denom)
    if any(penalties.values()):
        odds.notes.append("blocked fall backs: " + ", ".join(
            f"{battle.units[u].name} {k} hit(s)" for u, k in penalties.items() if k))
    for p in ps:
        if p.is_leader:
            odds.outcomes[f"{p.name} hit"] = Fraction(3, 36)
    return odds
