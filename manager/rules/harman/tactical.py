"""Tactical Dice: throwing them, reading their faces, and what the faces do to a unit.

The log shows faces, never sums ("Target, Target, Flag, Sabre"). Hits take Combat
Value; Flags halt, retire or rout by troop quality (a General in the square ignores the
first); an Officer costs a unit its command, or puts a General in the square at risk.
"""
from __future__ import annotations

from ...events import HitsTaken, LeaderFell, UnitEliminated, declare_event
from ...model.forces import mark
from .board import (ORTHO, box, centre, generals_with, kinds, occupants, on_table, quality,
                    spent)
from .tables import FACE

Thrown = declare_event("Thrown", "{unit} throws {n} Tactical Dice{why}: {faces}",
                       unit=str, n=int, why=str, faces=str)
Effect = declare_event("Effect", "{unit}: {what}", unit=str, what=str)
GeneralHit = declare_event("GeneralHit", "{leader}: {what}", leader=str, what=str)


def throw(battle, unit, n: int, purpose: str, dice, events: list) -> list[str]:
    """Throw n Tactical Dice (none if n < 1); the faces as words."""
    if n < 1:
        events.append(Thrown(unit.name, 0, f" ({purpose})", "no dice left"))
        return []
    faces = [FACE[f] for f in dice.roll(n, f"{purpose}: {unit.name}").faces]
    events.append(Thrown(unit.name, n, f" ({purpose})", ", ".join(faces)))
    return faces


def count(faces, *names) -> int:
    return sum(1 for f in faces if f in names)


def rout(battle, uid: str, events: list, why: str) -> None:
    u = battle.units[uid]
    battle.update_unit(uid, eliminated=True, marks=())
    events.append(UnitEliminated(f"{u.name} ({why})", uid))


def step_back(battle, uid: str, away_from, events: list, how: str = "retires") -> bool:
    """One square directly away from a square (or toward home); False if it cannot."""
    u = battle.units[uid]
    here = box(battle, u)
    occ = occupants(battle)
    options = []
    for dx, dy in ORTHO:
        sq = (here[0] + dx, here[1] + dy)
        if not on_table(battle, sq) or sq in occ or "lake" in kinds(battle, sq):
            continue
        gain = abs(sq[0] - away_from[0]) + abs(sq[1] - away_from[1])
        options.append((-gain, sq))
    if not options:
        return False
    sq = min(options)[1]
    x, y = centre(battle, sq)
    for l in generals_with(battle, u):
        battle.update_leader(l.id, x=x, y=y)
    battle.update_unit(uid, x=x, y=y, fell_back=True)
    events.append(Effect(u.name, f"{how} to square {sq}"))
    return True


def suffer(battle, uid: str, hits: int, flags: int, officers: int, dice, events: list,
           enemy_square) -> str:
    """Apply one throw's hits, Flags and Officers to a unit; a word for what followed."""
    u = battle.units[uid]
    if u.eliminated:
        return "gone"
    if spent(u) and (hits or flags):
        rout(battle, uid, events, "hit again when spent: routs from the field")
        return "routs"
    generals = generals_with(battle, u)
    if generals and flags:
        flags -= 1
        events.append(Effect(u.name, f"{generals[0].name} steadies it: the first Flag ignored"))
    if hits:
        left = max(u.hits - hits, 0)
        u = battle.update_unit(uid, hits=left)
        events.append(HitsTaken(u.name, hits, left, uid))
        if left == 0:
            battle.mark_unit(uid, retiring=True)
            events.append(Effect(u.name, "has lost all its Combat Value and retires"))
    if officers:
        if generals and hits:
            for g in generals:
                _general_at_risk(battle, g, dice, events)
        elif battle.option("officer_effect") == "halt":
            battle.mark_unit(uid, no_move=battle.state.turn + 1)
            events.append(Effect(u.name, "an Officer falls: it may not move next turn"))
    outcome = ""
    q = quality(u)
    turn = battle.state.turn
    if flags:
        battle.mark_unit(uid, flagged=turn)
    if flags > q:
        rout(battle, uid, events, f"{flags} Flags against quality {q}: routs")
        return "routs"
    if flags == q:                   # halts, then begins to retire until a General rallies it
        battle.mark_unit(uid, halted=turn, minus=turn, retiring=True)
        step_back(battle, uid, enemy_square, events, "halts and retires")
        outcome = "retires"
    elif flags > 1:
        battle.mark_unit(uid, halted=turn, minus=turn)
        events.append(Effect(u.name, f"{flags} Flags: halts, a die less this turn"))
        outcome = "halts"
    elif flags == 1:
        battle.mark_unit(uid, minus=turn)
        events.append(Effect(u.name, "a Flag: a die less this turn"))
        outcome = "shaken"
    return outcome


def _general_at_risk(battle, leader, dice, events) -> None:
    face = dice.d6(f"Officer face: {leader.name} at risk")
    if face == 1:
        battle.update_leader(leader.id, eliminated=True, hits=0)
        events.append(LeaderFell(f"{leader.name} (killed)"))
    elif face == 2:
        battle.update_leader(leader.id, hits=1)
        events.append(GeneralHit(leader.name, "wounded: he throws a die each turn, leaving "
                                 "the field on a 1"))
    else:
        events.append(GeneralHit(leader.name, f"{face}: escapes unscathed"))


def dice_now(battle, unit, base: int) -> int:
    """Dice after this turn's Flag penalty."""
    return base - (1 if mark(unit, "minus") == battle.state.turn else 0)

