"""Faults: a laptop or the host killed mid-turn (kill -9, real processes) loses nothing but
the action in flight; a dropped link catches up from its last index."""
import asyncio
import os
import signal
import sys

from net_helpers import ROOT, AUSTERLITZ, Events, austerlitz, run, sectors
from state_hash import digest

from manager.net.host import Host
from manager.net.laptop import Laptop
from manager.net.pilot import play_auto
from manager.session import Session
from manager.store.battle_file import load_battle


async def berthier(*args, env_dir):
    env = dict(os.environ, PYTHONPATH=str(ROOT), BERTHIER_DATA=str(env_dir))
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "manager.cli", *map(str, args), cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def until(predicate, timeout=30.0, step=0.02):
    """Poll a condition the test cannot be told about (another process's progress)."""
    async def poll():
        while not predicate():
            await asyncio.sleep(step)
    await asyncio.wait_for(poll(), timeout)


async def host_lines(proc) -> dict:
    lines = {}
    for want in ("address", "code", "players"):
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().strip()
        key, _, value = line.partition(" ")
        assert key == want, f"line {len(lines) + 1}: {line!r}"
        lines[key] = value
    return lines


def test_a_dropped_link_catches_up_from_its_last_index_without_the_whole_log():
    async def go():
        session = austerlitz(turns=2)
        host = Host(session, bind="127.0.0.1")
        await host.start()
        laps = [Laptop(host.address, host.code, part, backoff=(0.02, 0.2))
                for part in sectors(session, 2)]
        seen = Events()
        laps[0].add_listener(seen)
        try:
            for lap in laps:
                await lap.start()
            players = [asyncio.ensure_future(play_auto(lap)) for lap in laps]
            await laps[0].wait_until(lambda: laps[0].head >= 40, 30)
            dropped_at = laps[0].head
            laps[0]._ws.transport.abort()            # Wi-Fi gone: no closing handshake
            await asyncio.wait_for(asyncio.gather(*players), 60)
            return session, laps, seen, dropped_at
        finally:
            for lap in laps:
                await lap.close()
            await host.stop()

    session, laps, seen, dropped_at = run(go(), 90)
    assert session.battle.state.over
    assert laps[0].joins >= 2                                # it reconnected
    assert len(seen.of("reset")) == 1                        # the scenario came once only
    states = [d["state"] for d in seen.of("state")]
    assert "reconnecting" in states and states[-1] == "closed"
    for lap in laps:
        assert digest(lap.session) == digest(session)


def test_kill_9_of_a_laptop_mid_turn_then_it_rejoins_from_its_copy(tmp_path):
    async def go():
        session = austerlitz(turns=2)
        host = Host(session, bind="127.0.0.1")
        await host.start()
        parts = sectors(session, 3)
        laps = [Laptop(host.address, host.code, part, backoff=(0.02, 0.2)) for part in parts[:2]]
        copy = tmp_path / "copy.berthier"
        args = ("join", host.address, "--code", host.code, "--commands", ",".join(parts[2]),
                "--auto", "--save", copy)
        killed = await berthier(*args, env_dir=tmp_path)
        try:
            await until(lambda: any(s.connected for s in host.seats.values()), 30)
            for lap in laps:
                await lap.start()
            players = [asyncio.ensure_future(play_auto(lap)) for lap in laps]
            await laps[0].wait_until(lambda: laps[0].head >= 40, 30)
            killed.kill()                                  # SIGKILL, mid-turn
            await killed.wait()
            head_then = len(session.entries)
            await until(lambda: not any(s.connected and parts[2][0] in s.commands
                                        for s in host.seats.values()), 10)
            again = await berthier(*args, env_dir=tmp_path)
            out, err = await asyncio.wait_for(again.communicate(), 60)
            await asyncio.wait_for(asyncio.gather(*players), 30)
            return session, laps, again.returncode, out.decode(), err.decode(), copy, head_then
        finally:
            for lap in laps:
                await lap.close()
            await host.stop()

    session, laps, rc, out, err, copy, head_then = run(go(), 120)
    assert rc == 0, err
    assert killed_resumed(out, head_then)
    assert "the battle is over" in out
    assert session.battle.state.over
    saved, _ = load_battle(copy)
    assert digest(saved) == digest(session)
    for lap in laps:
        assert digest(lap.session) == digest(session)


def killed_resumed(out: str, head_then: int) -> bool:
    """The restarted laptop resumed from its copy: the first entry it had to fold (each is
    printed as 'INDEX Verb(...)') follows what it had saved, near where it was killed."""
    first = next(line for line in out.splitlines() if line.split(" ", 1)[0].isdigit())
    n = int(first.split(" ", 1)[0])
    return 0 < n <= head_then


def test_kill_9_of_the_host_mid_turn_restart_from_its_file_and_the_laptops_rejoin(tmp_path):
    saved = tmp_path / "hosted.berthier"

    async def go():
        host = await berthier("host", AUSTERLITZ, "--save", saved, "--port", 0, "--bind",
                              "127.0.0.1", "--turns", 2, env_dir=tmp_path)
        first = await host_lines(host)
        port = first["address"].rsplit(":", 1)[1]
        parts = sectors(austerlitz(), 3)
        laps = [Laptop(first["address"], first["code"], part, backoff=(0.05, 0.3))
                for part in parts]
        try:
            for lap in laps:
                await lap.start()
            players = [asyncio.ensure_future(play_auto(lap)) for lap in laps]
            await laps[0].wait_until(lambda: laps[0].head >= 40, 30)
            host.send_signal(signal.SIGKILL)
            await host.wait()
            had = [[e.to_dict() for e in lap.session.entries] for lap in laps]
            again = await berthier("host", saved, "--port", port, "--bind", "127.0.0.1",
                                   env_dir=tmp_path)
            second = await host_lines(again)
            await asyncio.wait_for(asyncio.gather(*players), 60)
            again.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(again.communicate(), 30)
            return first, second, laps, had, again.returncode, err.decode()
        finally:
            for lap in laps:
                await lap.close()
            for p in (host, locals().get("again")):
                if p is not None and p.returncode is None:
                    p.kill()
                    await p.wait()

    first, second, laps, had, rc, err = run(go(), 150)
    assert second["code"] == first["code"] and second["address"] == first["address"]
    assert rc == 0, err
    assert not saved.with_name(saved.name + ".lock").exists()        # released on SIGTERM
    final, _ = load_battle(saved)
    assert final.battle.state.over
    log = [e.to_dict() for e in final.entries]
    for entries in had:                     # every entry a laptop had is in the file
        assert [(e["action"], e["rolls"]) for e in entries] == \
            [(e["action"], e["rolls"]) for e in log[:len(entries)]]
    single = Session.replay(austerlitz(turns=2).battle, final.entries)
    for lap in laps:
        assert digest(lap.session) == digest(single) == digest(final)


def test_a_laptop_whose_log_the_host_took_back_while_it_was_away_starts_again():
    """A move taken back and replaced while a laptop was away: its last entry no longer
    matches the host's, so it gets the scenario and the whole log again."""
    from test_net_refusals import to_move_phase

    async def go():
        session = austerlitz()
        to_move_phase(session)
        commander = session.ruleset.commander(session.battle, session.battle.state.active)
        first = commander.next_action()
        host = Host(session, bind="127.0.0.1")
        await host.start()
        lap = Laptop(host.address, host.code, ["guard"], backoff=(0.05, 0.1))
        seen = Events()
        lap.add_listener(seen)
        try:
            await lap.start()
            host.execute(first)
            head = len(session.entries)
            await lap.wait_until(lambda: lap.head == head, 10)
            await host.stop()                       # the host goes away for a moment...
            await lap.wait_until(lambda: lap.state == "reconnecting", 10)
            session.undo_to(head - 1)               # ...and its umpire moves another unit
            commander.done.add(first.unit)
            other = commander.next_action()
            assert other != first
            session.execute(other)
            await host.start()
            await lap.wait_until(lambda: lap.caught_up and lap.joins == 2, 20)
            return session, lap, seen, other
        finally:
            await lap.close()
            await host.stop()

    session, lap, seen, other = run(go())
    assert len(seen.of("reset")) == 2               # the first join, and the new start
    assert lap.session.entries[-1].action == other
    assert digest(lap.session) == digest(session)
