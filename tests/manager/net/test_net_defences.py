"""A live host under bad input: refused, logged, never executed; typed dice; undo; HTTP."""
import asyncio
import json
import urllib.error
import urllib.request

import pytest
from net_helpers import Events, austerlitz, run
from state_hash import digest
from test_net_refusals import to_move_phase

from manager.net import address
from manager.net.host import Host
from manager.net.laptop import ActionRefused, Laptop
from manager.net.protocol import MAX_MESSAGE, message
from manager.session import Session


async def joined(session, commands=("guard",), laptop_kw=None, **host_kw):
    host = Host(session, bind="127.0.0.1", **host_kw)
    await host.start()
    lap = Laptop(host.address, host.code, list(commands), backoff=(0.02, 0.1),
                 **(laptop_kw or {}))
    await lap.start()
    return host, lap


def test_malformed_messages_are_refused_logged_and_the_connection_survives(caplog):
    async def go():
        session = austerlitz()
        host, lap = await joined(session)
        host_seen, lap_seen = Events(), Events()
        host.add_listener(host_seen)
        lap.add_listener(lap_seen)
        try:
            bad = ["nonsense", b"\x00\xff", '{"v": 1, "type": "act", "id": 1, "index": 0, '
                   '"action": {"action": "os.system", "cmd": "rm -rf /"}}',
                   message("act", id=2, index=0, action={"action": "StartBattle",
                                                           "__class__": "x"})]
            for raw in bad:
                await lap.send_raw(raw)
            await lap.wait_until(lambda: len(lap_seen.of("error")) == len(bad), 10)
            await lap.act(__import__("manager.game_actions").game_actions.StartBattle())
            return session, host_seen, lap_seen, lap.state
        finally:
            await lap.close()
            await host.stop()

    session, host_seen, lap_seen, state = run(go())
    assert len(host_seen.of("malformed")) == 4
    assert [e.action.verb for e in session.entries] == ["StartBattle"]   # only the real one
    assert state == "joined"
    assert any("malformed message" in r.message for r in caplog.records)


def test_ten_malformed_messages_close_the_connection_cleanly():
    async def go():
        session = austerlitz()
        host, lap = await joined(session, laptop_kw={"reconnect": False})
        try:
            for _ in range(10):
                await lap.send_raw("{")
            await lap.wait_until(lambda: lap.state == "closed", 10)
            return session, lap
        finally:
            await lap.close()
            await host.stop()

    session, lap = run(go())
    assert session.entries == []


def test_an_oversized_message_closes_the_link_and_the_laptop_comes_back():
    async def go():
        session = austerlitz()
        host, lap = await joined(session)
        try:
            joins = lap.joins
            await lap.send_raw(message("leave", pad="x" * (MAX_MESSAGE + 10)))
            await lap.wait_until(lambda: lap.joins > joins and lap.state == "joined", 10)
            return session, host
        finally:
            await lap.close()
            await host.stop()

    session, host = run(go())
    assert session.entries == [] and host.claims["guard"]       # not executed; claim kept


def test_the_rate_limit_refuses_a_flood_and_a_polite_laptop_still_gets_its_action_in():
    from manager.game_actions import StartBattle

    async def go():
        session = austerlitz()
        host, lap = await joined(session, rate=5, burst=5,
                                 laptop_kw={"rate": 1000, "burst": 1000})
        seen = Events()
        lap.add_listener(seen)
        try:
            for _ in range(30):
                await lap.send_raw(message("claim", commands=["guard"]))
            index = await lap.act(StartBattle())       # refused for speed, sent again
            return session, seen, index, lap.state
        finally:
            await lap.close()
            await host.stop()

    session, seen, index, state = run(go())
    limited = [e for e in seen.of("error") if e["reason"].startswith("rate limit")]
    assert len(limited) >= 20
    assert index == 0 and [e.action.verb for e in session.entries] == ["StartBattle"]
    assert state == "joined"


def test_a_laptop_that_keeps_flooding_is_closed_though_tokens_refill_between():
    """100 messages a second against 20 allowed (bursts of 5): each refill used to forgive
    the flood; refusals counted over a window close it (well within a second here)."""
    from websockets.exceptions import ConnectionClosed

    async def go():
        session = austerlitz()
        host, lap = await joined(session, rate=20, burst=5, laptop_kw={"reconnect": False})
        try:
            sent = 0
            for sent in range(1, 401):            # paced like a runaway laptop, 4 s at most
                if lap.state != "joined":
                    break
                try:
                    await lap.send_raw(message("claim", commands=["guard"]))
                except (ConnectionClosed, AttributeError):     # closed under our feet
                    break
                await asyncio.sleep(0.01)
            await lap.wait_until(lambda: lap.state == "closed", 5)
            return sent, lap.state, host.claims
        finally:
            await lap.close()
            await host.stop()

    sent, state, claims = run(go())
    assert state == "closed" and sent < 400
    assert claims == {"guard": claims["guard"]}    # a flood of claims took nothing else


def first_fire(session):
    """Play the side to move until its commander wants to fire: (the Fire, dice it rolls)."""
    commander = session.ruleset.commander(session.battle, session.battle.state.active)
    for _ in range(200):
        a = commander.next_action()
        if a.verb == "Fire":
            probe = Session(session.battle.copy())
            probe.execute(a)
            return a, len([f for r in probe.entries[0].rolls for f in r.faces])
        session.execute(a)
    raise AssertionError("no Fire in the first move phase")


def test_typed_table_dice_travel_with_the_action_and_must_all_be_rolled():
    async def go():
        session = austerlitz()
        to_move_phase(session)
        fire, n = first_fire(session)
        cid = session.battle.hierarchy.command_of(fire.unit)
        host, lap = await joined(session, [cid])
        try:
            head = len(session.entries)
            with pytest.raises(ActionRefused, match="1 typed dice were not rolled"):
                await lap.act(fire, dice=[6] * (n + 1))
            with pytest.raises(ActionRefused, match="only 0 were entered|needs"):
                await lap.act(fire, dice=[])
            assert len(session.entries) == head
            asked = []
            faces = lap.table_dice(fire, lambda req: asked.append(req) or [5] * req.count)
            assert len(faces) == n and all(r.purpose for r in asked)
            index = await lap.act(fire, dice=faces)
            await lap.wait_until(lambda: lap.head == index + 1, 10)
            return session, lap, index, n
        finally:
            await lap.close()
            await host.stop()

    session, lap, index, n = run(go())
    rolls = session.entries[index].rolls
    assert [f for r in rolls for f in r.faces] == [5] * n
    assert {r.source for r in rolls} == {"manual"}
    assert lap.session.entries[index].rolls == rolls
    assert digest(lap.session) == digest(session)


@pytest.mark.parametrize("policy", [True, False, None])
def test_undo_is_the_hosts_to_approve(policy):
    from manager.game_actions import EndPhase, StartBattle

    async def go():
        session = austerlitz()
        host, lap = await joined(session, approve_undo=policy)
        asked = Events()
        if policy is None:                  # the app: its umpire answers
            host.add_listener(lambda kind, **d: kind == "undo_asked" and
                              host.answer_undo(d["ask"], True))
            host.add_listener(asked)
        try:
            host.execute(StartBattle())
            host.execute(EndPhase())
            await lap.wait_until(lambda: lap.head == 2, 10)
            ok, reason = await lap.ask_undo(1, "misread the range")
            await lap.wait_until(lambda: lap.head == len(session.entries), 10)
            return session, lap, ok, reason, asked
        finally:
            await lap.close()
            await host.stop()

    session, lap, ok, reason, asked = run(go())
    assert ok is (policy is not False)
    assert len(session.entries) == (1 if ok else 2) == lap.head
    assert digest(lap.session) == digest(session)
    if policy is False:
        assert "--approve-undo" in reason
    if policy is None:
        assert asked.of("undo_asked")[0]["why"] == "misread the range"


def test_the_players_page_and_state_need_the_view_token():
    def get(url, cookie=None):
        req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, b""

    async def go():
        session = austerlitz()
        host = Host(session, bind="127.0.0.1")
        await host.start()
        try:
            base = f"http://{host.address}"
            return host, [await asyncio.to_thread(get, u, c) for u, c in [
                (host.players_url, None), (f"{base}/", None), (f"{base}/state.json", None),
                (f"{base}/state.json", f"berthier_view={host.view_token}"),
                (f"{base}/secrets?view={host.view_token}", None)]]
        finally:
            await host.stop()

    host, (page, bare, no_token, state, other) = run(go())
    assert page[0] == 200 and page[1]["Content-Type"].startswith("text/html")
    assert f"berthier_view={host.view_token}" in page[1]["Set-Cookie"]
    assert bare[0] == 403 and no_token[0] == 403 and other[0] == 404
    assert state[0] == 200 and json.loads(state[2])["battle"] == "Austerlitz"


def test_the_host_listens_on_the_local_network_only_unless_told():
    assert address.is_local("192.168.1.20") and address.is_local("127.0.0.1")
    assert address.is_local("fe80::1") and address.is_local("::ffff:10.0.0.2")
    assert not address.is_local("8.8.8.8") and not address.is_local("nonsense")
    assert address.is_local("172.31.0.9") and address.is_local("fd12::5")
    assert not address.is_local("172.32.0.9")


@pytest.mark.parametrize("ip", ["192.0.2.2", "198.51.100.7", "203.0.113.9", "100.64.0.1",
                                "2001:db8::1", "::ffff:192.0.2.2"])
def test_documentation_and_other_reserved_ranges_are_not_the_local_network(ip, monkeypatch):
    """The doc's words: RFC 1918, ULA, loopback, link-local; not Python's is_private, which
    counts TEST-NET too. A machine whose own address is one of them hosts on loopback."""
    assert not address.is_local(ip)
    with pytest.raises(Exception, match="not a local-network address"):
        address.choose_bind(ip, False)
    monkeypatch.setattr(address, "lan_address", lambda: ip)
    assert address.choose_bind(None, False) == (["127.0.0.1"], "127.0.0.1")


def test_a_machine_on_a_private_network_listens_there_and_on_loopback(monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: "192.168.1.20")
    assert address.choose_bind(None, False) == (["192.168.1.20", "127.0.0.1"], "192.168.1.20")
    hosts, shown = address.choose_bind(None, False)
    assert "0.0.0.0" not in hosts and all(address.is_local(h) for h in hosts)
    with pytest.raises(Exception, match="not a local-network address"):
        address.choose_bind("8.8.8.8", False)
    assert address.choose_bind(None, True)[0] == ["0.0.0.0"]
    assert address.split_address("ws://10.0.0.5:9000/play") == ("10.0.0.5", 9000)


def test_peers_off_the_local_network_and_floods_of_connections_are_turned_away(monkeypatch):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    import manager.net.host as host_module

    async def closed_with(uri):
        async with connect(uri) as ws:
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except ConnectionClosed as exc:
                return exc.rcvd.code, exc.rcvd.reason
        return None

    async def go():
        session = austerlitz()
        host = Host(session, bind="127.0.0.1")
        await host.start()
        uri = f"ws://{host.address}/play"
        try:
            monkeypatch.setattr(host_module, "MAX_CONNECTIONS", 1)
            async with connect(uri):                 # one idle connection, no hello yet
                crowded = await closed_with(uri)
            monkeypatch.setattr(host_module, "MAX_CONNECTIONS", 64)
            monkeypatch.setattr(host_module.addr, "is_local", lambda ip: False)
            outsider = await closed_with(uri)
            return crowded, outsider, session
        finally:
            await host.stop()

    crowded, outsider, session = run(go())
    assert crowded == (1013, "too many connections")
    assert outsider == (1008, "this host serves its local network only")
    assert session.entries == []


def test_a_second_hello_on_a_joined_connection_is_refused_with_a_reason_and_logged(caplog):
    async def go():
        session = austerlitz()
        host, lap = await joined(session)
        host_seen, lap_seen = Events(), Events()
        host.add_listener(host_seen)
        lap.add_listener(lap_seen)
        try:
            await lap.send_raw(message("hello", code=host.code, laptop="someone-else",
                                       commands=["iv-corps"]))
            await lap.wait_until(lambda: lap_seen.of("error"), 10)
            return host, host_seen, lap_seen, lap.state
        finally:
            await lap.close()
            await host.stop()

    host, host_seen, lap_seen, state = run(go())
    [error] = lap_seen.of("error")
    assert "already joined" in error["reason"] and "hello" in error["reason"]
    assert [e["reason"] for e in host_seen.of("malformed")] == [error["reason"]]
    assert "iv-corps" not in host.claims and state == "joined"     # nothing taken, link kept
    assert any("already joined" in r.getMessage() and "127.0.0.1" in r.getMessage()
               for r in caplog.records if r.name == "berthier.net")


def test_the_host_stops_within_two_seconds_though_a_laptop_is_left_half_open():
    """A laptop whose lid closed never answers the close handshake: the host gives it a
    short timeout (it used to wait websockets' 10 s per connection on Ctrl+C/SIGTERM)."""
    import time

    from websockets.asyncio.client import connect

    async def go():
        session = austerlitz()
        host = Host(session, bind="127.0.0.1")
        await host.start()
        ws = await connect(f"ws://{host.address}/play")
        try:
            await ws.send(message("hello", code=host.code, laptop="lid", commands=["guard"]))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            ws.transport.pause_reading()          # half-open: never reads the host's close
            started = time.monotonic()
            await host.stop()
            return time.monotonic() - started
        finally:
            ws.transport.abort()

    assert run(go(), 60) < 2.5
