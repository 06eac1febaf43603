"""The editor's side of reinforcements: set (or clear) a command's or a unit's arrival.

One undoable action through the Session like any other edit. Arrivals are set before
the battle begins: a unit taken off a table mid-game would leave its fight half-told.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Action, need, register
from .arrivals import find_arrival, put_on, take_off
from .events import ScenarioEdited
from .placement import placement_problem


def check_entry(battle, entry) -> tuple:
    """One point or two (a stretch of edge), in inches, on the table."""
    bf = battle.battlefield
    need(isinstance(entry, (tuple, list)) and len(entry) in (1, 2),
         "the entry is one point (x, y) or two for a stretch of edge, in inches")
    pts = []
    for p in entry:
        need(isinstance(p, (tuple, list)) and len(p) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in p),
            f"an entry point is (x, y) in inches, not {p!r}")
        need(0 <= p[0] <= bf.width and 0 <= p[1] <= bf.height,
             f"the entry ({p[0]:g}, {p[1]:g}) is off the {bf.width:g} x {bf.height:g} table")
        pts.append((float(p[0]), float(p[1])))
    return tuple(pts)


@register
@dataclass(frozen=True)
class SetArrival(Action):
    """`target` (a command or a unit) arrives on `turn`, or from it on a D6 >= `roll`,
    at `entry`; `turn = 0` clears the arrival and puts the pieces back where they stood."""
    target: str
    turn: int = 0
    roll: int = 0
    name: str = ""
    entry: tuple = ()
    delay_if_blocked: bool = False

    def validate(self, battle, ruleset):
        need(not battle.state.started, "arrivals are set before the battle begins")
        pending = find_arrival(battle, self.target)
        inside = battle.arrival_of(self.target)
        named = lambda ref: (battle.commands[ref].name if ref in battle.commands  # noqa: E731
                             else battle.all_units()[ref].name if ref in battle.all_units()
                             else ref)
        need(pending is not None or inside is None,
             f"{named(self.target)} arrives with its command "
             f"{named(inside.id) if inside else ''} ({self.target} in "
             f"{inside.id if inside else ''}): set or clear the command's arrival")
        if self.turn == 0:
            need(pending is not None, f"{self.target} has no arrival to clear")
            taken = None
            g = battle.battlefield.grid
            if g and ruleset.measure == "grid":
                taken = {(int(u.x // g), int(u.y // g)): u.id for u in battle.live_units()}
            for _, u in pending.units:
                why = placement_problem(battle, ruleset, u.kind, u.pos, taken=taken)
                need(not why, f"{u.name} cannot go back to ({u.x:g}, {u.y:g}): {why}")
                if taken is not None:
                    taken[(int(u.x // g), int(u.y // g))] = u.id
            return
        need(isinstance(self.turn, int) and self.turn >= 1, "the turn is a whole number, 1 or more")
        need(self.turn <= battle.info.turns,
             f"the battle lasts {battle.info.turns} turns: turn {self.turn} would never come")
        need(self.roll == 0 or 2 <= self.roll <= 6,
             "the roll is the D6 score needed, 2 to 6 (0: no roll)")
        check_entry(battle, self.entry)
        if pending is None:
            need(self.target in battle.commands or self.target in battle.units,
                 f"there is no command or unit {self.target!r}")
            if self.target in battle.units:
                u = battle.units[self.target]
                need(not u.eliminated, f"{u.name} is gone")
            else:
                need(battle.hierarchy.units_of(self.target),
                     f"{named(self.target)} has no units on the table to hold back")
                own = [u.name for a in battle.pending for cid, u in a.units if cid == self.target]
                need(not own, f"{', '.join(own)} of {named(self.target)} already "
                              f"{'has its' if len(own) == 1 else 'have their'} own arrival: "
                              f"clear {'it' if len(own) == 1 else 'those'} first")

    def apply(self, battle, ruleset, dice):
        pending = find_arrival(battle, self.target)
        if self.turn == 0:
            put_on(battle, pending, {})
            return [ScenarioEdited(f"{self.target}: no longer a reinforcement")]
        spec = dict(turn=self.turn, roll=self.roll, name=self.name,
                    entry=check_entry(battle, self.entry), delay_if_blocked=self.delay_if_blocked)
        if pending is not None:
            battle.set_pending(replace(a, **spec) if a.id == self.target else a
                               for a in battle.pending)
            a = find_arrival(battle, self.target)
        else:
            a = take_off(battle, self.target, **spec)
        return [ScenarioEdited(f"{self.target}: {a.describe()}")]


# ---- the editor's other actions on pieces still to come -------------------------------------
# A command that arrives as a whole has no unit on the table; each unit still to come
# belongs to exactly one arrival and one command that exists. Deleting and reassigning
# keep it so (and undo restores the arrivals with the rest of the snapshot).
def pending_unit(battle, uid: str):
    """(arrival, command id, Unit) for a unit still to come, or None."""
    for a in battle.pending:
        for cid, u in a.units:
            if u.id == uid:
                return a, cid, u
    return None


def whole_arrival(battle, cid: str):
    """The pending arrival of a command that arrives as a whole, or None."""
    return next((a for a in battle.pending if a.scope == "command" and a.id == cid), None)


def leader_back_problem(battle, ruleset, arrival) -> str:
    """Why a command's leader could not go back to his spot when its last unit leaves
    the arrival ('' when he can)."""
    if not arrival.leader:
        return ""
    lead = arrival.leader[1]
    why = placement_problem(battle, ruleset, "leader", lead.pos)
    return f"{lead.name} cannot go back to ({lead.x:g}, {lead.y:g}): {why}" if why else ""


def take_from_arrival(battle, uid: str):
    """Take a unit out of its arrival: (command id, Unit). A command's arrival left
    with no unit ends, its leader back at his spot on the table."""
    a, cid, u = pending_unit(battle, uid)
    rest = tuple(m for m in a.units if m[1].id != uid)
    if not rest:
        battle.set_pending(p for p in battle.pending if p.id != a.id)
        if a.leader:
            put_on(battle, replace(a, units=()), {})
    else:
        battle.set_pending(replace(a, units=rest) if p.id == a.id else p for p in battle.pending)
    return cid, u


def join_arrival(battle, arrival, cid: str, unit) -> None:
    """Add a unit (already off the table) to an arrival, under command `cid`."""
    battle.set_pending(replace(p, units=p.units + ((cid, unit),)) if p.id == arrival.id else p
                       for p in battle.pending)


def own_arrival(battle, cid: str, unit, like) -> None:
    """A unit leaving a command's arrival keeps its timing as an arrival of its own."""
    battle.set_pending(battle.pending + (replace(like, id=unit.id, scope="unit",
                                                 units=((cid, unit),), leader=()),))


def drop_arrivals_of_command(battle, cid: str) -> None:
    """A disbanded command's reinforcements go with it (its own and its units')."""
    battle.set_pending(a for a in battle.pending
                       if a.id != cid and not any(k == cid for k, _ in a.units))
