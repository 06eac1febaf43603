"""Three laptops play one battle through one host: every laptop ends with the host's battle."""
import asyncio
import json
from dataclasses import replace

import pytest
from net_helpers import ROOT, Events, austerlitz, run, sectors
from state_hash import canonical, digest

from manager.scenario_io import battle_from_dict, battle_to_dict, load_scenario

from manager.net.host import Host
from manager.net.laptop import Laptop
from manager.net.pilot import play_auto
from manager.session import Session


async def play_in_sectors(session, n):
    """A host on loopback and n laptops, each a sector, played by the automatic commander to
    the end; returns the laptops once each holds the host's whole log."""
    host = Host(session, bind="127.0.0.1")
    await host.start()
    laptops = [Laptop(host.address, host.code, part, name=f"sector {i}")
               for i, part in enumerate(sectors(session, n))]
    try:
        for lap in laptops:                        # everyone joins before the battle starts
            await lap.start()
        await asyncio.gather(*(play_auto(lap) for lap in laptops))
        for lap in laptops:
            await lap.wait_until(lambda: lap.head == len(session.entries), 10)
        return laptops
    finally:
        for lap in laptops:
            await lap.close()
        await host.stop()


def test_three_laptops_play_three_austerlitz_turns_and_agree_with_a_replay():
    session = austerlitz(turns=3)
    laptops = run(play_in_sectors(session, 3), 90)
    assert session.battle.state.over and session.battle.state.turn == 3
    # the host's log, replayed by a single laptop from the scenario, is the same battle
    single = Session.replay(austerlitz(turns=3).battle, session.entries)
    assert digest(single) == digest(session)
    for lap in laptops:
        assert lap.head == len(session.entries)
        assert digest(lap.session) == digest(single)
    # every sector acted: each laptop's commands moved, fired or rallied
    verbs_by_laptop = []
    for part in sectors(session, 3):
        units = {u for c in part for u in session.battle.hierarchy.units_of(c)}
        verbs_by_laptop.append(sum(1 for e in session.entries
                                   if getattr(e.action, "unit", None) in units))
    assert all(n > 0 for n in verbs_by_laptop), verbs_by_laptop


def test_laptops_follow_entries_the_host_umpire_makes():
    from manager.game_actions import EndPhase, StartBattle

    async def follow():
        session = austerlitz()
        host = Host(session, bind="127.0.0.1")
        await host.start()
        lap = Laptop(host.address, host.code, ["guard"])
        seen = Events()
        lap.add_listener(seen)
        try:
            await lap.start()
            host.execute(StartBattle())
            host.execute(EndPhase())
            await lap.wait_until(lambda: lap.head == 2, 10)
            return session, lap, seen
        finally:
            await lap.close()
            await host.stop()

    session, lap, seen = run(follow())
    assert [e["entry"].action.verb for e in seen.of("entry")] == ["StartBattle", "EndPhase"]
    assert lap.session.entries[0].rolls == session.entries[0].rolls    # the host's dice
    assert digest(lap.session) == digest(session)


@pytest.mark.parametrize("scenario", ["maida", "hanau", "quatre_bras", "arcole"])
def test_two_laptops_play_every_ruleset_and_agree_with_the_host(scenario):
    """Each ruleset's commander, split between two laptops (quickplay, d3, featherstone,
    harman): the battle goes on to its turn limit and both laptops hold the host's."""
    battle = load_scenario(ROOT / "scenarios" / f"{scenario}.toml")
    battle.set_info(replace(battle.info, turns=2))
    session = Session(battle)
    laptops = run(play_in_sectors(session, 2), 60)
    assert session.battle.state.over and session.battle.state.turn == 2
    assert len({digest(lap.session) for lap in laptops} | {digest(session)}) == 1


@pytest.mark.parametrize("scenario", ["austerlitz", "maida", "hanau", "quatre_bras", "arcole"])
def test_the_scenario_a_laptop_receives_is_the_hosts_battle(scenario):
    """The welcome carries the scenario as JSON; rebuilt, it is the same battle."""
    battle = load_scenario(ROOT / "scenarios" / f"{scenario}.toml")
    sent = json.loads(json.dumps(battle_to_dict(battle)))
    assert canonical(battle_from_dict(sent).fingerprint()) == canonical(battle.fingerprint())
