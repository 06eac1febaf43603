"""The host, black box: `berthier host` as a subprocess, raw JSON over websockets, each promise
of docs/network.md and issue 18 checked from the outside. This file: the command line, the
join code, the players' page and where the host listens.

Maida (quick-play) is the battle: French Compère and Digonet, British Kempt and Cole.
A failure here where the host disagrees with the doc is a finding (xfail, strict, with
the reason). The host fixtures are in conftest.py, the client in net_blackbox.py.
"""
from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import uuid
from pathlib import Path

import pytest

from net_blackbox import head_of, join, JoinError, MAIDA, Peer, run, saved_entries, START


# ---- the command line -----------------------------------------------------------------
def test_first_three_lines_and_a_free_port(host_factory):
    h = host_factory()
    assert re.fullmatch(r"address \S+:\d+", h.lines[0]), h.lines
    assert re.fullmatch(r"code [A-HJ-NP-Z2-9]{6}", h.lines[1]), h.lines     # no 0/O/1/I
    assert re.fullmatch(r"players http://\S+:\d+/\?view=\S+", h.lines[2]), h.lines
    assert h.port not in (0, 8765)
    assert h.players.startswith(f"http://{h.address}/")
    second = host_factory()                   # port 0 again: another free port
    assert second.port != h.port
    with socket.create_connection((h.ip, h.port), timeout=5):
        pass                                  # it really listens there


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_it_cleanly_and_frees_the_file(host_factory, tmp_path, sig):
    from manager.errors import BerthierError
    from manager.store import open_battle
    path = tmp_path / "signal.berthier"
    h = host_factory(MAIDA, "--save", path)

    async def play():
        a = await join(h.address, h.code, ["compere"])
        assert (await a.act(START, 0, 1))["type"] == "result"
        await a.close()
    run(play())
    with pytest.raises(BerthierError):        # locked while it records
        open_battle(path)
    assert h.signal(sig) == 0
    h.wait_log(lambda line: "stopped" in line)
    battle = open_battle(path)                # unlocked, openable, the entry kept
    try:
        assert [e.action.verb for e in battle.session.entries] == ["StartBattle"]
    finally:
        battle.close()


def test_sigterm_stops_it_within_two_seconds_though_a_laptop_is_left_half_open(host_factory,
                                                                             tmp_path):
    """A joined laptop that never answers again (lid closed): a raw socket that said hello
    and then reads nothing, so the host's close handshake gets no reply."""
    import base64
    import os
    import time
    h = host_factory(MAIDA, "--save", tmp_path / "half.berthier")
    hostname, port = h.address.rsplit(":", 1)
    sock = socket.create_connection((hostname, int(port)), timeout=10)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(f"GET /play HTTP/1.1\r\nHost: {h.address}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                     f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        hello = json.dumps({"v": 1, "type": "hello", "code": h.code, "laptop": "lid",
                            "commands": ["compere"]}).encode()
        mask = os.urandom(4)
        assert len(hello) < 126
        sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask
                     + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
        h.wait_log(lambda line: "joined" in line)
        started = time.monotonic()
        assert h.signal(signal.SIGTERM) == 0
        took = time.monotonic() - started
    finally:
        sock.close()
    assert took < 3.0, f"SIGTERM took {took:.1f} s"


# ---- the join code ----------------------------------------------------------------------
@pytest.mark.parametrize("code", ["WRONG2", None, "", 123], ids=["wrong", "missing", "empty", "number"])
def test_the_join_code_is_required(quiet_host, code):
    h = quiet_host

    async def go():
        peer = await Peer.open(h.address, "nocode")
        hello = {"v": 1, "type": "hello", "laptop": uuid.uuid4().hex, "name": "nocode",
                 "commands": ["compere"]}
        if code is not None:
            hello["code"] = code
        await peer.send(hello)
        err = await peer.expect(lambda m: m.get("type") in ("error", "welcome"))
        assert err["type"] == "error" and err["reason"], err
        # never joined: acting as this laptop is not possible
        try:
            await peer.send({"v": 1, "type": "act", "id": 1, "index": 0, "action": START})
        except Exception:
            pass
        if code == "WRONG2":
            assert err.get("fatal") is True and "code" in err["reason"].lower(), err
            assert await peer.closed() == 1008
        else:
            await peer.close()
        assert all(m.get("type") not in ("welcome", "result", "entry") for m in peer.inbox)
        assert await head_of(h.address, h.code) == 0
    run(go())
    assert saved_entries(quiet_host.path) == []


def test_an_act_before_hello_is_not_executed(quiet_host):
    h = quiet_host

    async def go():
        head = await head_of(h.address, h.code)
        peer = await Peer.open(h.address, "no-hello")
        await peer.send({"v": 1, "type": "act", "id": 1, "index": head, "action": START})
        answer = await peer.expect(lambda m: m.get("type") in ("error", "refused", "result"))
        assert answer["type"] != "result" and answer["reason"], answer
        assert await head_of(h.address, h.code) == head
    run(go())


def test_five_wrong_codes_shut_the_address_out(host_factory):
    h = host_factory()

    async def go():
        for _ in range(5):
            with pytest.raises(JoinError):
                await join(h.address, "WRONG2")
        with pytest.raises(JoinError) as refused:       # the right code, too late
            await join(h.address, h.code)
        assert refused.value.msg.get("fatal") is True
    run(go())


# ---- the players' page and where the host listens ----------------------------------------
def _get(address, target, headers=None):
    host, port = address.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        conn.request("GET", target, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.getheader("Content-Type") or "", r.getheader("Set-Cookie"), r.read()
    finally:
        conn.close()


def test_the_players_page_and_its_token(quiet_host):
    h = quiet_host
    target = h.players.split(h.address, 1)[1]
    token = target.split("view=", 1)[1]
    status, ctype, cookie, body = _get(h.address, target)
    assert status == 200 and ctype.startswith("text/html"), (status, ctype)
    assert b"<html" in body.lower()
    status, ctype, _, body = _get(h.address, f"/state.json?view={token}")
    assert status == 200 and "json" in ctype
    assert isinstance(json.loads(body), dict)
    assert _get(h.address, "/state.json")[0] in (401, 403)
    assert _get(h.address, "/state.json?view=wrong")[0] == 403
    assert _get(h.address, "/")[0] in (401, 403)
    assert cookie, "the page sets its token as a cookie"
    status, *_ = _get(h.address, "/state.json", {"Cookie": cookie.split(";", 1)[0]})
    assert status == 200
    assert _get(h.address, f"/nothing?view={token}")[0] == 404


def _listening(port) -> set[str]:
    """Local addresses listening on this TCP port (Linux /proc)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            hexaddr, hexport = local.split(":")
            if int(hexport, 16) == port and state == "0A":
                found.add(hexaddr)
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc/net/tcp (Linux)")
def test_it_listens_on_every_interface_only_with_public(quiet_host, host_factory):
    every = {"00000000", "0" * 32}
    mine = _listening(quiet_host.port)
    assert mine and not (mine & every), mine
    assert quiet_host.ip != "0.0.0.0"
    public = host_factory(None, "--public")
    assert _listening(public.port) & every
