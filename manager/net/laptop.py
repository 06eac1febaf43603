"""A laptop joined to a host: folds the host's log into its own Session, never rolls.

It receives the scenario and the log, folds each entry with the dice recorded in it
(`Session.fold`: same state, same dice), follows every entry as it happens, and sends
actions stamped with its head index. When the connection drops it reconnects with
backoff and says where it was (entry count and a digest of its last entry): the host
sends what it missed, or the whole log when the two no longer agree (the host
restarted without an entry, an undo while away). Asyncio only, no Qt: the app runs it
through qasync and binds its listeners to the UI.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import socket

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..errors import BerthierError
from ..scenario_io import battle_from_dict
from ..session import LogEntry, Session
from . import address as addr
from .players_http import PLAY_PATH
from .protocol import MAX_FROM_HOST, ProtocolError, RateLimit, entry_digest, message, parse
from .sectors import phase_key

log = logging.getLogger("berthier.net")


class JoinRefused(BerthierError):
    """The host would not let this laptop in (wrong code, a command claimed elsewhere)."""


class ActionRefused(BerthierError):
    """The host refused an action; the message is the reason, for the umpire."""


class RateLimited(ActionRefused):
    """Sent faster than the host reads: nothing was done; `act` waits and sends again."""


class ConnectionLost(ActionRefused):
    """The connection dropped before the host answered: the action may be lost."""


class Laptop:
    def __init__(self, address: str, code: str, commands, *, name: str = "",
                 laptop_id: str | None = None, backoff: tuple[float, float] = (0.2, 5.0),
                 reconnect: bool = True, rate: float = 20.0, burst: float = 40.0,
                 session: Session | None = None):
        """`session`: the battle as this laptop last had it (a saved copy), to resume from."""
        self.host, self.port = addr.split_address(address)
        self.uri = f"ws://{addr.join_address(self.host, self.port)}{PLAY_PATH}"
        self.code, self.commands = code, sorted(set(commands))
        self.laptop_id = laptop_id or secrets.token_hex(8)
        self.name = name or f"{socket.gethostname()} {self.laptop_id[:4]}"
        self.backoff, self.reconnect = backoff, reconnect
        self.session: Session | None = session
        self.state = "disconnected"       # connecting, joined, reconnecting, refused, closed
        self.acting_info: dict = {}
        self.joins = 0                    # how many times this laptop has (re)joined
        self.version = 0                  # bumped on every change a pilot should look at
        self._changed = asyncio.Event()
        self._listeners: list = []
        self._ws = None
        self._task: asyncio.Task | None = None
        self._joined = asyncio.Event()
        self._refusal: str | None = None
        self._pending: dict[int, asyncio.Future] = {}
        self._seq = 0
        self._target_head = 0
        self._done_sent = None
        self._pace = RateLimit(rate, burst)

    # ---- listeners: callback(kind, **details) ---------------------------------------------
    def add_listener(self, callback) -> None:
        self._listeners.append(callback)

    def _emit(self, kind: str, **details) -> None:
        for cb in list(self._listeners):
            try:
                cb(kind, **details)
            except Exception:                      # a listener's bug must not drop the link
                log.exception("a laptop listener failed on %s", kind)

    def _set_state(self, state: str, detail: str = "") -> None:
        if state != self.state:
            self.state = state
            self._emit("state", state=state, detail=detail)
            self._bump()

    def _bump(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    # ---- life ------------------------------------------------------------------------------
    async def start(self, timeout: float = 15.0) -> None:
        """Connect and catch up; JoinRefused with the host's reason if it will not have us."""
        self._task = asyncio.ensure_future(self._run())
        done = asyncio.ensure_future(self._joined.wait())
        await asyncio.wait([done, self._task], timeout=timeout,
                           return_when=asyncio.FIRST_COMPLETED)
        done.cancel()
        if self._refusal:
            raise JoinRefused(self._refusal)
        if not self._joined.is_set():
            await self.close()
            raise JoinRefused(f"no answer from {self.host}:{self.port} in {timeout:g} s")
        await self.wait_until(lambda: self.caught_up, timeout)

    async def close(self, leave: bool = False) -> None:
        if leave and self._ws is not None:
            try:
                await self._ws.send(message("leave"))
            except ConnectionClosed:
                pass
        self.reconnect = False
        self._set_state("closed")
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    @property
    def head(self) -> int:
        return len(self.session.entries) if self.session else 0

    @property
    def caught_up(self) -> bool:
        return self.state == "joined" and self.session is not None and \
            self.head >= self._target_head

    async def _run(self) -> None:
        delay = self.backoff[0]
        while True:
            self._set_state("connecting" if self.joins == 0 else "reconnecting")
            try:
                async with connect(self.uri, max_size=MAX_FROM_HOST, open_timeout=5,
                                   ping_interval=10, ping_timeout=30) as ws:
                    self._ws = ws
                    await ws.send(self._hello())
                    async for raw in ws:
                        self._receive(raw)
                        if self.state == "joined":
                            delay = self.backoff[0]
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, TimeoutError,
                    asyncio.TimeoutError) as exc:
                if not self._refusal:
                    log.info("%s: connection to %s lost: %s", self.name, self.uri, exc)
            finally:
                self._ws = None
                self._lost()
            if self._refusal or not self.reconnect:
                if self.state != "refused":
                    self._set_state("closed")
                return
            self._set_state("reconnecting", f"next try in {delay:.1f} s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff[1])

    def _hello(self) -> str:
        have = self.head
        tip = entry_digest(self.session.entries[-1].to_dict()) if have else ""
        return message("hello", code=self.code, laptop=self.laptop_id, name=self.name,
                       commands=self.commands, have=have, tip=tip)

    def _lost(self) -> None:
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionLost("the connection dropped before the host "
                                                 "answered; the order may not have arrived"))
        self._pending.clear()

    # ---- what the host sends ------------------------------------------------------------------
    def _receive(self, raw) -> None:
        try:
            msg = parse(raw, MAX_FROM_HOST)
            getattr(self, f"_on_{msg['type']}", self._on_unknown)(msg)
        except (ProtocolError, BerthierError, KeyError, TypeError, ValueError) as exc:
            # out of step with the host: start again from the whole log on the next join
            log.warning("%s: cannot follow the host (%s); re-syncing", self.name, exc)
            self._emit("error", reason=f"re-syncing: {exc}")
            self.session = None
            if self._ws is not None:
                asyncio.ensure_future(self._ws.close(1002, "re-sync"))

    def _on_unknown(self, msg) -> None:
        log.info("%s: ignored a %r message", self.name, msg["type"])

    def _on_welcome(self, msg) -> None:
        if "scenario" in msg or self.session is None:
            battle = battle_from_dict(msg["scenario"], "<host's scenario>")
            self.session = Session(battle)
            self._emit("reset", session=self.session)
        elif msg["start"] < self.head:
            self.session.undo_to(msg["start"])
        self.commands = list(msg["commands"])
        self._target_head = int(msg["head"])
        self.joins += 1
        self._joined.set()
        self._set_state("joined", f"{self.host}:{self.port}")

    def _on_entries(self, msg) -> None:
        for d in msg["entries"]:
            self._fold(d)

    def _on_entry(self, msg) -> None:
        self._fold(msg["entry"])

    def _fold(self, d: dict) -> None:
        if int(d["index"]) < self.head:
            return                                   # already folded (a repeated page)
        entry = self.session.fold(LogEntry.from_dict(d))
        self._emit("entry", entry=entry)
        self._bump()

    def _on_result(self, msg) -> None:
        fut = self._pending.pop(msg["id"], None)
        if fut is not None and not fut.done():
            fut.set_result(msg["index"])

    def _on_refused(self, msg) -> None:
        fut = self._pending.pop(msg["id"], None)
        if "retry" in msg:                         # too fast: the host read nothing
            exc = RateLimited(msg["reason"])
            exc.retry = min(float(msg["retry"]), 5.0)
        else:
            exc = ActionRefused(msg["reason"])
            self._emit("refused", reason=msg["reason"])
        if fut is not None and not fut.done():
            fut.set_exception(exc)
        self._bump()

    def _on_undo(self, msg) -> None:
        self.session.undo_to(int(msg["head"]))
        self._emit("undo", head=self.head)
        self._bump()

    def _on_undo_result(self, msg) -> None:
        fut = self._pending.pop(msg["id"], None)
        if fut is not None and not fut.done():
            fut.set_result((bool(msg["ok"]), msg.get("reason", "")))

    def _on_acting(self, msg) -> None:
        self.acting_info = {k: v for k, v in msg.items() if k not in ("v", "type")}
        self._emit("acting", **self.acting_info)
        self._bump()

    def _on_claimed(self, msg) -> None:
        self.commands = list(msg["commands"])
        fut = self._pending.pop(msg.get("id"), None)
        if fut is not None and not fut.done():
            fut.set_result(self.commands)
        self._emit("claimed", commands=self.commands)
        self._bump()

    def _on_notice(self, msg) -> None:
        self._emit("notice", text=str(msg.get("text", "")))
        self._bump()

    def _on_error(self, msg) -> None:
        reason = str(msg.get("reason", ""))
        if msg.get("about") == "done" and "retry" in msg:    # too fast: say it again
            asyncio.get_running_loop().call_later(min(float(msg["retry"]), 5.0),
                                                  lambda: asyncio.ensure_future(self._resend_done()))
            return
        if msg.get("fatal"):
            self._refusal = reason
            self._set_state("refused", reason)
        self._emit("error", reason=reason)
        self._bump()

    # ---- what this laptop sends -------------------------------------------------------------
    async def _request(self, kind: str, **fields):
        if self._ws is None or self.state != "joined":
            raise ConnectionLost(f"not connected to the host (state: {self.state})")
        self._seq += 1
        fut = asyncio.get_running_loop().create_future()
        self._pending[self._seq] = fut
        ident = self._seq
        try:
            await self._send(message(kind, id=ident, **fields))
        except ConnectionLost:
            self._pending.pop(ident, None)
            raise
        return await fut

    async def act(self, action, dice=None, timeout: float = 30.0) -> int:
        """Send an action made against this laptop's head; its log index once executed.
        ActionRefused carries the host's reason (the laptop is re-synced by then)."""
        fields = {"action": action.to_dict()}
        if dice is not None:
            fields["dice"] = [int(f) for f in dice]
        for _ in range(50):
            try:
                return await asyncio.wait_for(self._request("act", index=self.head, **fields),
                                              timeout)
            except RateLimited as exc:
                await asyncio.sleep(exc.retry)
        raise ActionRefused("the host kept refusing: too many messages")

    async def claim(self, commands, timeout: float = 10.0) -> list[str]:
        """Claim more commands; this laptop's commands after. ActionRefused with the host's
        reason (unknown, or held by a connected laptop: named)."""
        return await self._asked("claim", timeout, commands=sorted(set(commands)))

    async def release(self, commands, timeout: float = 10.0) -> list[str]:
        """Give commands up (the phase no longer waits on this laptop for them)."""
        return await self._asked("release", timeout, commands=sorted(set(commands)))

    async def _asked(self, kind: str, timeout: float, **fields):
        for _ in range(50):
            try:
                return await asyncio.wait_for(self._request(kind, **fields), timeout)
            except RateLimited as exc:
                await asyncio.sleep(exc.retry)
        raise ActionRefused("the host kept refusing: too many messages")

    def table_dice(self, action, ask) -> list[int]:
        """The faces of the table dice this action will roll, asked of the umpire where it
        is made: `ask(request)` as for a ManualSource (purpose, count, sides), tried on a
        copy of this laptop's battle. Send them with `act(action, dice=...)`; the host
        tries them again at its head and refuses dice that no longer fit."""
        from ..dice import ManualSource
        s = self.session
        probe = Session.__new__(Session)
        probe.battle, probe.ruleset, probe.entries = s.battle.copy(), s.ruleset, []
        probe.check(action)
        entry = probe._apply(action, ManualSource(ask))
        return [f for roll in entry.rolls for f in roll.faces]

    async def done(self) -> None:
        """This laptop has finished the current phase (the host ends it when all have)."""
        if self._ws is None or self.session is None:
            raise ConnectionLost(f"not connected to the host (state: {self.state})")
        turn, side, phase = phase_key(self.session.battle)
        self._done_sent = (turn, side, phase)
        await self._send(message("done", turn=turn, side=side, phase=phase))

    async def _resend_done(self) -> None:
        if self.session is not None and self._done_sent == phase_key(self.session.battle):
            try:
                await self.done()
            except ConnectionLost:
                pass

    async def _send(self, text: str) -> None:
        """Send at most the host's default rate (it refuses faster laptops)."""
        while not self._pace.allow():
            await asyncio.sleep(1 / self._pace.rate)
        if self._ws is None:
            raise ConnectionLost(f"not connected to the host (state: {self.state})")
        try:
            await self._ws.send(text)
        except ConnectionClosed:
            raise ConnectionLost("the connection dropped while sending") from None

    async def ask_undo(self, to: int, why: str = "", timeout: float = 300.0) -> tuple[bool, str]:
        """Ask the host to take the log back to its first `to` entries: (approved, reason)."""
        return await asyncio.wait_for(self._request("undo", to=int(to), why=why[:200]), timeout)

    async def send_raw(self, text) -> None:
        """For tests of the host's defences: send exactly these bytes or text."""
        await self._ws.send(text)

    # ---- waiting and saving --------------------------------------------------------------------
    async def wait_until(self, predicate, timeout: float = 30.0) -> None:
        async def watch():
            while not predicate():
                await self._changed.wait()
        await asyncio.wait_for(watch(), timeout)

    async def changed(self, since: int, timeout: float | None = None) -> None:
        """Wait until something has changed after version `since`."""
        await asyncio.wait_for(self.wait_until(lambda: self.version > since, 10 ** 9), timeout)

    def save_copy(self, path, replace: bool = False) -> None:
        """Write the battle as this laptop has it (scenario, log, dice) to a new file."""
        if self.session is None:
            raise BerthierError("nothing to save yet: the host has not sent the battle")
        from ..store import create_battle
        create_battle(path, self.session, replace=replace, hosted_by=self.uri).close()
