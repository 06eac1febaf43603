"""The host: one Session (the one door) served to laptops over WebSockets (asyncio, no Qt).

Laptops send actions stamped with the log index they saw; the host checks each at the
head of its log (what the laptop may act for, then the rules), rolls the software dice
(or uses the table dice typed with the action), and the session's bus does the rest:
the battle file records the entry, then every laptop is sent it. Whatever executes on
the host's session (its own umpire, the phase ends it makes) reaches the laptops the
same way. Outgoing messages are written with websockets' synchronous `broadcast`, in
the order the log grew, so a laptop never sees entry n+1 before entry n.

Make the battle file (create_battle / open_battle) before the Host: the bus calls its
subscribers in order, so each entry is committed to the file before it is sent, and no
laptop can hold an entry a crashed host's file lacks.
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import time

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

from ..dice import QueueSource
from ..errors import BerthierError, IllegalAction
from ..scenario_io import battle_to_dict
from . import address as addr
from . import players_http
from .protocol import MAX_MESSAGE, PAGE, ProtocolError, RateLimit, decode, entry_digest, message
from .seats import Seat, Seats
from .sectors import phase_key, refuse_unclaimed, stale_reason

log = logging.getLogger("berthier.net")

HELLO_TIMEOUT = 10.0
MAX_STRIKES = 10              # malformed messages before a connection is closed
MAX_WRONG_CODES = 5           # per address per minute
FLOOD_REFUSALS = 10           # x burst: refused for speed within the window, then closed
CLOSE_TIMEOUT = 1.0           # a half-open laptop (lid closed) must not hold up Ctrl+C
MAX_CONNECTIONS = 64          # a club table has a handful of laptops; more is a flood


class Host(Seats):
    def __init__(self, session, *, code: str | None = None, view_token: str | None = None,
                 bind: str | None = None, port: int = 0, public: bool = False,
                 approve_undo: bool | None = None, rate: float = 20.0, burst: float = 40.0,
                 unheld: str = "wait"):
        if unheld not in ("wait", "pass"):
            raise ValueError(f"unheld must be 'wait' or 'pass', not {unheld!r}")
        self.session = session
        self.unheld = unheld            # a side no laptop holds: wait for one, or pass its phases
        self._told_unheld = None
        self.code = code or addr.new_code()
        self.view_token = view_token or addr.new_token()
        self.bind, self.port, self.public = bind, port, public
        self.approve_undo_policy = approve_undo
        self.rate, self.burst = rate, burst
        self.seats: dict[str, Seat] = {}
        self.claims: dict[str, str] = {}           # command id -> seat id
        self._done: set[str] = set()
        self._done_key = None
        self._undo_asks: dict[int, tuple[Seat, int, int]] = {}
        self._undo_seq = 0
        self._wrong: dict[str, list[float]] = {}
        self._listeners: list = []
        self._servers = []
        self._unsubscribe = None
        self.shown_host = "127.0.0.1"
        self.refusals = 0
        self._last_acting = None
        self._open = 0                                # connections, joined or not

    # ---- life --------------------------------------------------------------------------
    async def start(self) -> None:
        hosts, self.shown_host = addr.choose_bind(self.bind, self.public)
        port = self.port
        for h in hosts:
            try:
                server = await serve(self._connection, h, port, max_size=MAX_MESSAGE,
                                     process_request=self._http, ping_interval=10,
                                     ping_timeout=30, close_timeout=CLOSE_TIMEOUT,
                                     server_header="Berthier")
            except OSError:
                if not self._servers:
                    raise
                continue                  # loopback beside the LAN address is a convenience
            self._servers.append(server)
            port = server.sockets[0].getsockname()[1]
        self.port = port
        self._unsubscribe = self.session.bus.subscribe(self._on_log)

    async def stop(self) -> None:
        """Close the server; laptops are told, and keep trying to rejoin (a restart on the
        same battle file and port takes them back)."""
        self._send_all("notice", text="the host has stopped; this laptop will rejoin when "
                                      "it is hosted again")
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        for s in self._servers:
            s.close()
        for s in self._servers:
            await s.wait_closed()
        self._servers = []

    @property
    def address(self) -> str:
        return addr.join_address(self.shown_host, self.port)

    @property
    def players_url(self) -> str:
        return f"http://{self.address}/?view={self.view_token}"

    def _http(self, connection, request):
        return players_http.respond(connection, request, self)

    # ---- events for an app or a test: callback(kind, **details) --------------------------
    def add_listener(self, callback) -> None:
        self._listeners.append(callback)

    def _emit(self, kind: str, **details) -> None:
        for cb in list(self._listeners):
            cb(kind, **details)

    # ---- sending ----------------------------------------------------------------------
    def _connections(self):
        return [s.ws for s in self.seats.values() if s.ws is not None]

    def _send(self, seat: Seat, kind: str, **fields) -> None:
        if seat.ws is not None:
            broadcast([seat.ws], message(kind, **fields))

    def _send_all(self, kind: str, **fields) -> None:
        broadcast(self._connections(), message(kind, **fields))

    def _on_log(self, kind: str, entry) -> None:
        if kind in ("executed", "redone"):
            self._send_all("entry", entry=entry.to_dict())
        elif kind == "undone":
            self._done.clear()
            self._send_all("undo", head=len(self.session.entries))
        self._send_acting()

    # ---- the umpire at the host ----------------------------------------------------------
    def execute(self, action, source=None) -> list:
        """The host's own umpire acts: through the same door, sent to every laptop."""
        return self.session.execute(action, source)

    def answer_undo(self, ask: int, approve: bool, reason: str = "") -> None:
        seat, ident, to = self._undo_asks.pop(ask)
        if approve:
            self._undo_to(seat, ident, to)
        else:
            self._send(seat, "undo_result", id=ident, ok=False,
                       reason=reason or "the host's umpire refused")

    def _undo_to(self, seat: Seat, ident: int, to: int) -> None:
        if to > len(self.session.entries):
            self._send(seat, "undo_result", id=ident, ok=False,
                       reason=f"the log has only {len(self.session.entries)} entries")
            return
        self.session.undo_to(to)
        self._send(seat, "undo_result", id=ident, ok=True, reason="")

    # ---- one laptop's connection -----------------------------------------------------------
    async def _connection(self, ws) -> None:
        peer = ws.remote_address[0] if ws.remote_address else "?"
        if not self.public and not addr.is_local(peer):
            log.warning("refused %s: not on the local network", peer)
            await ws.close(1008, "this host serves its local network only")
            return
        self._open += 1
        try:
            if self._open > MAX_CONNECTIONS:
                log.warning("refused %s: %d connections open already", peer, MAX_CONNECTIONS)
                await ws.close(1013, "too many connections")
                return
            await self._joined(ws, peer)
        finally:
            self._open -= 1

    async def _joined(self, ws, peer: str) -> None:
        seat = await self._hello(ws, peer)
        if seat is None:
            return
        try:
            async for raw in ws:
                self._receive(seat, raw, peer)
                if seat.strikes >= MAX_STRIKES:
                    await ws.close(1008, "too many malformed messages")
                    break
                if seat.limit.flooding(FLOOD_REFUSALS * self.burst):
                    log.warning("closed %s (%s): it kept flooding", seat.name, peer)
                    await ws.close(1008, "too many messages")
                    break
        except ConnectionClosed:
            pass
        finally:
            if seat.ws is ws:
                seat.ws = None
                log.info("%s left", seat.name)
                self._emit("left", laptop=seat.name)
                self._send_acting()

    async def _refuse_hello(self, ws, reason: str, peer: str) -> None:
        log.warning("refused a laptop from %s: %s", peer, reason)
        self._emit("refused", laptop=peer, reason=reason)
        try:
            await ws.send(message("error", reason=reason, fatal=True))
            await ws.close(1008, reason[:120])
        except ConnectionClosed:
            pass

    async def _hello(self, ws, peer: str) -> Seat | None:
        try:
            hello = decode(await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT))
        except (ProtocolError, TimeoutError, asyncio.TimeoutError) as exc:
            await self._refuse_hello(ws, f"a laptop first says hello: {str(exc) or 'timed out'}", peer)
            return None
        except ConnectionClosed:
            return None
        if hello["type"] != "hello":
            await self._refuse_hello(ws, f"a laptop first says hello, not {hello['type']}", peer)
            return None
        now = time.monotonic()
        recent = [t for t in self._wrong.get(peer, []) if now - t < 60]
        self._wrong[peer] = recent
        if len(recent) >= MAX_WRONG_CODES:
            await self._refuse_hello(ws, "too many wrong codes from this address; wait a minute",
                                     peer)
            return None
        if not hmac.compare_digest(hello["code"].strip().upper().encode(), self.code.encode()):
            recent.append(now)
            await self._refuse_hello(ws, "wrong join code", peer)
            return None
        lid, wanted = hello["laptop"], set(hello["commands"])
        why = self._claim_problem(lid, wanted)
        if why:
            await self._refuse_hello(ws, why, peer)
            return None
        seat = self.seats.get(lid) or Seat(lid, hello.get("name") or lid)
        old = seat.ws
        self._take(seat, wanted)
        seat.limit, seat.strikes, seat.peer = RateLimit(self.rate, self.burst), 0, peer
        if old is not None and old is not ws:
            asyncio.ensure_future(old.close(1000, "the same laptop joined again"))
        # the catch-up is written in one go, before this laptop can miss an entry
        seat.ws = ws
        self._welcome(seat, hello)
        self._send(seat, "acting", **self.acting())
        log.info("%s joined from %s with %s", seat.name, peer, ", ".join(sorted(seat.commands)))
        self._emit("joined", laptop=seat.name, commands=sorted(seat.commands))
        self._send_acting()
        return seat

    def _welcome(self, seat: Seat, hello: dict) -> None:
        s = self.session
        head, have = len(s.entries), hello.get("have", 0)
        resume = 0 < have <= head and entry_digest(s.entries[have - 1].to_dict()) == hello.get("tip")
        start = have if resume else 0
        b = s.battle
        welcome = {"laptop": seat.id, "name": seat.name, "commands": sorted(seat.commands),
                   "head": head, "start": start, "seed": b.info.seed}
        if not resume:
            welcome["scenario"] = battle_to_dict(s.initial_battle())
        self._send(seat, "welcome", **welcome)
        for i in range(start, head, PAGE):
            self._send(seat, "entries",
                       entries=[e.to_dict() for e in s.entries[i:i + PAGE]])

    # ---- one message from a joined laptop -----------------------------------------------------
    def _receive(self, seat: Seat, raw, peer: str) -> None:
        allowed = seat.limit.allow()
        try:
            msg = decode(raw)
        except ProtocolError as exc:
            self._malformed(seat, peer, str(exc))
            return
        if not allowed:              # read (it is small) only to answer its id; never run
            reason = f"rate limit: at most {self.rate:g} messages a second; not executed"
            if seat.limit.run == 1:  # once a run, not once a message: a flood fills no disk
                log.warning("rate limit: messages from %s (%s) refused for speed", seat.name,
                            peer)
                self._emit("refused", laptop=seat.name, reason=reason)
            if "id" in msg:
                self._send(seat, "refused", id=msg["id"], reason=reason,
                           head=len(self.session.entries), retry=round(1 / self.rate, 3))
            else:
                self._send(seat, "error", reason=reason, fatal=False, about=msg["type"],
                           retry=round(1 / self.rate, 3))
            return
        kind = msg["type"]
        if kind == "act":
            self._act(seat, msg)
        elif kind == "done":
            if (msg["turn"], msg["side"], msg["phase"]) == phase_key(self.session.battle):
                self._fresh_phase()
                self._done.add(seat.id)
                self._maybe_end_phase()
        elif kind == "undo":
            self._ask_undo(seat, msg)
        elif kind == "claim":
            self._claim(seat, msg)
        elif kind == "release":
            self._release(seat, msg)
        elif kind == "hello":           # a protocol error: one hello per connection
            self._malformed(seat, peer, "hello: this connection has already joined; a "
                                        "laptop says hello once, then reconnects to join again")
        elif kind == "leave":
            self._leave(seat)

    def _malformed(self, seat: Seat, peer: str, reason: str) -> None:
        """Refused with the reason, logged, counted towards closing the connection."""
        seat.strikes += 1
        log.warning("malformed message from %s (%s): %s", seat.name, peer, reason)
        self._emit("malformed", laptop=seat.name, reason=reason)
        self._send(seat, "error", reason=reason, fatal=False)

    def _act(self, seat: Seat, msg: dict) -> None:
        s, action, at, ident = self.session, msg["action"], msg["index"], msg["id"]
        head = len(s.entries)

        def refuse(reason: str) -> None:
            self.refusals += 1
            log.info("refused %s from %s (%s): %s", action.verb, seat.name, seat.peer, reason)
            self._emit("refused", laptop=seat.name, reason=reason)
            self._send(seat, "refused", id=ident, reason=reason, head=head)

        if at > head:
            refuse(f"your log is at entry {at} but the host's is at {head}; re-syncing")
            return
        try:
            refuse_unclaimed(s.battle, s.ruleset, action, seat.commands)
            source = None
            if "dice" in msg:
                source = QueueSource(msg["dice"])
                self._dry_run(action, list(msg["dice"]))
            s.execute(action, source)
        except BerthierError as exc:
            stale = stale_reason(s.battle, s.entries[at:head], action) if at < head else ""
            refuse(f"{stale}: {exc}" if stale else str(exc))
            return
        except Exception as exc:           # a hostile field deep in a resolver: refused, logged
            log.warning("%s from %s (%s) could not be judged: %r", action.verb, seat.name,
                        seat.peer, exc)
            refuse(f"{action.verb} could not be judged ({type(exc).__name__}); nothing was done")
            return
        self._send(seat, "result", id=ident, index=len(s.entries) - 1)

    def _dry_run(self, action, faces: list[int]) -> None:
        """Typed dice must be exactly the dice the action rolls: tried on a copy first."""
        s = self.session
        probe = type(s).__new__(type(s))
        probe.battle, probe.ruleset, probe.entries = s.battle.copy(), s.ruleset, []
        feed = QueueSource(faces)
        probe.check(action)
        probe._apply(action, feed)
        if feed.pending:
            raise IllegalAction(f"{len(feed.pending)} typed dice were not rolled by "
                                f"{action.verb}; nothing was done")

    def _ask_undo(self, seat: Seat, msg: dict) -> None:
        ident, to = msg["id"], msg["to"]
        policy = self.approve_undo_policy
        if policy is None and any(True for _ in self._listeners):
            self._undo_seq += 1
            self._undo_asks[self._undo_seq] = (seat, ident, to)
            self._emit("undo_asked", ask=self._undo_seq, laptop=seat.name, to=to,
                       why=msg.get("why", ""))
        elif policy:
            self._undo_to(seat, ident, to)
        else:
            log.info("refused an undo from %s (%s): no umpire takes moves back", seat.name,
                     seat.peer)
            self._send(seat, "undo_result", id=ident, ok=False,
                       reason="this host does not take moves back (start it with "
                              "--approve-undo, or ask its umpire)")
