"""Drives automatic commanders through a Session: a phase, a turn, or a whole battle.

The commanders come from each ruleset (`ruleset.commander(battle, side)`); this
module knows nothing of any rules, only that a commander proposes actions.
"""
from __future__ import annotations

from .errors import IllegalAction
from .game_actions import EndPhase, ResolveMelee, StartBattle


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
    def __init__(self, session, sides=None, execute=None):
        """`execute` runs an action or raises IllegalAction (default: the session's own;
        the desktop app passes its document's, so each move lands on the undo stack)."""
        self.session = session
        self.execute = execute or session.execute
        battle = session.battle
        self.sides = set(sides or battle.sides)
        self.commanders = {s: session.ruleset.commander(battle, s) for s in battle.sides}
        self.refused = 0            # proposals the rules turned down (should stay 0)

    def step(self) -> bool:
        """Execute one action for the side to move; False when it is not ours to play."""
        s = self.session
        b = s.battle
        if b.state.over:
            return False
        if not b.state.started:
            self.execute(StartBattle())
            return True
        if b.state.active not in self.sides:
            return False
        from .arrivals import BringOnArrival, due_arrivals
        due = due_arrivals(b, s.ruleset)
        if due:                     # reinforcements first: at the start of their side's move
            self.execute(BringOnArrival(due[0].id))
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
