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
Who could charge whom, and with what chance: threats.
"""
from __future__ import annotations

import math

from ...errors import IllegalAction
from ...footprint import distance
from ...game_actions import Charge
from ...model.forces import mark
from .charges import answers, charged_reread
from .melee_odds import charge_odds, melee_odds
from .morale import column_table, may_influence
from .moves import CommitGeneral, CounterCharge, DeclineReroll
from .state import arm, footprint, special
from .nearby import attached_leaders
from .threats import charger_good, first_looks, threats, worst_threat
from .tables import GENERAL_NEAR

GENERAL_WORTH = 0.5          # a general, in charges won: his loss is half a lost charge
STRAY = 1 / 6                # the stray-round die: a 1 kills him


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
