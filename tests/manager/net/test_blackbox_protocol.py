"""The host, black box: `berthier host` as a subprocess, raw JSON over websockets, each
promise of docs/network.md and issue 18 checked from the outside.

Maida (quick-play) is the battle: French Compère and Digonet, British Kempt and Cole.
A failure here where the host disagrees with the doc is a finding (xfail, strict, with
the reason), listed in notes/issue-18-blackbox.md.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import re
import signal
import socket
import uuid
from pathlib import Path

import pytest

from net_blackbox import MAIDA, HostProc, JoinError, Peer, digest, head_of, join, run

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


@pytest.fixture
def host_factory(tmp_path):
    hosts = []

    def make(file=None, *args, port=0):
        if file is None:
            file = MAIDA
            args = ("--save", tmp_path / f"b{len(hosts)}.berthier", *args)
        h = HostProc(file, *args, port=port)
        hosts.append(h)
        return h
    yield make
    for h in hosts:
        h.stop()


@pytest.fixture(scope="module")
def quiet_host(tmp_path_factory):
    """A host nobody starts the battle on: any executed message would show as entry 0."""
    path = tmp_path_factory.mktemp("quiet") / "quiet.berthier"
    h = HostProc(MAIDA, "--save", path)
    h.path = path
    yield h
    h.stop()


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


# ---- malformed and hostile messages -------------------------------------------------

NEST = "[" * 40 + "1" + "]" * 40
HOSTILE = {
    "not json": "{not json",
    "json array": "[1, 2, 3]",
    "json string": '"act"',
    "json null": "null",
    "wrong v": {"v": 2, "type": "act", "id": 1, "index": 0, "action": START},
    "v as text": {"v": "1", "type": "act", "id": 1, "index": 0, "action": START},
    "no v": {"type": "act", "id": 1, "index": 0, "action": START},
    "unknown type": {"v": 1, "type": "shutdown"},
    "type not text": {"v": 1, "type": ["act"], "id": 1, "index": 0, "action": START},
    "act without index": {"v": 1, "type": "act", "id": 1, "action": START},
    "act extra field": {"v": 1, "type": "act", "id": 1, "index": 0, "action": START, "sudo": True},
    "act id as text": {"v": 1, "type": "act", "id": "1", "index": 0, "action": START},
    "act index float": {"v": 1, "type": "act", "id": 1, "index": 0.5, "action": START},
    "act index negative": {"v": 1, "type": "act", "id": 1, "index": -1, "action": START},
    "act index bool": {"v": 1, "type": "act", "id": 1, "index": False, "action": START},
    "act index beyond 2^53": {"v": 1, "type": "act", "id": 1, "index": 2 ** 60, "action": START},
    "action as text": {"v": 1, "type": "act", "id": 1, "index": 0, "action": "StartBattle"},
    "action not in registry": {"v": 1, "type": "act", "id": 1, "index": 0,
                               "action": {"action": "Exec", "code": "import os"}},
    "action named __reduce__": {"v": 1, "type": "act", "id": 1, "index": 0,
                                "action": {"action": "__reduce__"}},
    "action field __class__": {"v": 1, "type": "act", "id": 1, "index": 0,
                               "action": {"action": "StartBattle", "__class__": "os.system"}},
    "action field object": {"v": 1, "type": "act", "id": 1, "index": 0,
                            "action": {"action": "ChooseInitiative",
                                       "first": {"__reduce__": ["os.system", ["true"]]}}},
    "action editing the scenario": {"v": 1, "type": "act", "id": 1, "index": 0,
                                    "action": {"action": "RemoveUnit", "unit": "gb-81"}},
    "deep nesting": '{"v": 1, "type": "act", "id": 1, "index": 0, "action": '
                    '{"action": "ChooseInitiative", "first": "french", "steps": ' + NEST + "}}",
    "huge number": '{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": '
                   '"MoveUnit", "unit": "fr-42", "to": [21, 11], "facing": ' + "9" * 5000 + "}}",
    "NaN": '{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "MoveUnit", '
           '"unit": "fr-42", "to": [NaN, 11], "facing": 180}}',
    "Infinity": '{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "MoveUnit", '
                '"unit": "fr-42", "to": [21, -Infinity], "facing": 180}}',
    "long text": {"v": 1, "type": "act", "id": 1, "index": 0,
                  "action": {"action": "ChooseInitiative", "first": "f" * 5000}},
    "long list": {"v": 1, "type": "claim", "commands": ["compere"] * 500},
    "dice out of range": {"v": 1, "type": "act", "id": 1, "index": 0, "action": START,
                          "dice": [0, 101]},
    "dice as text": {"v": 1, "type": "act", "id": 1, "index": 0, "action": START,
                     "dice": ["6", "6"]},
    "undo to as text": {"v": 1, "type": "undo", "id": 1, "to": "0"},
    "done missing fields": {"v": 1, "type": "done"},
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_a_hostile_message_is_refused_logged_and_never_executed(quiet_host, case):
    h = quiet_host
    name = "mal-" + re.sub(r"\W+", "-", case)
    payload = HOSTILE[case]

    before = saved_entries(h.path)

    async def go():
        head = await head_of(h.address, h.code)
        witness = await join(h.address, h.code, (), name="witness")
        peer = await join(h.address, h.code, (), name=name)
        await peer.send(payload if isinstance(payload, str) else json.dumps(payload))
        answer = await peer.expect(lambda m: m.get("type") in ("error", "refused", "result",
                                                                "welcome", "claimed"))
        assert answer["type"] in ("error", "refused"), answer
        assert isinstance(answer.get("reason"), str) and answer["reason"].strip(), answer
        # the connection stays open and the host goes on serving this laptop and others
        await peer.send({"v": 1, "type": "claim", "commands": []})
        await peer.expect("claimed")
        await witness.send({"v": 1, "type": "claim", "commands": []})
        await witness.expect("claimed")
        assert not any(m.get("type") in ("entry", "entries") for m in witness.inbox + peer.inbox)
        assert await head_of(h.address, h.code) == head
        await peer.close()
        await witness.close()
    run(go())
    h.wait_log(lambda line: name in line and "joined" not in line and "left" not in line)
    assert saved_entries(h.path) == before


LONG = "x" * 5000
LONG_TEXTS = {
    "hello name": {"v": 1, "type": "hello", "code": "ABCDEF", "laptop": "l", "name": LONG,
                   "commands": []},
    "action unit": {"v": 1, "type": "act", "id": 1, "index": 0,
                    "action": {"action": "MoveUnit", "unit": LONG, "to": [1, 1], "facing": 0}},
    "action first": {"v": 1, "type": "act", "id": 1, "index": 0,
                     "action": {"action": "ChooseInitiative", "first": LONG}},
    "undo why": {"v": 1, "type": "undo", "id": 1, "to": 0, "why": LONG},
}


@pytest.mark.parametrize("case", list(LONG_TEXTS), ids=list(LONG_TEXTS))
def test_a_text_over_200_characters_is_refused_as_such(quiet_host, case):
    """The doc: 'texts at most 200 characters' -- refused by the limit, before the rules."""
    h = quiet_host

    async def go():
        if case == "hello name":
            peer = await Peer.open(h.address, "long")
            await peer.send({**LONG_TEXTS[case], "code": h.code})
        else:
            peer = await join(h.address, h.code, (), name="long-" + case.replace(" ", "-"))
            await peer.send(LONG_TEXTS[case])
        answer = await peer.expect(lambda m: m.get("type") in ("error", "refused", "welcome",
                                                                "undo_result"))
        assert answer["type"] in ("error", "refused") or answer.get("ok") is False, answer
        reason = answer.get("reason", "")
        assert "200" in reason or "long" in reason.lower(), answer
    run(go())


def test_every_refusal_is_logged_with_the_laptops_name_and_address(quiet_host):
    h = quiet_host

    async def go():
        peer = await join(h.address, h.code, (), name="no-sector")
        got = await peer.act(move("fr-42", 21, 11), 0, 1)        # not its command
        assert got["type"] == "refused"
    run(go())
    line = h.wait_log(lambda line: "no-sector" in line and "joined" not in line
                      and "left" not in line)
    assert h.ip in line or "127.0.0.1" in line, line


def test_ten_malformed_messages_close_the_connection(quiet_host):
    h = quiet_host

    async def go():
        peer = await join(h.address, h.code, (), name="ten-bad")
        for i in range(9):
            await peer.send("{bad json %d" % i)
        for i in range(9):
            await peer.expect("error")
        await peer.send({"v": 1, "type": "claim", "commands": []})
        await peer.expect("claimed")                   # nine: still open
        await peer.send("{bad json 10")
        assert await peer.closed() == 1008
        assert await head_of(h.address, h.code) == 0   # and the host serves others
    run(go())


def test_an_oversize_message_closes_with_1009_and_is_not_read(quiet_host):
    h = quiet_host
    big = json.dumps({"v": 1, "type": "act", "id": 1, "index": 0, "action": START,
                      "pad": "x" * (70 * 1024)})

    async def go():
        peer = await join(h.address, h.code, (), name="big")
        await peer.send(big)
        assert await peer.closed() == 1009
        assert await head_of(h.address, h.code) == 0
    run(go())
    assert saved_entries(h.path) == []


def test_a_flood_is_refused_beyond_the_rate_and_the_host_serves_others(host_factory):
    h = host_factory()

    async def go():
        other = await join(h.address, h.code, ["kempt"], name="calm")
        flood = await join(h.address, h.code, ["compere"], name="flood")
        for _ in range(120):                     # well past a burst of 40 (4 s to refill)
            await flood.send({"v": 1, "type": "claim", "commands": []})
        await flood.send({"v": 1, "type": "act", "id": 7, "index": 0, "action": START})
        answer = await flood.expect(lambda m: m.get("id") == 7, timeout=10)
        assert answer["type"] == "refused" and answer.get("retry"), answer
        limited = [m for m in flood.inbox if m.get("type") == "error" and m.get("retry")]
        assert limited, "no message was refused for speed"
        # the calm laptop acts meanwhile, and its action is the first entry
        got = await other.act(START, 0, 1)
        assert got["type"] == "result" and got["index"] == 0, got
        assert await head_of(h.address, h.code) == 1
        assert all(m.get("id") != 7 or m["type"] != "result" for m in flood.inbox)
    run(go())


def test_a_flood_is_logged(host_factory):
    h = host_factory()

    async def go():
        flood = await join(h.address, h.code, (), name="flood")
        for _ in range(60):
            await flood.send({"v": 1, "type": "claim", "commands": []})
        await flood.expect(lambda m: m.get("retry"))
    run(go())
    h.wait_log(lambda line: "flood" in line and ("rate" in line or "limit" in line
                                                 or "fast" in line), timeout=3)


def test_bind_to_a_public_address_is_refused(host_factory):
    with pytest.raises(AssertionError, match="exited early"):
        host_factory(None, "--bind", "8.8.8.8")


# ---- a game on Maida: sectors, phases, concurrency ------------------------------------

async def _three_sectors(h):
    """A holds Compère, B Digonet (both French), C both British; the battle started and
    the French chose to go first (entries 0 and 1)."""
    a = await join(h.address, h.code, ["compere"], name="sector-A")
    b = await join(h.address, h.code, ["digonet"], name="sector-B")
    c = await join(h.address, h.code, ["kempt", "cole"], name="sector-C")
    assert (await a.act(START, 0, 1))["type"] == "result"
    got = await a.act(FRENCH_FIRST, 1, 2)
    assert got == {"v": 1, "type": "result", "id": 2, "index": 1}, got
    return a, b, c


async def _end_initiative(h, a, b, c):
    for p in (a, b):
        await p.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
    for p in (a, b, c):
        await p.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act"
                       and m["side"] == "french")
    assert a.head == 3 and a.entries[2]["action"] == {"action": "EndPhase"}


def test_a_phase_ends_only_when_every_laptop_still_acting_is_done(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        acting = await c.expect(lambda m: m.get("type") == "acting" and "sector-A" in m["done"])
        assert acting["waiting"] == ["sector-B"], acting        # who is still acting
        assert "sector-C" not in acting["waiting"]               # British: not their phase
        await c.send({"v": 1, "type": "claim", "commands": []})  # a round trip later:
        await c.expect("claimed")
        assert c.head == 2                                       # the phase has not ended
        await b.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        for p in (a, b, c):
            await p.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act")
        assert c.head == 3 and c.entries[2]["action"]["action"] == "EndPhase"
        assert not any(p.duplicates for p in (a, b, c))
    run(go())


def test_sectors_an_action_for_an_unclaimed_command_is_refused_with_the_reason(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        await _end_initiative(h, a, b, c)
        got = await a.act(move("fr-swiss", 34, 10), 3, 3)       # Digonet's battalion
        assert got["type"] == "refused", got
        assert "Swiss battalion" in got["reason"] and "Digonet" in got["reason"], got
        # claiming a command another connected laptop holds: refused with the reason
        with pytest.raises(JoinError) as refused:
            await join(h.address, h.code, ["digonet"], name="usurper")
        assert refused.value.msg.get("fatal") is True
        assert "digonet" in refused.value.msg["reason"].lower()
        assert await refused.value.peer.closed() == 1008
        await c.send({"v": 1, "type": "claim", "commands": ["compere"]})
        answer = await c.expect(lambda m: m.get("type") in ("claimed", "error"))
        assert "compere" not in answer.get("commands", []), answer
        assert await head_of(h.address, h.code) == 3
    run(go())


def test_concurrency_the_log_index_rule(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        await _end_initiative(h, a, b, c)
        # two laptops move different units at once, both made against entry 3
        ra, rb = await asyncio.gather(a.act(move("fr-1leger", 14, 12), 3, 10),
                                      b.act(move("fr-23leger", 28, 11), 3, 11))
        assert ra["type"] == rb["type"] == "result", (ra, rb)
        assert {ra["index"], rb["index"]} == {3, 4}
        # made against an old index, still legal at the head: accepted
        late = await a.act(move("fr-42", 21, 11), 3, 12)
        assert late["type"] == "result" and late["index"] == 5, late
        # made against an old index and no longer legal: refused with a human reason
        stale = await a.act(move("fr-1leger", 14, 13), 3, 13)
        assert stale["type"] == "refused", stale
        assert "before your order arrived" in stale["reason"], stale
        assert "1er Léger" in stale["reason"] and "already acted" in stale["reason"], stale
        assert stale["head"] == 6
        # the entries that changed things were sent before the refusal; each entry before
        # its result
        order = [(m["type"], m.get("id"), m.get("entry", {}).get("index")) for m in a.inbox
                 if m.get("type") in ("entry", "result", "refused")]
        assert order.index(("entry", None, 5)) < order.index(("refused", 13, None)), order
        for rid, index in ((10, ra["index"]), (12, 5)):
            assert order.index(("entry", None, index)) < order.index(("result", rid, None))
        # an index beyond the host's head: refused
        ahead = await b.act(move("fr-swiss", 34, 10), 99, 14)
        assert ahead["type"] == "refused", ahead
        for p in (a, b, c):
            await p.until(lambda: p.head == 6)
            assert sorted(p.entries) == list(range(6)) and not p.duplicates
    run(go())


def test_a_dropped_laptop_keeps_its_claims_and_the_phase_waits_for_it(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        b.ws.transport.abort()
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        acting = await c.expect(lambda m: m.get("type") == "acting" and "sector-A" in m["done"]
                                and any(not lap["connected"] for lap in m["laptops"]))
        assert acting["waiting"] == ["sector-B"], acting
        await c.send({"v": 1, "type": "claim", "commands": []})
        await c.expect("claimed")
        assert c.head == 2
        # another laptop claiming a dropped laptop's command takes it over
        heir = await join(h.address, h.code, ["digonet"], name="heir")
        assert heir.welcome["commands"] == ["digonet"]
    run(go())


def test_typed_table_dice_travel_with_the_action(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        await _end_initiative(h, a, b, c)
        bad = await a.act(move("fr-1leger", 14, 12), 3, 20, dice=[7, 2])     # a D6 shows 7?
        assert bad["type"] == "refused" and bad["reason"], bad
        few = await a.act(move("fr-1leger", 14, 12), 3, 21, dice=[3])        # 2D6, one die
        assert few["type"] == "refused" and few["reason"], few
        assert await head_of(h.address, h.code) == 3
        good = await a.act(move("fr-1leger", 14, 12), 3, 22, dice=[3, 4])
        assert good["type"] == "result", good
        await a.until(lambda: a.head == 4)
        rolls = a.entries[3]["rolls"]
        assert [r["faces"] for r in rolls] == [[3, 4]] and rolls[0]["source"] != "seeded", rolls
    run(go())


def test_claim_release_and_leave_by_message(host_factory):
    h = host_factory()

    async def go():
        a = await join(h.address, h.code, (), name="late-A")     # may join with none
        assert a.welcome["commands"] == [] and "scenario" in a.welcome   # a fresh start
        b = await join(h.address, h.code, ["kempt"], name="holder-B")
        await a.send({"v": 1, "type": "claim", "id": 1, "commands": ["compere", "digonet"]})
        got = await a.expect(lambda m: m.get("id") == 1)
        assert got["type"] == "claimed" and sorted(got["commands"]) == ["compere", "digonet"]
        await a.send({"v": 1, "type": "claim", "id": 2, "commands": ["kempt"]})
        got = await a.expect(lambda m: m.get("id") == 2)
        assert got["type"] == "refused" and "holder-B" in got["reason"], got
        await a.send({"v": 1, "type": "release", "id": 3, "commands": ["digonet"]})
        got = await a.expect(lambda m: m.get("id") == 3)
        assert got["type"] == "claimed" and got["commands"] == ["compere"], got
        got = await a.act(move("fr-23leger", 28, 11), 0, 4)     # Digonet's, released
        assert got["type"] == "refused"
        await b.send({"v": 1, "type": "leave"})
        heir = await join(h.address, h.code, ["kempt"], name="heir")   # B gave it up
        assert heir.welcome["commands"] == ["kempt"]
    run(go())


def test_a_side_no_laptop_holds_waits_for_a_laptop_to_claim_it(host_factory):
    """By default a late laptop does not find its side's turn gone: the other side's
    "done" does not run through the phases of a side nobody holds."""
    h = host_factory()

    async def go():
        a = await join(h.address, h.code, ["compere", "digonet"], name="all-French")
        await a.act(START, 0, 1)
        await a.act({"action": "ChooseInitiative", "first": "british"}, 1, 2)
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        acting = await a.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act")
        assert acting["side"] == "british" and acting["unheld"], acting
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "british", "phase": "act"})
        acting = await a.expect(lambda m: m.get("type") == "acting" and m["done"])
        assert (acting["side"], acting["phase"]) == ("british", "act"), acting
        assert a.head == 3                          # StartBattle, ChooseInitiative, EndPhase
        late = await join(h.address, h.code, ["kempt", "cole"], name="British, late")
        assert late.welcome["commands"] == ["cole", "kempt"]
        await late.send({"v": 1, "type": "done", "turn": 1, "side": "british", "phase": "act"})
        acting = await a.expect(lambda m: m.get("type") == "acting"
                                and m["side"] == "french" and m["phase"] == "act")
        assert acting["waiting"] == ["all-French"] and not acting["unheld"], acting
    run(go())


def test_a_side_no_laptop_holds_ends_its_phase_at_the_first_done_with_unheld_pass(host_factory):
    h = host_factory(None, "--unheld", "pass")

    async def go():
        a = await join(h.address, h.code, ["compere", "digonet"], name="all-French")
        await a.act(START, 0, 1)
        await a.act({"action": "ChooseInitiative", "first": "british"}, 1, 2)
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        acting = await a.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act")
        assert acting["side"] == "british", acting        # the British move first, unheld
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "british", "phase": "act"})
        acting = await a.expect(lambda m: m.get("type") == "acting"
                                and m["side"] == "french" and m["phase"] == "act")
        assert acting["waiting"] == ["all-French"], acting
        assert [a.entries[i]["action"]["action"] for i in range(a.head)] == [
            "StartBattle", "ChooseInitiative", "EndPhase", "EndPhase"]
    run(go())


# ---- reconnection, undo, a killed host ---------------------------------------------------

TIP_FORMS = [
    # the doc's canonical JSON (sorted keys, no whitespace); Python's default separators
    # (', ', ': ') are not it, and a laptop sending that tip is sent the whole log
    pytest.param(True, id="canonical-json"),
]


@pytest.mark.parametrize("canonical", TIP_FORMS)
def test_a_dropped_laptop_catches_up_from_its_index(host_factory, canonical):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        laptop_id = c.welcome["laptop"]
        await c.until(lambda: c.head == 2)
        have, kept = c.head, dict(c.entries)
        c.ws.transport.abort()                  # the lid closes: no goodbye
        await _end_initiative_without(h, a, b)
        await a.act(move("fr-1leger", 14, 12), 3, 5)
        await b.act(move("fr-23leger", 28, 11), 4, 6)
        back = await join(h.address, h.code, ["kempt", "cole"], name="sector-C",
                          laptop=laptop_id, have=have, tip=digest(kept[have - 1], canonical))
        assert back.welcome["start"] == have, back.welcome
        assert "scenario" not in back.welcome
        assert sorted(back.entries) == list(range(have, 5)) and not back.duplicates
        assert sorted(back.welcome["commands"]) == ["cole", "kempt"]
        await a.until(lambda: a.head == 5)
        for i in range(have, 5):
            assert back.entries[i] == a.entries[i]
    run(go())


async def _end_initiative_without(h, a, b):
    for p in (a, b):
        await p.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
    for p in (a, b):
        await p.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act")


def test_undo_is_the_hosts_a_headless_host_refuses_without_approve_undo(host_factory):
    h = host_factory()

    async def go():
        a, b, c = await _three_sectors(h)
        await a.send({"v": 1, "type": "undo", "id": 1, "to": 1, "why": "misclick"})
        answer = await a.expect("undo_result")
        assert answer["ok"] is False and answer["reason"], answer
        assert await head_of(h.address, h.code) == 2
        assert not any(m.get("type") == "undo" for m in a.inbox + b.inbox)
    run(go())


def test_undo_with_approve_undo_takes_the_log_back_for_everyone(host_factory):
    h = host_factory(None, "--approve-undo")

    async def go():
        a, b, c = await _three_sectors(h)
        await a.send({"v": 1, "type": "undo", "id": 1, "to": 1})
        answer = await a.expect("undo_result")
        assert answer["ok"] is True, answer
        for p in (b, c):
            assert (await p.expect("undo"))["head"] == 1
        assert await head_of(h.address, h.code) == 1
    run(go())


def test_kill_9_of_the_host_loses_at_most_the_action_in_flight(host_factory, tmp_path):
    path = tmp_path / "crash.berthier"
    h = host_factory(MAIDA, "--save", path)
    before = {}

    async def first_life():
        a = await join(h.address, h.code, ["compere", "digonet"], name="survivor")
        await a.act(START, 0, 1)
        await a.act(FRENCH_FIRST, 1, 2)
        await a.send({"v": 1, "type": "done", "turn": 1, "side": "french", "phase": "initiative"})
        await a.expect(lambda m: m.get("type") == "acting" and m["phase"] == "act")
        await a.act(move("fr-1leger", 14, 12), 3, 3)
        before.update(a.entries)
        await a.send({"v": 1, "type": "act", "id": 4, "index": 4,          # in flight
                      "action": move("fr-42", 21, 11)})
        h.kill()
    run(first_life())
    assert len(before) == 4
    again = host_factory(path, port=h.port)
    assert again.code == h.code and again.players == h.players

    async def second_life():
        a = await join(again.address, again.code, ["compere", "digonet"], name="survivor")
        assert a.welcome["head"] in (4, 5)
        for i in range(4):
            assert a.entries[i] == before[i]
        got = await a.act(move("fr-23leger", 28, 11), a.head, 5)
        assert got["type"] == "result"
    run(second_life())


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
