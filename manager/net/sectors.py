"""Sectors: which commands an action acts for, and which laptops a phase still waits on.

A laptop claims commands; it may act only for the pieces of those commands. What an
action acts for is read off its fields, never off any ruleset: a unit or leader it
names (`unit`, `leader`, `attackers`), the attackers of the melee it resolves
(`ResolveMelee`), the command of an arrival or a plan. A leader who commands an army
acts for every command of his side. Side-wide decisions (who goes first) belong to any
laptop holding a command of the side to move; starting the battle to any laptop.
`EndPhase` is never a laptop's: a laptop says "done" and the host ends the phase.
"""
from __future__ import annotations

from ..errors import IllegalAction

ANYONE = {"StartBattle"}                 # the table's, not a side's
SIDE_WIDE = {"ChooseInitiative"}         # the side to move decides
HOST_ONLY = {"EndPhase"}                 # a laptop sends "done" instead


def piece_name(battle, pid: str) -> str:
    p = battle.units.get(pid) or battle.leaders.get(pid)
    return p.name if p is not None else pid


def leader_commands(battle, lid: str) -> set[str]:
    kind, ref = battle.hierarchy.find_leader_node(lid)
    if kind == "command":
        return {ref}
    leader = battle.leaders.get(lid)
    side = ref if kind == "army" else (leader.side if leader else "")
    return set(battle.hierarchy.commands_of(side)) if side else set()


def piece_commands(battle, pid: str) -> set[str]:
    if pid in battle.leaders:
        return leader_commands(battle, pid)
    cid = battle.hierarchy.find_command(pid)
    return {cid} if cid else set()


def actors(battle, ruleset, action) -> list[str]:
    """The pieces (unit and leader ids) an action moves, fires, rallies or fights with."""
    verb = action.verb
    if verb == "ResolveMelee":
        for m in ruleset.melees(battle):
            if m.defender == action.defender:
                return list(m.attackers)
        return []
    found = []
    for name in ("unit", "leader"):
        v = getattr(action, name, None)
        if isinstance(v, str):
            found.append(v)
    v = getattr(action, "attackers", None)
    if isinstance(v, tuple):
        found.extend(x for x in v if isinstance(x, str))
    return found


def acting_commands(battle, ruleset, action) -> set[str] | None:
    """The commands an action acts for; None when it is the table's (anyone may send it)."""
    verb = action.verb
    if verb in ANYONE:
        return None
    if verb in HOST_ONLY:
        raise IllegalAction("a laptop ends its part of a phase with 'done'; the host ends "
                            "the phase when every laptop still acting has done so")
    if verb in SIDE_WIDE:
        return set(battle.hierarchy.commands_of(battle.state.active))
    if verb == "BringOnArrival":
        from ..arrivals import find_arrival
        a = find_arrival(battle, action.arrival)
        return {cid for cid, _ in a.units} if a is not None else set()
    if verb == "FollowPlan":
        return {action.command}
    out: set[str] = set()
    for pid in actors(battle, ruleset, action):
        out |= piece_commands(battle, pid)
    return out


def refuse_unclaimed(battle, ruleset, action, claimed: set[str]) -> None:
    """IllegalAction with the reason when the action acts for a command not claimed."""
    wanted = acting_commands(battle, ruleset, action)
    if wanted is None:
        return
    if not wanted:
        raise IllegalAction(f"{action.verb}: it names no piece of any command")
    if action.verb in SIDE_WIDE:
        if not wanted & claimed:
            raise IllegalAction(f"{action.verb}: only a laptop holding a command of "
                                f"{battle.sides[battle.state.active].name} decides that")
        return
    if wanted & claimed:          # an army leader acts for any of his side's commands
        return
    cid = sorted(wanted)[0]
    pieces = actors(battle, ruleset, action)
    who = piece_name(battle, pieces[0]) if pieces else battle.commands[cid].name
    raise IllegalAction(f"{who} belongs to {battle.commands[cid].name}, which this laptop "
                        f"has not claimed")


def has_part(battle, cid: str) -> bool:
    """Does this command still have anything on the table or to come?"""
    if cid in battle.state.shaken and not battle.hierarchy.units_of(cid):
        return False
    if any(not battle.units[u].eliminated for u in battle.hierarchy.units_of(cid)
           if u in battle.units):
        return True
    lid = battle.hierarchy.leader_of_command(cid)
    if lid and lid in battle.leaders and not battle.leaders[lid].eliminated:
        return True
    return any(k == cid for a in battle.pending for k, _ in a.units)


def acting_laptops(battle, claims: dict[str, str]) -> set[str]:
    """Laptops (ids) holding a command of the side to move with something left in it."""
    side = battle.state.active
    return {lap for cid, lap in claims.items()
            if cid in battle.commands and battle.commands[cid].side == side
            and has_part(battle, cid)}


def unheld_side(battle, claims: dict[str, str]) -> str:
    """The side to move when no laptop holds any of its commands and it still has something
    to act with ("" otherwise): its phase waits for a laptop or the host's umpire."""
    side = battle.state.active
    commands = battle.hierarchy.commands_of(side) if side else ()
    if any(claims.get(c) for c in commands):
        return ""
    return side if any(has_part(battle, c) for c in commands) else ""


def phase_key(battle) -> tuple:
    st = battle.state
    return (st.turn, st.active, st.phase)


def touched(battle, action) -> set[str]:
    """Every piece an action names (acting or acted on), for the stale-order reason."""
    out = set()
    for v in vars(action).values():
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, tuple):
            out.update(x for x in v if isinstance(x, str))
    return {p for p in out if p in battle.units or p in battle.leaders}


ACTIVE = {"MoveUnit": "moved", "MoveLeader": "moved", "ChangeFormation": "changed formation",
          "Fire": "fired", "Charge": "charged", "Rally": "rallied", "ResolveMelee": "fought a melee",
          "TableFire": "fired", "TableMelee": "fought a melee", "BringOnArrival": "came on"}
PASSIVE = {"Fire": "was fired on", "TableFire": "was fired on", "Charge": "was charged",
           "Rally": "was rallied", "ResolveMelee": "fought a melee", "TableMelee": "fought a melee"}


def stale_reason(battle, entries, action) -> str:
    """'IV Line 5 was charged before your order arrived', from the entries since it was sent."""
    mine = touched(battle, action)
    for e in reversed(entries):
        common = mine & touched(battle, e.action)
        if common:
            pid = sorted(common)[0]
            acted = pid in (getattr(e.action, "unit", None), getattr(e.action, "leader", None))
            what = (ACTIVE if acted else PASSIVE).get(e.action.verb) or f"named in {e.action.verb}"
            return f"{piece_name(battle, pid)} {what} before your order arrived"
    return ""
