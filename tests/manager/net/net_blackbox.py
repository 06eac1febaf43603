"""Black-box tools for the host: `berthier host` as a subprocess, raw JSON over websockets.

Written from docs/network.md and issue 18 only (no import of the host, laptop or protocol
modules), so the tests check what the doc promises, not what the code happens to do.
Every wait is bounded: a message, a line or an exit, never a sleep to pass.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import websockets
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[3]
MAIDA = ROOT / "scenarios" / "maida.toml"
WAIT = 5.0            # seconds for any one message, line or exit


class HostProc:
    """`berthier host FILE --port N ...`; its stdout and stderr read by threads."""

    def __init__(self, file, *args, port: int | str = 0):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        # --no-announce: no zeroconf on the test machine's network
        self.cmd = [sys.executable, "-m", "manager.cli", "host", str(file), "--port", str(port),
                    "--no-announce", *map(str, args)]
        self.p = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, cwd=ROOT, env=env)
        self.out: queue.Queue = queue.Queue()
        self.err: list[str] = []
        self._err_lock = threading.Condition()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.lines = [self.stdout_line() for _ in range(3)]
        self.address = self.lines[0].split(" ", 1)[1]
        self.code = self.lines[1].split(" ", 1)[1]
        self.players = self.lines[2].split(" ", 1)[1]
        self.ip, port_text = self.address.rsplit(":", 1)
        self.port = int(port_text)

    def _read_out(self):
        for line in self.p.stdout:
            self.out.put(line.rstrip("\n"))
        self.out.put(None)

    def _read_err(self):
        for line in self.p.stderr:
            with self._err_lock:
                self.err.append(line.rstrip("\n"))
                self._err_lock.notify_all()

    def stdout_line(self) -> str:
        try:
            line = self.out.get(timeout=15)
        except queue.Empty:
            self.kill()
            raise AssertionError(f"no line from {self.cmd} in 15 s; stderr: {self.err}")
        if line is None:
            raise AssertionError(f"host exited early ({self.p.wait(WAIT)}); stderr: {self.err}")
        return line

    def wait_log(self, predicate, timeout=WAIT) -> str:
        """The first stderr line matching, waiting for it (bounded)."""
        end = time.monotonic() + timeout
        with self._err_lock:
            while True:
                for line in self.err:
                    if predicate(line):
                        return line
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such line on the host's stderr: {self.err[-20:]}")
                self._err_lock.wait(left)

    def signal(self, sig) -> int:
        self.p.send_signal(sig)
        return self.p.wait(timeout=10)

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(timeout=10)

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


OPEN: list["Peer"] = []          # the connections of the coroutine running now


def run(coro, timeout=25.0):
    """Run one test's coroutine, bounded as a whole; every connection it left open is
    closed properly at the end (a half-dead socket would make the host wait for it)."""
    async def bounded():
        try:
            return await asyncio.wait_for(coro, timeout)
        finally:
            await asyncio.gather(*(p.close() for p in OPEN), return_exceptions=True)
            OPEN.clear()
    return asyncio.run(bounded())


def digest(entry: dict, canonical: bool = True) -> str:
    """The doc's `tip`: sha256 of the canonical JSON of {index, action, rolls}, 20 hex.
    Canonical: sorted keys, no whitespace (as RFC 8785 and most readers take it);
    `canonical=False`: Python's json.dumps(sort_keys=True) with its default separators."""
    core = {"index": entry["index"], "action": entry["action"], "rolls": entry["rolls"]}
    text = json.dumps(core, sort_keys=True, separators=(",", ":") if canonical else None)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


class Peer:
    """One raw connection to the host: every message it receives is kept in order."""

    def __init__(self, ws, name):
        self.ws, self.name = ws, name
        self.inbox: list[dict] = []
        self.seen = 0                   # messages already matched by expect()
        self.entries: dict[int, dict] = {}
        self.duplicates: list[int] = []
        self.welcome: dict | None = None
        self.close_code: int | None = None
        OPEN.append(self)

    @classmethod
    async def open(cls, address, name="peer"):
        ws = await asyncio.wait_for(websockets.connect(f"ws://{address}/play", max_size=2 ** 24,
                                                       open_timeout=WAIT), WAIT)
        return cls(ws, name)

    async def send(self, message) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def _recv(self, timeout) -> dict:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(raw)
        self.inbox.append(msg)
        if msg.get("type") == "entries":
            for e in msg["entries"]:
                self._entry(e)
        elif msg.get("type") == "entry":
            self._entry(msg["entry"])
        return msg

    def _entry(self, e):
        if e["index"] in self.entries:
            self.duplicates.append(e["index"])
        self.entries[e["index"]] = e

    async def expect(self, match, timeout=WAIT) -> dict:
        """The next message (after those already matched) for which match(msg) holds;
        `match` may be a type name."""
        pred = (lambda m: m.get("type") == match) if isinstance(match, str) else match
        end = time.monotonic() + timeout
        while True:
            for i in range(self.seen, len(self.inbox)):
                if pred(self.inbox[i]):
                    self.seen = i + 1
                    return self.inbox[i]
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no message matching in {timeout} s; got "
                                     f"{[_short(m) for m in self.inbox[self.seen:]]}")
            try:
                await self._recv(left)
            except asyncio.TimeoutError:
                pass

    async def until(self, condition, timeout=WAIT) -> None:
        """Read messages until condition() holds (on what has been received)."""
        end = time.monotonic() + timeout
        while not condition():
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: condition not reached in {timeout} s; "
                                     f"entries {sorted(self.entries)}")
            try:
                await self._recv(left)
            except asyncio.TimeoutError:
                pass

    async def closed(self, timeout=WAIT) -> int | None:
        """Read until the host closes the connection; the close code."""
        end = time.monotonic() + timeout
        try:
            while True:
                await self._recv(max(0.01, end - time.monotonic()))
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd else None
            return self.close_code
        except asyncio.TimeoutError:
            raise AssertionError(f"{self.name}: the host did not close the connection") from None

    async def act(self, action: dict, index: int, rid: int, **extra) -> dict:
        """Send one `act` and return its `result` or `refused`."""
        await self.send({"v": 1, "type": "act", "id": rid, "index": index, "action": action,
                         **extra})
        return await self.expect(lambda m: m.get("type") in ("result", "refused")
                                 and m.get("id") == rid)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(), WAIT)
        except Exception:                                   # already gone
            pass

    @property
    def head(self) -> int:
        return max(self.entries) + 1 if self.entries else 0


def _short(m):
    return {k: m[k] for k in list(m)[:6] if k != "scenario"}


async def join(address, code, commands=(), name=None, laptop=None, have=None, tip=None) -> Peer:
    """hello; waits for the welcome, every entry up to its head and the first `acting`."""
    name = name or f"lap-{uuid.uuid4().hex[:6]}"
    peer = await Peer.open(address, name)
    hello = {"v": 1, "type": "hello", "code": code, "laptop": laptop or uuid.uuid4().hex,
             "name": name, "commands": list(commands)}
    if have is not None:
        hello["have"] = have
    if tip is not None:
        hello["tip"] = tip
    await peer.send(hello)
    first = await peer.expect(lambda m: m.get("type") in ("welcome", "error"))
    if first["type"] == "error":
        raise JoinError(first, peer)
    peer.welcome = first
    await peer.expect("acting")
    assert set(range(first["start"], first["head"])) <= set(peer.entries), \
        f"{name}: welcome head {first['head']} but entries {sorted(peer.entries)}"
    return peer


class JoinError(Exception):
    def __init__(self, msg, peer):
        super().__init__(msg.get("reason"))
        self.msg, self.peer = msg, peer


async def head_of(address, code) -> int:
    """The host's log length, as a fresh laptop is told it."""
    peer = await join(address, code, (), name="counter")
    try:
        return peer.welcome["head"]
    finally:
        await peer.send({"v": 1, "type": "leave"})
        await peer.close()


# ---- the messages the black-box tests send, and the saved log ----------------------------
START = {"action": "StartBattle"}
FRENCH_FIRST = {"action": "ChooseInitiative", "first": "french"}


def move(unit, x, y, facing=180):
    return {"action": "MoveUnit", "unit": unit, "to": [x, y], "facing": facing,
            "formation": ""}


def saved_entries(path) -> list[dict]:
    """The log in the battle file, read without writing to it (works while recording)."""
    from manager.store.battle_file import load_battle
    session, _ = load_battle(path)
    return [e.to_dict() for e in session.entries]
