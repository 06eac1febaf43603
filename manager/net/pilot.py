"""The automatic commander on a laptop: plays its claimed commands, and only those.

Each ruleset's commander plays a whole side. Here it is asked as the autopilot asks
it, on the laptop's own copy of the battle, and its proposals for pieces this laptop
does not hold are passed over (marked decided, as the autopilot does with a refused
proposal); other laptops' moves reach the copy as the host's entries are folded, and
the commander reads the battle live. Reinforcements and plans are brought on and
followed for this laptop's commands. When the commander has nothing more for them
the laptop says "done" for the phase; the host ends it when every laptop has.

A melee is resolved by the laptop holding its attackers, with the defending side's
automatic choice of who joins (the rules' default for support and pursuit).
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from ..arrivals import BringOnArrival, due_arrivals
from ..errors import IllegalAction
from ..game_actions import ResolveMelee, StartBattle
from ..plans import FollowPlan, plans_due
from .laptop import ActionRefused, ConnectionLost
from .sectors import SIDE_WIDE, actors, piece_commands, phase_key, refuse_unclaimed

log = logging.getLogger("berthier.net")


class SectorPilot:
    def __init__(self, laptop):
        self.laptop = laptop
        self._session = None
        self.commanders: dict = {}
        self._acted: tuple | None = None       # the phase this laptop made a move in
        self._skipped: set = set()             # (phase, proposal) the host refused
        self.refused = 0

    def _commander(self, side: str):
        s = self.laptop.session
        if s is not self._session:             # a new battle after a re-sync
            self._session, self.commanders = s, {}
        c = self.commanders.get(side)
        if c is None:
            c = self.commanders[side] = s.ruleset.commander(s.battle, side)
        c.battle = s.battle
        return c

    def mine(self) -> set:
        b = self.laptop.session.battle
        return set(self.laptop.commands) & set(b.hierarchy.commands_of(b.state.active))

    def propose(self):
        """The next action for this laptop's commands, or None: done with this phase."""
        s = self.laptop.session
        b = s.battle
        if b.state.over:
            return None
        if not b.state.started:
            return StartBattle()
        mine = self.mine()
        if not mine:
            return None
        key = phase_key(b)
        for a in due_arrivals(b, s.ruleset):
            if {cid for cid, _ in a.units} & mine and (key, a.id) not in self._skipped:
                return BringOnArrival(a.id)
        if self._acted != key:                  # plans are read as this laptop's move begins
            for cid in plans_due(b, s.ruleset):
                if cid in mine and (key, cid) not in self._skipped:
                    return FollowPlan(cid)
        commander = self._commander(b.state.active)
        last = None
        for _ in range(2000):
            action = commander.next_action()
            if action is None or action.verb == "EndPhase" or action == last:
                return None
            last = action
            if isinstance(action, ResolveMelee):
                return self._melee(mine)
            if action.verb in SIDE_WIDE:
                return action
            try:
                refuse_unclaimed(b, s.ruleset, action, mine)
                return action
            except IllegalAction:
                self.pass_over(action)
        return None

    def _melee(self, mine: set):
        s = self.laptop.session
        b = s.battle
        for m in s.ruleset.melees(b):
            if any(piece_commands(b, a) & mine for a in m.attackers):
                if (phase_key(b), m.defender) in self._skipped:
                    continue
                defender = b.units.get(m.defender) or b.leaders.get(m.defender)
                joiners = self._commander(defender.side).joiners(m) if defender else ()
                return replace(ResolveMelee(m.defender), joiners=tuple(joiners))
        return None

    def pass_over(self, action) -> None:
        """The commander is not to propose this piece again this phase."""
        commander = self._commander(self.laptop.session.battle.state.active)
        done = getattr(commander, "done", None)
        if done is None:
            return
        for pid in actors(self.laptop.session.battle, self.laptop.session.ruleset, action):
            done.add(pid)
            done.add(("L", pid))

    def refused_now(self, action) -> None:
        """The host refused it: never propose it again this phase."""
        self.refused += 1
        key = phase_key(self.laptop.session.battle)
        for name in ("arrival", "command", "defender"):
            if hasattr(action, name):
                self._skipped.add((key, getattr(action, name)))
        self.pass_over(action)

    def acted(self) -> None:
        self._acted = phase_key(self.laptop.session.battle)


async def play_auto(laptop, *, stop=None, on_action=None) -> None:
    """Play this laptop's commands until the battle ends (or `stop` is set)."""
    pilot = SectorPilot(laptop)
    said_done = None
    joins = laptop.joins
    while True:
        if stop is not None and stop.is_set():
            return
        if laptop.state == "closed" or laptop.state == "refused":
            return
        seen = laptop.version
        if laptop.state != "joined" or not laptop.caught_up:
            await laptop.changed(seen)
            continue
        if laptop.joins != joins:                # a new host (restarted) forgot our "done"
            joins, said_done = laptop.joins, None
        battle = laptop.session.battle
        if battle.state.over:
            return
        action = pilot.propose()
        if action is None:
            key = phase_key(battle)
            if said_done != key:
                try:
                    await laptop.done()
                    said_done = key
                except ConnectionLost:
                    pass
            await laptop.changed(seen)
            continue
        try:
            if action.verb not in ("BringOnArrival", "FollowPlan", "StartBattle"):
                pilot.acted()
            await laptop.act(action)
            if on_action is not None:
                on_action(action)
        except ConnectionLost:
            continue
        except ActionRefused as exc:
            log.info("%s: %s refused: %s", laptop.name, action.verb, exc)
            if laptop.session is not None:
                pilot.refused_now(action)
        except asyncio.TimeoutError:
            log.warning("%s: no answer to %s; looking again", laptop.name, action.verb)
