"""The automatic commander's player choices, decided by value from the odds (issue 15).

The text leaves some things to the player: committing a general's influence "at the
player's whim" (a near general's +1 on the Charged and Lost Melee columns, with the
stray-round die that may kill him), counter-charging foot on a 7, a grenadier's re-roll.
Each is decided by comparing the float charge or melee odds with the choice and without:

- commit a near general when the gain in the chance the charge goes our way is worth
  more than the 1 in 6 that he falls, a general counting GENERAL_WORTH of a charge won;
  to a unit of ours an enemy may charge this turn (the gain: the worst charger's chance
  of winning or of making it give way, less), and to our own charger before it goes in;
- counter-charge foot on a 7 when it lowers the worst enemy charge's chance of winning;
- decline a re-roll when our chance of winning the melee is higher without it.
An attached general already gives his full +2 (and risks only the 6-hit die), so these
are the unattached generals within 4 inches. Support fire always fires (nothing is lost:
the melee is the turn's last step) and infantry pursues as it does unless told.
"""
from __future__ import annotations

import math

import numpy as np

from ...errors import IllegalAction
from ...footprint import EPS, distance
from ...game_actions import Charge
from ...model.forces import mark
from .charges import (answers, charged_reread, check_charge, surely_in_the_way,
                      surely_too_far)
from .melee_odds import charge_odds, melee_odds
from .morale import column_table, may_influence
from .recall import recall
from .moves import CommitGeneral, CounterCharge, DeclineReroll
from .state import arm, attached_leaders, footprint, move_rate, near_units, special
from .tables import GENERAL_NEAR

GENERAL_WORTH = 0.5          # a general, in charges won: his loss is half a lost charge
STRAY = 1 / 6                # the stray-round die: a 1 kills him


def charger_good(outcomes: dict) -> float:
    """The charger's chance the charge goes its way: it wins, or the target gives way."""
    return sum(float(v) for k, v in outcomes.items()
               if k == "attacker wins" or k.endswith("(no melee)"))


def _as_enemy(battle, enemy: str):
    c = battle.copy()
    c.set_state(active=enemy)
    return c


def enemy_view(battle, enemy: str):
    """The battle as the enemy would move in it, one copy per battle version (only read:
    who could charge whom; worst_threat marks its own copies)."""
    return battle.cached(("featherstone.enemy_view", enemy), lambda: _as_enemy(battle, enemy))


def threats(battle, unit, arms: tuple = ("infantry", "cavalry")) -> list:
    """Enemy units (of `arms`) that could charge `unit` now (on a copy where the enemy
    moves); remembered until the battle changes (each of the player's choices asks)."""
    every = recall(battle, "featherstone.threats", unit.id, (unit,),
                   lambda: _threats(battle, unit, ("infantry", "cavalry")))
    # (_threats of fewer arms is this list without the others, in the same order)
    return every if set(arms) >= {"infantry", "cavalry"} else [e for e in every
                                                              if arm(e) in arms]


def _threats(battle, unit, arms: tuple) -> list:
    enemy = battle.enemy_of(unit.side)
    view = None
    out = []
    if battle.units.get(unit.id) is unit:
        # the battle's own unit: only the enemies its side's first looks kept for it (in
        # the same order), within the 24 inches near_units measures
        near = [e for e in first_looks(battle, unit.side).get(unit.id, ())
                if distance(e.pos, unit.pos) <= 24]
    else:
        near = near_units(battle, unit.pos, 24, enemy)
    for e in near:
        if arm(e) not in ("infantry", "cavalry") or arm(e) not in arms or e.moved:
            continue
        view = view or enemy_view(battle, enemy)
        if unit_far(view, e, unit) or surely_in_the_way(view, e, unit):
            continue                    # check_charge would refuse it
        try:
            check_charge(view, Charge(e.id, unit.id))
        except IllegalAction:
            continue
        out.append(e)
    return out


def threatened_ids(battle, side: str) -> frozenset:
    """Ids of `side`'s units some enemy could charge by the first looks `threats` takes
    (a superset of the units it names anyone for): an enemy foot or horse unit that has
    not moved, its centre no farther than its move + 8 inches from the unit's
    (unit_far) nor than the 24 inches `_threats` scans, its base's circle within its
    charge rate of the unit's circle (surely_too_far: the turned base has the same
    circle) and the unit's centre in its forward arc (the charge path's first test). One numpy pass for the whole side, with
    SLACK to spare (numpy's distances and angles differ from math's by far less); kept
    for the battle version: the generals' stances ask it of every unit of the side."""
    return frozenset(first_looks(battle, side))


def first_looks(battle, side: str) -> dict:
    """{unit id: the enemies (in live_units order) that pass threatened_ids' first looks
    for it, within 24 inches and SLACK}, for the units with any; kept for the version."""
    return battle.cached(("featherstone.threatened", side), lambda: _threatened(battle, side))


SLACK = 1e-5                 # inches and degrees


def _threatened(battle, side: str) -> dict:
    looks = _looks(battle, side)
    if looks is None:
        return {}
    units, chargers, rows, cols, d = looks
    near: dict = {}                         # (the pairs come unit by unit, in order)
    for i, j, dij in zip(rows, cols, d):
        if dij <= 24 + SLACK:
            near.setdefault(i, []).append(chargers[j])
    return {units[i].id: tuple(es) for i, es in near.items()}


def charge_looks(battle, side: str) -> dict:
    """{id of a `side` unit that may charge: the enemies (in live_units order) that pass
    the first looks of `_looks` for it}: the ones the commander's `_charges` weighs. An
    enemy left out is one `near_units` does not find within the unit's move + 8 inches,
    or that `surely_too_far` passes over, or outside the forward arc where the charge
    path's first test refuses it (so check_charge does). Kept for the battle version."""
    return battle.cached(("featherstone.charge_looks", side),
                         lambda: _charge_looks(battle, side))


def _charge_looks(battle, side: str) -> dict:
    looks = _looks(battle, battle.enemy_of(side))
    if looks is None:
        return {}
    units, chargers, rows, cols, _ = looks
    targets: dict = {}
    for i, j in zip(rows, cols):
        targets.setdefault(j, []).append(units[i])
    return {chargers[j].id: tuple(targets[j]) for j in sorted(targets)}


def _looks(battle, side: str):
    """(side's live units, the enemy foot and horse that have not moved, and for each
    (unit, charger) pair that passes the first looks, in order unit by unit: the unit's
    place, the charger's place, the centres' distance); None if either is empty.
    A charger passes for a unit when its centre is no farther than its move + 8
    inches from the unit's (unit_far; the commander's near_units), its base's circle
    within its charge rate of the unit's circle (surely_too_far: the turned base has
    the same circle) and the unit's centre in its forward arc (the charge path's first
    test); each with SLACK to spare (numpy's distances and angles differ from math's
    by far less). Most pairs stand far apart: the centres' distance is measured, and
    the arc, only for the pairs whose squared distance could pass (a micro-inch to
    spare), the same element-wise arithmetic as over the whole table."""
    chargers = [e for e in battle.live_units(battle.enemy_of(side))
                if arm(e) in ("infantry", "cavalry") and not e.moved]
    units = battle.live_units(side)
    if not chargers or not units:
        return None
    arc = battle.option("forward_arc", 45)
    ex, ey, far, reach, fx, fy, facing, _ = np.array(_look_rows(battle, chargers)).T
    far = far + SLACK
    # surely_too_far: apart when the centres' distance less both half diagonals is more
    # than the rate + 1e-6 + EPS + 1e-6, and surely_apart's own 1e-6
    reach = reach + (3e-6 + EPS + SLACK)
    ux, uy, hd = np.array(_look_rows(battle, units))[:, (0, 1, 7)].T
    dx, dy = ux[:, None] - ex, uy[:, None] - ey
    i, j = np.nonzero(dx * dx + dy * dy <= (far + 1e-6) ** 2)
    d = np.hypot(dx[i, j], dy[i, j])
    keep = (d <= far[j]) & (d - hd[i] <= reach[j])
    i, j, d = i[keep], j[keep], d[keep]
    off = np.abs((np.degrees(np.arctan2(ux[i] - fx[j], -(uy[i] - fy[j]))) % 360 - facing[j])
                 % 360)
    off = np.minimum(off, 360 - off)
    keep = off <= arc + 1e-6 + SLACK
    return units, chargers, i[keep].tolist(), j[keep].tolist(), d[keep].tolist()


def _look_rows(battle, units) -> list:
    """Each unit's floats for _looks: its centre, its move + 8, its charge rate (its
    rally allowance) + its base's half diagonal, its front centre, its facing, that half
    diagonal. Kept per record across versions (battle.kept, as spatial.own_base keeps
    the base: a record is immutable and its base a function of it and the scenario
    info), so a step's units that did not change cost a look-up each."""
    memo = battle.kept("featherstone.look_rows", dict)
    info, out = battle.info, []
    for u in units:
        hit = memo.get(u.id)
        if hit is None or hit[0] is not u or hit[1] is not info:
            f = footprint(battle, u)
            half = math.hypot(f.frontage, f.depth) / 2
            front = f.front_centre()
            hit = memo[u.id] = (u, info, (u.x, u.y, move_rate(u) + 8,
                                          move_rate(u) * mark(u, "allow", 1) + half,
                                          front[0], front[1], float(u.facing), half))
        out.append(hit[2])
    return out


def unit_far(view, e, unit) -> bool:
    return distance(e.pos, unit.pos) > move_rate(e) + 8 or surely_too_far(view, e, unit)


def worst_threat(battle, unit, marks: dict | None = None, chargers=None) -> float:
    """The best chance any enemy charger has against `unit` (with `marks` set on it)."""
    best = 0.0
    for e in chargers if chargers is not None else threats(battle, unit):
        try:
            best = max(best, threat_chance(battle, unit, e, marks))
        except IllegalAction:
            continue
    return best


def threat_chance(battle, unit, e, marks: dict | None = None) -> float:
    """Enemy `e`'s chance its charge at `unit` goes its way (with `marks` set on the
    unit), remembered until the battle changes: counter_choice and commit_for_defence
    ask it of the same charges."""
    key = (e.id, unit.id, tuple(sorted((marks or {}).items())))
    return recall(battle, "featherstone.threat", key, (e, unit),
                  lambda: _threat_chance(battle, unit, e, marks or {}))


def _threat_chance(battle, unit, e, marks: dict) -> float:
    if marks:
        view = _as_enemy(battle, battle.enemy_of(unit.side))
        view.mark_unit(unit.id, **marks)
    else:
        # charge_odds only reads the battle it is given (it weighs on its own copy): the
        # enemy's view of this version serves, its check of the charge already asked
        view = enemy_view(battle, battle.enemy_of(unit.side))
    # the odds of one charge with other marks on its target share work: support fire
    # reads neither `counter_seven` nor `lend`, each answer's melee never reads
    # `counter_seven` (only reaction_for does, to pick the answer)
    store = battle.cached("featherstone.threat_parts", dict)
    support = store.setdefault(("support", e.id, unit.id), {})
    melees = store.setdefault(("melees", e.id, unit.id, marks.get("lend")), {})
    return charger_good(charge_odds(view, Charge(e.id, unit.id), exact=False,
                                    shared=support, melees=melees, lines=False).outcomes)


def near_generals(battle, unit) -> list:
    """Unattached generals within 4 inches who may lend the unit their influence."""
    if attached_leaders(battle, unit):
        return []
    # may_influence refuses a general farther than GENERAL_NEAR beyond the base's circle
    # first thing after his side: those (most) are passed over here, the same test
    fp = footprint(battle, unit)
    centre, half = fp.centre, math.hypot(fp.frontage, fp.depth) / 2
    return [l for l in battle.live_leaders(unit.side)
            if not distance(centre, l.pos) - half > GENERAL_NEAR + 1e-6
            and not may_influence(battle, l, unit)]


def lend_mark(battle, leader) -> str:
    return f"{leader.id}:1:{battle.state.turn}"


def commit_for_defence(battle, unit):
    """CommitGeneral(leader, unit, +1) if it pays for a unit enemies may charge, else None."""
    if mark(unit, "lend"):
        return None
    gens = near_generals(battle, unit)
    if not gens:
        return None
    chargers = threats(battle, unit)
    if not chargers:
        return None
    g = gens[0]
    gain = worst_threat(battle, unit, None, chargers) - \
        worst_threat(battle, unit, {"lend": lend_mark(battle, g)}, chargers)
    return CommitGeneral(g.id, unit.id, 1) if gain > STRAY * GENERAL_WORTH else None


def charge_value(battle, action) -> tuple[float, object]:
    """(worth, CommitGeneral or None): the charger's chance the charge goes its way, and
    with a near general's +1 on its checks, less the risk to him, when that is more."""
    # support fire never reads the charger's `lend` mark: both odds share it
    shared: dict = {}
    without = charger_good(charge_odds(battle, action, exact=False, shared=shared,
                                       lines=False).outcomes)
    unit = battle.units[action.unit]
    gens = near_generals(battle, unit)
    if not gens or mark(unit, "lend"):
        return without, None
    g = gens[0]
    c = battle.copy()
    c.mark_unit(unit.id, lend=lend_mark(battle, g))
    with_him = charger_good(charge_odds(c, action, exact=False, shared=shared,
                                        lines=False).outcomes)
    if with_him - without > STRAY * GENERAL_WORTH:
        return with_him - STRAY * GENERAL_WORTH, CommitGeneral(g.id, unit.id, 1)
    return without, None


def commit_for_charge(battle, action):
    """CommitGeneral for our charger if his +1 on its checks is worth the risk, else None."""
    return charge_value(battle, action)[1]


def counter_choice(battle, unit):
    """CounterCharge(unit, on) when the better standing choice differs from the current."""
    if arm(unit) != "infantry" or not foot_in_first_looks(battle, unit):
        return None                 # no enemy foot could charge it: threats would be []
    if not counter_possible(battle, unit):
        return None                 # (without a 7 the choice changes no charge's odds)
    chargers = threats(battle, unit, ("infantry",))
    if not chargers:
        return None
    now = bool(mark(unit, "counter_seven"))
    stay = worst_threat(battle, unit, None, chargers)
    flip = worst_threat(battle, unit, {"counter_seven": None if now else True}, chargers)
    return CounterCharge(unit.id, not now) if flip < stay - 1e-9 else None


def foot_in_first_looks(battle, unit) -> bool:
    """False when `threats(battle, unit, ("infantry",))` is surely empty: the battle's
    own unit, and no enemy foot that has not moved among the first looks `_threats`
    scans for it within 24 inches (it names only those). True means only "maybe"."""
    if battle.units.get(unit.id) is not unit:
        return True
    return any(arm(e) == "infantry" and not e.moved
               for e in first_looks(battle, unit.side).get(unit.id, ())
               if distance(e.pos, unit.pos) <= 24)


def counter_possible(battle, unit) -> bool:
    """Could a charge at `unit` be answered on the Charged column's 7 (counter-charge) on
    some face? Its `counter_seven` mark is read only there (reaction_for), so when no
    face reaches it the mark changes no charge's odds and counter_choice has nothing
    to weigh. The answer rows read only the unit (never the charger)."""
    charged = column_table(battle, "charged")
    for face, column, score in answers(battle, None, unit):
        if column == "rally":
            if column_table(battle, "rally")[score] in ("disperse", "rout", "fall_back"):
                continue
            score = charged_reread(battle, unit, face, score)
        if charged[score] == "counter":
            return True
    return False


def reroll_choice(battle, m, side: str):
    """DeclineReroll for our elite unit in melee `m` when our side does better without."""
    for uid in (m.defender, *m.attackers):
        u = battle.units[uid]
        if u.side != side or "elite" not in special(u) or \
                mark(u, "no_reroll") == battle.state.turn:
            continue
        ours = "defender wins" if uid == m.defender else "attacker wins"
        keep = float(melee_odds(battle, m, exact=False).outcomes.get(ours, 0))
        c = battle.copy()
        c.mark_unit(uid, no_reroll=battle.state.turn)
        drop = float(melee_odds(c, m, exact=False).outcomes.get(ours, 0))
        if drop > keep + 1e-9:
            return DeclineReroll(uid)
    return None


# ---- the umpire's choices at the table (Ruleset.choices: the turn dock offers them) ------
def _good(battle, action) -> float:
    """The acting side's chance in `action`'s odds: the charger's or the melee attackers'."""
    from ...game_actions import ResolveMelee
    if isinstance(action, ResolveMelee):
        from .melee import find
        return float(melee_odds(battle, find(battle, action.defender), action.support,
                                exact=False).outcomes.get("attacker wins", 0))
    return charger_good(charge_odds(battle, action, exact=False).outcomes)


def _effect(battle, action, choice, resolve) -> str:
    """' (charger's chance 41% -> 52%)': the odds with the choice taken, on a copy."""
    try:
        before = _good(battle, action)
        c = battle.copy()
        resolve(c, choice, None)
        after = _good(c, action)
    except IllegalAction:
        return ""
    who = "charger's" if isinstance(action, Charge) else "attackers'"
    return f"\n{who} chance {before:.0%} \u2192 {after:.0%}"


def table_choices(battle, action) -> list:
    """(label, action) for each choice the text leaves to a player in this charge or
    melee: commit a near general to either side's unit (+1; the stray-round die follows
    when the unit is in harm's way), foot's counter-charge on a 7, a grenadier's re-roll."""
    from ...game_actions import ResolveMelee
    from .melee import find
    from .moves import check_commit, resolve_commit, resolve_counter, resolve_decline
    from .morale import influence_at_risk
    if isinstance(action, Charge):
        units = [battle.units[action.unit], battle.units[action.target]]
    elif isinstance(action, ResolveMelee):
        try:
            m = find(battle, action.defender)
        except IllegalAction:
            return []
        units = [battle.units[u] for u in (m.defender, *m.attackers)]
    else:
        return []
    out = []
    for u in units:
        for g in near_generals(battle, u):
            if mark(u, "lend"):
                break
            choice = CommitGeneral(g.id, u.id, 1)
            try:
                check_commit(battle, choice)
            except IllegalAction:
                continue
            risk = "risk roll: 1 in 6 he falls" if influence_at_risk(battle, u) else "no risk"
            out.append((f"Commit {g.name} to {u.name} (+1)\n{risk}"
                        + _effect(battle, action, choice, resolve_commit), choice))
    if isinstance(action, Charge):
        u, t = units
        if arm(u) == "infantry" and arm(t) == "infantry":
            on = not mark(t, "counter_seven")
            choice = CounterCharge(t.id, on)
            label = (f"Counter-charge: {t.name}\ncounter-charges on a 7" if on
                     else f"No counter-charge: {t.name}\nstands and fires first on a 7")
            out.append((label + _effect(battle, action, choice, resolve_counter), choice))
    for u in units:
        if "elite" in special(u) and mark(u, "no_reroll") != battle.state.turn:
            choice = DeclineReroll(u.id)
            out.append((f"No re-roll: {u.name}\n(grenadiers) forgo it this turn"
                        + _effect(battle, action, choice, resolve_decline), choice))
    return out
