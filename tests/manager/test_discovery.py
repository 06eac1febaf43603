"""Discovery (issue 18): a host announces its battle on the local network, never its code."""
import asyncio
import socket

import pytest

from manager.net import discovery
from manager.net.discovery import Advertiser, HostFound, async_browse, instance_name, properties

LOOPBACK = "127.0.0.1"


def test_instance_names_fit_one_dns_label():
    name = instance_name("Bataille d'Austerlitz, 2 décembre 1805 — la journée des trois empereurs",
                         "club-laptop")
    assert len(name.encode("utf-8")) <= 63 and name.startswith("Bataille d'Austerlitz")
    assert "." not in instance_name("St. Pierre", "pc.local")
    assert instance_name("", "") == "Berthier battle"


def test_the_announcement_never_carries_the_code():
    props = properties("Austerlitz", "Morschauser", 3, 8765, 1, "club")
    assert props == {"battle": "Austerlitz", "ruleset": "Morschauser", "turn": "3",
                     "port": "8765", "v": "1", "host": "club"}
    assert "code" not in Advertiser.__init__.__code__.co_varnames


def test_a_host_is_found_followed_and_gone():
    reason = discovery.multicast_works(LOOPBACK)
    if reason is not None:
        pytest.skip(f"discovery needs multicast to come back on this machine: {reason}")

    async def scene():
        ad = Advertiser("Austerlitz <test>", "Morschauser Mark 3", port=47001, protocol=1,
                        turn=0, addresses=[LOOPBACK], interfaces=[LOOPBACK])
        await ad.start()
        try:
            ours = lambda hosts: [h for h in hosts if h.port == 47001]      # noqa: E731
            found = ours(await async_browse(10, [LOOPBACK], until=ours))
            assert len(found) == 1, "the host was not found within 10 s"
            host = found[0]
            assert (host.battle, host.ruleset, host.turn, host.protocol, host.address) == (
                "Austerlitz <test>", "Morschauser Mark 3", 0, 1, LOOPBACK)
            assert host.join_address == f"{LOOPBACK}:47001"
            assert "not started" in host.label

            await ad.update(turn=4)
            turned = lambda hosts: [h for h in ours(hosts) if h.turn == 4]   # noqa: E731
            assert turned(await async_browse(10, [LOOPBACK], until=turned)), \
                "the new turn was not announced"
        finally:
            await ad.close()
        gone = await async_browse(1.5, [LOOPBACK])
        assert not ours(gone), "a closed host is no longer listed"

    asyncio.run(asyncio.wait_for(scene(), 60))


def test_answers_that_are_not_ours_are_ignored():
    class Info:
        port = 5000
        properties = {b"battle": b"X", b"turn": b"three", b"v": b"1"}

        def parsed_addresses(self, version):
            return ["10.0.0.5"]

    assert discovery._found(Info(), "X._berthier._tcp.local.") is None     # turn not a number
    Info.properties = {b"battle": b"X", b"turn": b"3", b"v": b"1", b"ruleset": b"d3"}
    host = discovery._found(Info(), "X on pc._berthier._tcp.local.")
    assert host == HostFound("X on pc", "10.0.0.5", 5000, "X", "d3", 3, 1, "")


def test_multicast_probe_names_a_bad_interface():
    reason = discovery.multicast_works("192.0.2.254", timeout=0.3)   # an address not ours
    assert reason is not None and "192.0.2.254" in reason


def test_local_addresses_are_ipv4_with_loopback_last():
    addrs = discovery.local_addresses()
    assert addrs and all(socket.inet_aton(a) for a in addrs)
    loop = [a.startswith("127.") for a in addrs]
    assert loop == sorted(loop)


def test_berthier_host_announces_itself(tmp_path):
    """The headless host is listed too (File > Join battle on another laptop finds it),
    with its port and battle; --no-announce keeps it off the network."""
    import os
    import signal
    import sys
    from pathlib import Path
    reason = discovery.multicast_works(LOOPBACK)
    if reason is not None:
        pytest.skip(f"discovery needs multicast to come back on this machine: {reason}")
    root = Path(__file__).resolve().parents[2]

    async def host(*extra):
        env = dict(os.environ, PYTHONPATH=str(root), BERTHIER_DATA=str(tmp_path))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "manager.cli", "host", str(root / "scenarios" / "hanau.toml"),
            "--save", str(tmp_path / f"h{len(extra)}.berthier"), "--port", "0",
            "--bind", LOOPBACK, *extra, cwd=root, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        assert line.startswith("address "), line
        return proc, int(line.split()[1].rsplit(":", 1)[1])

    async def scene():
        proc, port = await host()
        quiet, quiet_port = await host("--no-announce")
        try:
            ours = lambda hosts: [h for h in hosts if h.port == port]      # noqa: E731
            found = ours(await async_browse(20, [LOOPBACK], until=ours))
            assert found and found[0].battle == "Hanau" and found[0].address == LOOPBACK
            everyone = await async_browse(1.0, [LOOPBACK])
            assert not [h for h in everyone if h.port == quiet_port]
        finally:
            outs = []
            for p in (proc, quiet):
                p.send_signal(signal.SIGTERM)
                outs.append(await asyncio.wait_for(p.communicate(), 30))
        return proc.returncode, outs

    rc, outs = asyncio.run(asyncio.wait_for(scene(), 120))
    assert rc == 0, outs[0][1].decode()
    assert "Announced on the local network" in outs[0][1].decode()
    assert "Announced" not in outs[1][1].decode()
