"""Drives automatic commanders through a Session: a phase, a turn, or a whole battle.

The commanders come from each ruleset (`ruleset.commander(battle, side)`); this
module knows nothing of any rules, only that a commander proposes actions.

A commander keeps state within a phase (what it has decided, its plan as the phase
began), and every commander starts a phase afresh. So its state is a function of the
battle and its log: when the log is not where this autopilot left it (a reopened file,
an undo, a move by hand, a new Autopilot), the active side's commander is rebuilt by
replaying the current phase from its first entry, asking it once per logged action as
the uninterrupted run did. Continuing is then the same as never stopping.
"""
from __future__ import annotations

from .arrivals import BringOnArrival, RollForArrival, due_arrivals
from .dice import ReplaySource
from .errors import IllegalAction
from .game_actions import EndPhase, ResolveMelee, StartBattle
from .plans import FollowPlan, plans_due


def read_orders(battle, cid: str, side: str) -> tuple[str, tuple | None]:
    """A command's standing orders as every commander reads them: (kind, objective as the
    scenario wrote it). Shaken commands withdraw; a reserve is released at its turn or as
    soon as a friendly command is Shaken."""
    o = battle.commands[cid].orders or {}
    kind = o.get("kind", "attack")
    obj = tuple(o["objective"]) if "objective" in o else None
    if cid in battle.state.shaken:
        return "withdraw", None
    if kind == "reserve":
        released = battle.state.turn >= o.get("release_turn", 10 ** 6) or any(
            c in battle.state.shaken for c in battle.hierarchy.commands_of(side))
        kind = "attack" if released else "reserve"
    return kind, obj


class Autopilot:
    def __init__(self, session, sides=None, execute=None, bring_on: bool = True):
        """`execute` runs an action or raises IllegalAction (default: the session's own;
        the desktop app passes its document's, so each move lands on the undo stack).
        `bring_on=False` leaves due reinforcements to the umpire (placed by hand)."""
        self.session = session
        self.bring_on = bring_on
        self.execute = execute or session.execute
        battle = session.battle
        self.sides = set(sides or battle.sides)
        self.commanders = {s: session.ruleset.commander(battle, s) for s in battle.sides}
        self.refused = 0            # proposals the rules turned down (should stay 0)
        self._left_at = None        # the log as this autopilot last left it

    def _where(self):
        entries = self.session.entries
        return len(entries), id(entries[-1]) if entries else None

    def _resync(self) -> None:
        """The active side's commander as an uninterrupted run would have it now."""
        s = self.session
        b = s.battle
        key = (b.state.turn, b.state.phase, b.state.active)
        start = n = len(s.entries)
        while start > 0 and (s.entries[start - 1].turn, s.entries[start - 1].phase,
                             s.entries[start - 1].side) == key:
            start -= 1
        probe = s.state_at(start)
        commander = s.ruleset.commander(probe, b.state.active)
        if start < n:
            shadow = type(s).__new__(type(s))
            shadow.battle, shadow.ruleset, shadow.entries = probe, s.ruleset, []
            for entry in s.entries[start:n]:       # arrivals and plans are not asked
                if not isinstance(entry.action, (BringOnArrival, RollForArrival, FollowPlan)):
                    commander.next_action()        # asked once before each action, as then
                shadow._apply(entry.action, ReplaySource(entry.rolls))
        commander.battle = b
        self.commanders[b.state.active] = commander

    def step(self) -> bool:
        """Execute one action for the side to move; False when it is not ours to play."""
        s = self.session
        b = s.battle
        if b.state.over:
            return False
        if not b.state.started:
            self.execute(StartBattle())
            self._left_at = self._where()
            return True
        if b.state.active not in self.sides:
            return False
        due = due_arrivals(b, s.ruleset) if self.bring_on else []
        if due:                     # reinforcements first: at the start of their side's move
            self.execute(BringOnArrival(due[0].id))
            self._left_at = self._where()
            return True
        if self._where() != self._left_at:
            self._resync()
        ready = plans_due(b, s.ruleset) if self._phase_fresh() else []
        if ready:                   # then any plan whose moment has come
            self.execute(FollowPlan(ready[0]))
            self._left_at = self._where()
            return True
        action = self.commanders[b.state.active].next_action() or EndPhase()
        if isinstance(action, ResolveMelee):
            defender = b.units.get(action.defender)
            if defender is not None:
                melee = next(m for m in s.ruleset.melees(b) if m.defender == action.defender)
                from dataclasses import replace
                action = replace(action, joiners=self.commanders[defender.side].joiners(melee))
        try:
            self.execute(action)
        except IllegalAction:
            # a proposal the rules refuse is a commander bug; never let it stall the game
            self.refused += 1
            commander = self.commanders[b.state.active]
            commander.done.add(getattr(action, "unit", None) or getattr(action, "leader", None))
            if self.refused > 10_000:
                raise
        self._left_at = self._where()
        return True

    def _phase_fresh(self) -> bool:
        """Has the side done nothing yet this phase but bring on troops and take orders?
        Plans are read only then, so a battle resumed mid-phase from its log is
        commanded exactly as one played straight through."""
        st = self.session.battle.state
        for e in reversed(self.session.entries):
            if (e.turn, e.phase, e.side) != (st.turn, st.phase, st.active):
                return True
            if e.action.verb not in ("BringOnArrival", "RollForArrival", "FollowPlan"):
                return False
        return True

    def play_phase(self) -> None:
        s = self.session
        key = (s.battle.state.turn, s.battle.state.active, s.battle.state.phase)
        while key == (s.battle.state.turn, s.battle.state.active, s.battle.state.phase):
            if not self.step():
                return

    def play_turn(self) -> None:
        s = self.session
        turn = s.battle.state.turn
        while not s.battle.state.over and s.battle.state.turn == turn:
            if not self.step():
                return

    def play(self, max_turns: int | None = None) -> None:
        s = self.session
        limit = max_turns or s.battle.info.turns
        while not s.battle.state.over and s.battle.state.turn <= limit:
            if not self.step():
                return
            if s.battle.state.turn > limit:
                break
