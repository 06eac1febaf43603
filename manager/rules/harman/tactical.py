"""Tactical Dice: throwing them, reading their faces, and what the faces do to a unit.

The log shows faces, never sums ("Target, Target, Flag, Sabre"). Hits take Combat
Value; Flags halt, retire or rout by troop quality (a General in the square ignores the
first); an Officer costs a unit its command, or puts a General in the square at risk.
"""
from __future__ import annotations

from ...events import HitsTaken, UnitEliminated, declare_event
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
    faces = [FACE[f] for f in dice.roll(n, f"{unit.name}: {purpose}").faces]
    events.append(Thrown(unit.name, n, f" ({purpose})", ", ".join(faces)))
    return faces


def count(faces, *names) -> int:
    return sum(1 for f in faces if f in names)


def rout(battle, uid: str, events: list, why: str) -> None:
    u = battle.units[uid]
    battle.update_unit(uid, eliminated=True, marks=())
    events.append(UnitEliminated(f"{u.name} ({why})", uid))


def step_back(battle, uid: str, away_from, events: list, how: str = "retires") -> bool:
    """One square directly away from the enemy's square (the step whose direction is
    nearest the line from the enemy through the unit; a tie between two goes toward the
    side's home edge, then farther from the enemy); False if it cannot."""
    u = battle.units[uid]
    here = box(battle, u)
    occ = occupants(battle)
    vx, vy = here[0] - away_from[0], here[1] - away_from[1]
    if (vx, vy) == (0, 0):
        vx, vy = _home_step(battle, u)
    hx, hy = _home_step(battle, u)
    options = []
    for dx, dy in ORTHO:
        sq = (here[0] + dx, here[1] + dy)
        if not on_table(battle, sq) or sq in occ or "lake" in kinds(battle, sq):
            continue
        along = dx * vx + dy * vy
        if along < 0:
            continue                              # never toward the enemy
        gain = abs(sq[0] - away_from[0]) + abs(sq[1] - away_from[1])
        options.append((-along, -(dx * hx + dy * hy), -gain, sq))
    if not options:
        return False
    sq = min(options)[3]
    x, y = centre(battle, sq)
    for l in generals_with(battle, u):
        battle.update_leader(l.id, x=x, y=y)
    battle.update_unit(uid, x=x, y=y, fell_back=True)
    events.append(Effect(u.name, f"{how} to square {sq}"))
    return True


def _home_step(battle, unit) -> tuple[int, int]:
    edge = getattr(battle.sides.get(unit.side), "home_edge", "")
    return {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}.get(edge, (0, 0))


def _level(n: int, q: int) -> int:
    """0 no Flag, 1 one Flag (a die less), 2 halts, 3 halts and retires, 4 routs."""
    return 4 if n > q else 3 if n == q else 2 if n > 1 else n


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
    turn = battle.state.turn
    battle.mark_unit(uid, struck=turn)              # fired upon or charged this turn
    u = battle.units[uid]
    per_turn = battle.option("flags_add") != "throw"
    if generals and flags and not (per_turn and mark(u, "steadied") == turn):
        flags -= 1
        battle.mark_unit(uid, steadied=turn)
        events.append(Effect(u.name, f"{generals[0].name} steadies it: the first Flag ignored"))
    u = battle.units[uid]
    if hits:
        left = max(u.hits - hits, 0)
        u = battle.update_unit(uid, hits=left)
        events.append(HitsTaken(u.name, hits, left, uid))
        if left == 0:                   # "ceases to be effective and will start to retire"
            battle.mark_unit(uid, retiring=True)
            events.append(Effect(u.name, "has lost all its Combat Value: no longer effective, "
                                 "it retires"))
            step_back(battle, uid, enemy_square, events, "retires")
    if officers:
        if generals and hits:
            for g in generals:
                _general_at_risk(battle, g, dice, events)
        elif battle.option("officer_effect") == "halt":
            nxt = _next_move_turn(battle, u)
            battle.mark_unit(uid, no_move=nxt)
            events.append(Effect(u.name, "an Officer falls: it may not move in its next move"
                                 + ("" if nxt == battle.state.turn else " (next turn)")))
    outcome = ""
    q = quality(u)
    if flags:
        battle.mark_unit(uid, flagged=turn)
    seen = mark(u, "flags_turn")                 # Flags suffered this turn so far
    before = seen[1] if per_turn and seen and seen[0] == turn else 0
    total = before + flags
    if per_turn and flags:
        battle.mark_unit(uid, flags_turn=(turn, total))
    if _level(total, q) <= _level(before, q):
        return outcome
    if total > q:
        rout(battle, uid, events, f"{total} Flags against quality {q}: routs")
        return "routs"
    if total == q:                   # halts, then begins to retire until a General rallies it
        battle.mark_unit(uid, halted=turn, minus=turn, retiring=True)
        step_back(battle, uid, enemy_square, events, "halts and retires")
        outcome = "retires"
    elif total > 1:
        battle.mark_unit(uid, halted=turn, minus=turn)
        events.append(Effect(u.name, f"{total} Flags: halts, a die less this turn"))
        outcome = "halts"
    elif total == 1:
        battle.mark_unit(uid, minus=turn)
        events.append(Effect(u.name, "a Flag: a die less this turn"))
        outcome = "shaken"
    return outcome


def _next_move_turn(battle, unit) -> int:
    """The turn of the unit's next move: this one if its side has yet to move (the
    artillery phase, the initiative, or the other side moving first), else the next."""
    st = battle.state
    if st.phase != "move":
        return st.turn
    if st.active != unit.side and st.order and st.order[0] == st.active:
        return st.turn
    return st.turn + 1


def _general_at_risk(battle, leader, dice, events) -> None:
    face = dice.d6(f"Officer face: {leader.name} at risk")
    if face == 1:
        battle.update_leader(leader.id, eliminated=True, hits=0)
        events.append(GeneralHit(leader.name, "killed"))   # no other penalty in the text
    elif face == 2:
        battle.update_leader(leader.id, hits=1)
        events.append(GeneralHit(leader.name, "wounded: he throws a die each turn, leaving "
                                 "the field on a 1"))
    else:
        events.append(GeneralHit(leader.name, f"{face}: escapes unscathed"))


def dice_now(battle, unit, base: int) -> int:
    """Dice after this turn's Flag penalty."""
    return base - (1 if mark(unit, "minus") == battle.state.turn else 0)

