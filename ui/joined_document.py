"""A battle followed from a host: the laptop's folded Session, whose one door is the host's.

The window draws and checks against the laptop's own copy (folded from the host's log,
never rolled here), so a refusal the rules or the sectors would make is said at once,
before anything travels. An order that passes is sent to the host stamped with this
laptop's head; the host's entry comes back through the fold and redraws the window, or
its refusal comes back with the reason. Undo is the host's: nothing is undone here.
"""
from __future__ import annotations

import asyncio

from manager.errors import BerthierError, IllegalAction
from manager.net.laptop import ActionRefused
from manager.net.sectors import piece_commands, refuse_unclaimed

from .document import Document
from .wording import action_text


class JoinedDocument(Document):
    remote = True

    def __init__(self, laptop, host_label: str):
        super().__init__(laptop.session.battle, session=laptop.session)
        self.laptop = laptop
        self.host_label = host_label
        self.sent: list[str] = []              # orders in flight, by their words
        self.last_refusal = ""
        self._unsubscribe = laptop.session.bus.subscribe(self._folded)

    def _adopt_history(self) -> None:
        """No undo steps here: the log is the host's, and undo is the host's to make."""

    # ---- what the window says about the link ----------------------------------------------
    @property
    def title(self) -> str:
        state = {"joined": "connected", "closed": "left"}.get(self.laptop.state,
                                                              self.laptop.state)
        return f"joined to {self.host_label} ({state})"

    @property
    def claimed(self) -> set[str]:
        return set(self.laptop.commands)

    def mine(self, pid: str) -> bool:
        return bool(piece_commands(self.battle, pid) & self.claimed)

    def close_record(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _folded(self, kind, entry) -> None:
        """The host's entry has been folded here (or an undo the host made)."""
        self.model_changed()

    # ---- the door: checked here, executed at the host -------------------------------------
    def run(self, action, text: str | None = None) -> None:
        if self.preview is not None:
            raise IllegalAction("you are looking at the past: go back to now to give orders")
        if action.category == "edit":
            raise IllegalAction("edits are the host's: ask its umpire to correct the table")
        if self.laptop.state != "joined":
            raise IllegalAction(f"not connected to the host ({self.laptop.state}); the order "
                                f"was not sent")
        s = self.session
        if action.verb == "EndPhase":                  # a laptop says it is done instead
            self._spawn(self._done())
            return
        refuse_unclaimed(s.battle, s.ruleset, action, self.claimed)
        s.check(action)
        dice = self._typed_dice(action) if self.manual_dice and self.ask_faces else None
        words = text or action_text(s.battle, action)
        self.sent.append(words)
        self.message.emit(f"Sent to the host: {words}")
        self._spawn(self._send(action, dice, words))

    def _typed_dice(self, action) -> list[int]:
        """The table's faces, asked here where the order is made, to travel with it."""
        return self.laptop.table_dice(action, self.ask_faces)

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks = getattr(self, "_tasks", set())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, action, dice, words: str) -> None:
        try:
            await self.laptop.act(action, dice=dice)
            if words in self.sent:
                self.sent.remove(words)
            self.model_changed()
        except ActionRefused as exc:
            self._refused_by_host(words, str(exc))
        except (BerthierError, asyncio.TimeoutError) as exc:
            self._refused_by_host(words, str(exc) or "no answer from the host")

    async def _done(self) -> None:
        try:
            await self.laptop.done()
            self.message.emit("Told the host this laptop is done with the phase")
        except BerthierError as exc:
            self.refused.emit(str(exc))

    def undo_to(self, count: int) -> None:
        """Undo is the host's: ask its umpire to take the log back to `count` entries."""
        self.go_to_present()
        if count >= len(self.session.entries):
            return
        self.message.emit(f"Asked the host to undo back to entry {count}")
        self._spawn(self._ask_undo(count))

    async def _ask_undo(self, count: int) -> None:
        try:
            ok, reason = await self.laptop.ask_undo(count, why=f"asked by {self.laptop.name}")
        except (BerthierError, asyncio.TimeoutError) as exc:
            ok, reason = False, str(exc) or "no answer from the host"
        if ok:
            self.message.emit(f"The host took the log back to entry {count}")
        else:
            self.last_refusal = f"undo to entry {count}: {reason}"
            self.refused.emit(f"the host did not undo: {reason}")

    def _refused_by_host(self, words: str, reason: str) -> None:
        if words in self.sent:
            self.sent.remove(words)
        self.last_refusal = f"{words}: {reason}"
        self.refused.emit(f"the host refused {words}: {reason}")
        self.model_changed()             # the map snaps back to the host's state
