"""Harman's Fire: musketry at one square's distance, skirmishers, and artillery canister
and effective range; who may fire when; and the exact odds of the faces.

Musketry throws quality dice and Targets hit; artillery throws 3, Targets hit at
canister range and Fires at effective range (a hill adds a square to the effective
band); skirmishers throw one die, Fires hitting skirmishers and Targets hitting formed
troops with no screen. Firing at a built-up area throws two dice fewer; behind a wall or
fence only Fires hit. In the artillery phase fire is simultaneous: hits land as it ends.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...actions import need
from ...model.forces import mark
from ...odds import Dist, Odds, OddsLine
from ..common import own_unit
from .board import (box, generals_with, kinds, level, ortho_adjacent, quality, screened,
                    sight_refusal, spent, squares, utype, wall_across, weakened)
from .tables import ARTILLERY, ARTILLERY_DICE, FIRE, FLAG, MUSKET, OFFICER, TARGET
from .tactical import Effect, count, dice_now, rout, step_back, suffer, throw


@dataclass(frozen=True)
class Shot:
    dice: int
    hit_faces: tuple
    why: str
    duel: bool = False           # skirmishers against skirmishers: both throw


def shot(battle, unit, target) -> Shot:
    need(target.side != unit.side and not target.eliminated, f"{target.name} is not an enemy")
    t = utype(unit)
    need(t != "cavalry", "cavalry fight with the sabre")
    a, b = box(battle, unit), box(battle, target)
    d = squares(a, b)
    why = sight_refusal(battle, unit, target)
    need(not why, f"{unit.name} has no line of sight to {target.name}: {why}")
    if t.endswith("artillery"):
        need(unit.formation != "limbered", f"{unit.name} is limbered")
        canister, effective = ARTILLERY[t]
        effective += 1 if level(battle, a) > 0 else 0
        need(d <= effective, f"{target.name} is {d} squares away: out of range ({unit.name} reaches {effective})")
        n = dice_now(battle, unit, ARTILLERY_DICE)
        faces, band = ((TARGET,), "canister") if d <= canister else ((FIRE,), "effective range")
    elif t == "skirmishers":
        need(d <= MUSKET, f"{target.name} is beyond skirmishing range ({MUSKET} squares)")
        duel = utype(target) == "skirmishers"
        need(duel or not screened(battle, target, a), f"{target.name} is screened by its "
             "skirmishers: drive them in first")
        faces, band, n = ((FIRE,), "skirmish duel", 1) if duel else ((TARGET,), "skirmishing", 1)
        if "woods" in kinds(battle, a):
            need(duel or squares(a, b) == 1, "from a forest, skirmishers shoot only into an "
                 "adjacent open square or at skirmishers")
        return _cover(battle, unit, target, Shot(n, faces, band, duel))
    else:
        need(d <= MUSKET, f"{target.name} is {d} squares away: musket range is one square "
             "between the units")
        need(not screened(battle, target, a), f"{target.name} is screened by its skirmishers")
        n = dice_now(battle, unit, battle_dice(battle, unit))
        faces, band = (TARGET,), "volley"
    if weakened(battle, unit):
        need(ortho_adjacent(a, b), f"{unit.name} has lost over half its Combat Value: no offensive "
             "fire, only in its own defence")
    return _cover(battle, unit, target, Shot(n, faces, band))


def battle_dice(battle, unit) -> int:
    from .board import quality_dice
    return quality_dice(battle, unit)


def _cover(battle, unit, target, s: Shot) -> Shot:
    n, faces, why = s.dice, s.hit_faces, s.why
    tb = box(battle, target)
    inside = utype(unit) == "skirmishers" and "town" in kinds(battle, box(battle, unit))
    if "town" in kinds(battle, tb) and not inside:   # skirmishers may skirmish inside a BUA
        n, why = n - 2, why + ", built-up area -2 dice"
    if wall_across(battle, box(battle, unit), tb):
        faces, why = (FIRE,), why + ", behind a wall: only Fire hits"
    if utype(target) == "skirmishers":
        faces = (FIRE,)                      # only Fire and Flags count against skirmishers
    return Shot(n, faces, why, s.duel)


def may_fire(battle, unit) -> str:
    phase = battle.state.phase
    t = utype(unit)
    if unit.fired:
        return f"{unit.name} has fired this turn"
    if spent(unit):
        return f"{unit.name} has lost all its Combat Value: it has ceased to be effective"
    if t == "cavalry":
        return "cavalry fight with the sabre"
    limit = battle.option("ammunition") or 0
    if limit and mark(unit, "volleys", 0) >= limit:
        return f"{unit.name} is out of ammunition: withdraw to replenish"
    if phase == "artillery":
        return "" if t.endswith("artillery") else "only artillery fires in the artillery phase"
    if t == "foot_artillery":
        if unit.moved or mark(unit, "unlimbered") == battle.state.turn:
            return f"{unit.name} moved or unlimbered this turn: it fires next turn"
        return "" if _canister_support(battle, unit) else \
            "foot artillery fires in the artillery phase (or canister in close support)"
    if mark(unit, "marched") == battle.state.turn:
        return f"{unit.name} moved two squares: no Fire this turn"
    if t.endswith("artillery") and mark(unit, "unlimbered") == battle.state.turn \
            and unit.moved > 1:
        return f"{unit.name} unlimbered after moving two squares: it fires next turn"
    return ""


def _canister_support(battle, unit) -> bool:
    from .board import occupants
    a = box(battle, unit)
    return any(o.side != unit.side and squares(a, sq) <= ARTILLERY[utype(unit)][0]
               for sq, o in occupants(battle).items())


def check_fire(battle, action) -> None:
    unit = battle.units.get(action.unit)
    if battle.state.phase == "artillery" and unit is not None and not unit.eliminated:
        pass                          # both sides fire their artillery, simultaneously
    else:
        unit = own_unit(battle, action.unit)
    why = may_fire(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None, f"there is no unit {action.target!r}")
    s = shot(battle, unit, target)
    if utype(unit) == "foot_artillery" and battle.state.phase == "move":
        need(s.why.startswith("canister"), "in close support foot artillery fires canister")


def resolve_fire(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    s = shot(battle, unit, target)
    battle.update_unit(unit.id, fired=True)
    battle.mark_unit(unit.id, volleys=mark(unit, "volleys", 0) + 1)
    faces = throw(battle, unit, s.dice, f"{s.why} at {target.name}", dice, events)
    hits = count(faces, *s.hit_faces)
    flags, officers = count(faces, FLAG), count(faces, OFFICER)
    if battle.state.phase == "artillery":              # simultaneous: lands as the phase ends
        p = dict(mark(target, "pending", ()))
        add = (lambda a, b: a + b) if battle.option("flags_add") != "throw" else max
        p = (p.get("hits", 0) + hits, add(p.get("flags", 0), flags),
             p.get("officers", 0) + officers)
        battle.mark_unit(target.id, pending=(("hits", p[0]), ("flags", p[1]),
                                             ("officers", p[2]), ("from", box(battle, unit))))
        events.append(Effect(target.name, f"{hits} hit(s), {flags} Flag(s): they land as the "
                             "artillery phase ends"))
        return events
    if s.duel:
        return events + _duel(battle, unit, target, hits, flags, officers, dice)
    suffer(battle, target.id, hits, flags, officers, dice, events, box(battle, unit))
    if utype(unit) == "skirmishers" and flags:
        battle.mark_unit(target.id, skirm_flags=(battle.state.turn, flags))
    from ..army_morale import settle_army
    settle_army(battle, events, battle.option("army_morale"))
    return events


def _duel(battle, unit, target, hits, flags, officers, dice) -> list:
    """Skirmishers against skirmishers: the target throws back; Fire removes a figure, and
    the side suffering more Flags falls back a square (driven in if its formed troops
    stand there)."""
    events: list = []
    reply = _cover(battle, target, unit, Shot(1, (FIRE,), "skirmish duel", True))
    back = throw(battle, target, reply.dice, f"skirmish duel with {unit.name}{reply.why[13:]}",
                 dice, events)
    suffer(battle, target.id, hits, 0, officers, dice, events, box(battle, unit))
    suffer(battle, unit.id, count(back, FIRE), 0, count(back, OFFICER), dice, events,
           box(battle, target))
    mine, theirs = count(back, FLAG), flags
    loser = target if theirs > mine else unit if mine > theirs else None
    if loser is not None and not battle.units[loser.id].eliminated:
        winner = unit if loser is target else target
        if not step_back(battle, loser.id, box(battle, winner), events, "falls back"):
            rout(battle, loser.id, events, "driven in on its formed troops")
    else:
        events.append(Effect(target.name, "the skirmishing continues: no ground gained"))
    return events


def apply_pending(battle, dice, events: list) -> None:
    """End of the artillery phase: every battery's hits land at once."""
    for u in sorted(battle.live_units(), key=lambda u: u.id):
        p = dict(mark(u, "pending", ()))
        if p:
            battle.mark_unit(u.id, pending=None)
            suffer(battle, u.id, p["hits"], p["flags"], p["officers"], dice, events, p["from"])


# ---- exact odds -------------------------------------------------------------------------
def throw_dist(n: int, hit_faces: tuple) -> dict:
    """{(hits, flags, officers): chance} for n Tactical Dice."""
    from .tables import FACE
    per = {}
    for f in range(1, 7):
        name = FACE[f]
        key = (1 if name in hit_faces else 0, 1 if name == FLAG else 0,
               1 if name == OFFICER else 0)
        per[key] = per.get(key, 0) + Fraction(1, 6)
    out = {(0, 0, 0): Fraction(1)}
    for _ in range(max(n, 0)):
        nxt: dict = {}
        for (h, fl, o), p in out.items():
            for (dh, df, do), q in per.items():
                k = (h + dh, fl + df, o + do)
                nxt[k] = nxt.get(k, 0) + p * q
        out = nxt
    return out


def flag_outcomes(dist: dict, q: int, general: bool, before: int = 0) -> dict:
    """What the Flags do, with `before` Flags already suffered this turn: at least one
    Flag, a die less (one Flag in all), halts, halts and retires, routs."""
    out = {"at least one Flag": Fraction(0), "a die less this turn (one Flag)": Fraction(0),
           "halts (a die less)": Fraction(0), "halts and retires": Fraction(0),
           "routs (more Flags than quality)": Fraction(0)}
    for (_, fl, _), p in dist.items():
        if fl:
            out["at least one Flag"] += p
        total = before + max(fl - (1 if general else 0), 0)
        if total == before:
            continue
        if total > q:
            out["routs (more Flags than quality)"] += p
        elif total == q:
            out["halts and retires"] += p
        elif total > 1:
            out["halts (a die less)"] += p
        elif total == 1:
            out["a die less this turn (one Flag)"] += p
    return out


def fire_odds(battle, action) -> Odds:
    unit, target = battle.units[action.unit], battle.units[action.target]
    s = shot(battle, unit, target)
    dist = throw_dist(s.dice, s.hit_faces)
    hits = {}
    for (h, _, _), p in dist.items():
        hits[h] = hits.get(h, 0) + p
    top = max(hits)
    denom = 6 ** max(s.dice, 0)
    line = Dist([int(hits.get(k, 0) * denom) for k in range(top + 1)], denom)
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name} ({s.why})", line, target.name)])
    seen = mark(target, "flags_turn")
    before = seen[1] if seen and seen[0] == battle.state.turn and \
        battle.option("flags_add") != "throw" else 0
    steadied = mark(target, "steadied") == battle.state.turn and \
        battle.option("flags_add") != "throw"
    odds.outcomes = {k: v for k, v in flag_outcomes(
        dist, quality(target), bool(generals_with(battle, target)) and not steadied,
        before).items() if v}
    if spent(target):
        odds.outcomes["routs (any hit or Flag on a spent unit)"] = sum(
            (p for (h, fl, _o), p in dist.items() if h or fl), Fraction(0))
    return odds
