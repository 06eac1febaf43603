"""The host's seats: each laptop's claim on commands, and who is still acting in a phase.

A seat outlives its connection: a laptop that drops keeps its commands, and the phase
waits for it, until it comes back or another laptop claims them (a laptop restarted
after a crash has a new id). A phase ends when every laptop still acting in it has said
"done"; the host then fights the melees left and ends it itself.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..errors import BerthierError
from ..game_actions import EndPhase, ResolveMelee
from .protocol import RateLimit
from .sectors import acting_laptops, phase_key, unheld_side

log = logging.getLogger("berthier.net")


@dataclass
class Seat:
    """A laptop as the host knows it: survives its connection dropping."""
    id: str
    name: str
    commands: set = field(default_factory=set)
    ws: object = None
    limit: RateLimit | None = None
    strikes: int = 0
    peer: str = ""                      # its address, for the log

    @property
    def connected(self) -> bool:
        return self.ws is not None


class Seats:
    """Mixed into Host: needs `session`, `seats`, `claims`, `unheld`, `_done`, `_done_key`,
    `_last_acting`, `_send_all` and `_emit`."""

    # ---- who is still acting ----------------------------------------------------------
    def acting(self) -> dict:
        b = self.session.battle
        self._fresh_phase()
        waiting = acting_laptops(b, self.claims)
        st = b.state
        side = self._waits_for_side()
        return {"turn": st.turn, "side": st.active, "phase": st.phase, "over": st.over,
                "unheld": b.sides[side].name if side else "",
                "waiting": sorted(self.seats[s].name for s in waiting - self._done),
                "done": sorted(self.seats[s].name for s in self._done if s in self.seats),
                "laptops": [{"name": s.name, "commands": sorted(s.commands),
                             "connected": s.connected} for s in self.seats.values()]}

    def _waits_for_side(self) -> str:
        """The side to move when its phase waits for a laptop to claim it, else ""."""
        return unheld_side(self.session.battle, self.claims) if self.unheld == "wait" else ""

    def _send_acting(self) -> None:
        """Tell everyone who is still acting, when that has changed."""
        info = self.acting()
        if info != self._last_acting:
            self._last_acting = info
            self._send_all("acting", **info)
            self._emit("acting", **info)

    def _fresh_phase(self) -> None:
        key = phase_key(self.session.battle)
        if key != self._done_key:
            self._done_key, self._done = key, set()

    def end_phase(self) -> bool:
        """End the phase now: the host's own call, or when every acting laptop is done.
        Melees left are fought first (the rules make them compulsory)."""
        s = self.session
        try:
            fights = "ResolveMelee" in s.ruleset.phase(s.battle.state.phase).actions
            for _ in range(200 if fights else 0):
                left = s.ruleset.melees(s.battle)
                if not left:
                    break
                s.execute(ResolveMelee(left[0].defender))
            s.execute(EndPhase())
            return True
        except BerthierError as exc:
            self._done.clear()
            self._send_all("notice", text=f"the phase cannot end yet: {exc}")
            log.warning("the phase could not end: %s", exc)
            return False

    def _maybe_end_phase(self) -> None:
        b = self.session.battle
        if b.state.over or not b.state.started:
            return
        self._fresh_phase()
        if self._done and not (acting_laptops(b, self.claims) - self._done):
            side = self._waits_for_side()
            if side:
                # nobody holds the side to move: a laptop of the other side saying "done"
                # must not run through its phases (a late laptop would find its turn gone)
                if self._told_unheld != self._done_key:
                    self._told_unheld = self._done_key
                    log.info("turn %s, %s phase of %s: waiting for a laptop to claim one of "
                             "its commands", b.state.turn, b.state.phase, b.sides[side].name)
                self._send_acting()
                return
            self.end_phase()
        else:
            self._send_acting()

    def _claim_problem(self, lid: str, wanted: set) -> str:
        b = self.session.battle
        unknown = sorted(c for c in wanted if c not in b.commands)
        if unknown:
            return (f"no command {', '.join(unknown)} in this battle; its commands are "
                    f"{', '.join(sorted(b.commands))}")
        for cid in sorted(wanted):
            other = self.claims.get(cid)
            if other and other != lid and self.seats[other].connected:
                return (f"{b.commands[cid].name} ({cid}) is already claimed by "
                        f"{self.seats[other].name}")
        return ""

    def _take(self, seat: Seat, wanted: set) -> None:
        """Give a seat these commands (a dropped laptop's claim passes to whoever asks)."""
        for cid in wanted:
            other = self.claims.get(cid)
            if other and other != seat.id:
                self.seats[other].commands.discard(cid)
            self.claims[cid] = seat.id
        seat.commands |= wanted
        self.seats[seat.id] = seat

    # ---- a laptop's claim messages (the host's _receive passes them here) ----------------
    def _claim(self, seat: Seat, msg: dict) -> None:
        why = self._claim_problem(seat.id, set(msg["commands"]))
        if why:
            self._answer_claim(seat, msg, why)
        else:
            self._take(seat, set(msg["commands"]))
            self._answer_claim(seat, msg, "")
            self._send_acting()

    def _release(self, seat: Seat, msg: dict) -> None:
        for cid in msg["commands"]:
            if self.claims.get(cid) == seat.id:
                del self.claims[cid]
                seat.commands.discard(cid)
        self._answer_claim(seat, msg, "")
        self._maybe_end_phase()

    def _leave(self, seat: Seat) -> None:
        for cid in list(seat.commands):
            self.claims.pop(cid, None)
        seat.commands.clear()
        self._maybe_end_phase()

    def _answer_claim(self, seat: Seat, msg: dict, why: str) -> None:
        ident = {"id": msg["id"]} if "id" in msg else {}
        if why:
            log.info("refused a claim from %s (%s): %s", seat.name, seat.peer, why)
            if ident:
                self._send(seat, "refused", reason=why, head=len(self.session.entries), **ident)
            else:
                self._send(seat, "error", reason=why, fatal=False)
        else:
            self._send(seat, "claimed", commands=sorted(seat.commands), **ident)
