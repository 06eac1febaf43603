"""The host refuses what it must, with the reason, and executes nothing it refuses."""
import asyncio

import pytest
from net_helpers import Events, austerlitz, run

from manager.game_actions import EndPhase, StartBattle
from manager.net.host import Host
from manager.net.laptop import ActionRefused, JoinRefused, Laptop
from manager.net.protocol import message


def to_move_phase(session):
    """Start the battle and end phases until the side to move is in its move phase."""
    session.execute(StartBattle())
    while session.battle.state.phase != "move":
        session.execute(EndPhase())


def first_unit_action(session):
    """The automatic commander's first order with a unit: (action, its command)."""
    commander = session.ruleset.commander(session.battle, session.battle.state.active)
    for _ in range(50):
        a = commander.next_action()
        if getattr(a, "unit", None):
            return a, session.battle.hierarchy.command_of(a.unit)
    raise AssertionError("the commander proposed no unit action")


async def hosted(session, **kw):
    host = Host(session, bind="127.0.0.1", **kw)
    await host.start()
    return host


def test_a_wrong_code_is_refused_and_the_right_one_joins():
    async def go():
        session = austerlitz()
        host = await hosted(session)
        seen = Events()
        host.add_listener(seen)
        try:
            with pytest.raises(JoinRefused, match="wrong join code"):
                await Laptop(host.address, "NOTIT", ["guard"], backoff=(0.05, 0.1)).start()
            lap = Laptop(host.address, host.code.lower(), ["guard"])   # read aloud: any case
            await lap.start()
            await lap.close()
            return seen
        finally:
            await host.stop()

    seen = run(go())
    assert [d["reason"] for d in seen.of("refused")] == ["wrong join code"]
    assert len(seen.of("joined")) == 1


def test_unknown_and_taken_commands_are_refused_with_who_holds_them():
    async def go():
        session = austerlitz()
        host = await hosted(session)
        try:
            with pytest.raises(JoinRefused, match="no command nowhere"):
                await Laptop(host.address, host.code, ["nowhere"]).start()
            first = Laptop(host.address, host.code, ["guard"], name="Dupont")
            await first.start()
            with pytest.raises(JoinRefused, match=r"Guard.*already claimed by Dupont"):
                await Laptop(host.address, host.code, ["guard", "i-corps"]).start()
            await first.close()
            await asyncio.sleep(0)          # let the host see the drop
            await first.wait_until(lambda: True)
            # a dropped laptop's command passes to whoever claims it next
            second = Laptop(host.address, host.code, ["guard"])
            await asyncio.wait_for(_until_joined(second), 10)
            assert host.claims["guard"] == second.laptop_id
            await second.close()
        finally:
            await host.stop()

    run(go())


async def _until_joined(lap):
    while True:
        try:
            await lap.start()
            return
        except JoinRefused:                 # the host has not yet seen the first one go
            await asyncio.sleep(0.05)


def test_an_unclaimed_unit_is_refused_with_the_reason_and_nothing_is_executed():
    async def go():
        session = austerlitz()
        to_move_phase(session)
        action, cid = first_unit_action(session)
        other = next(c for c in session.battle.hierarchy.commands_of(session.battle.state.active)
                     if c != cid)
        host = await hosted(session)
        lap = Laptop(host.address, host.code, [other])
        try:
            await lap.start()
            head = len(session.entries)
            with pytest.raises(ActionRefused) as refused:
                await lap.act(action)
            assert len(session.entries) == head
            return str(refused.value), session, action, cid
        finally:
            await lap.close()
            await host.stop()

    reason, session, action, cid = run(go())
    b = session.battle
    assert reason == (f"{b.units[action.unit].name} belongs to {b.commands[cid].name}, "
                      f"which this laptop has not claimed")


def test_a_stale_order_no_longer_legal_is_refused_naming_what_came_between():
    async def go():
        session = austerlitz()
        to_move_phase(session)
        action, cid = first_unit_action(session)
        host = await hosted(session)
        lap = Laptop(host.address, host.code, [cid])
        seen = Events()
        lap.add_listener(seen)
        try:
            await lap.start()
            before = lap.head
            assert await lap.act(action) == before            # legal at the head: done
            # the same order again, made against the log as it was before the first
            await lap.send_raw(message("act", id=900, index=before, action=action.to_dict()))
            await lap.wait_until(lambda: seen.of("refused"), 10)
            return seen.of("refused")[0]["reason"], session, action, before
        finally:
            await lap.close()
            await host.stop()

    reason, session, action, before = run(go())
    name = session.battle.units[action.unit].name
    assert reason.startswith(f"{name} moved before your order arrived: ")
    assert len(session.entries) == before + 1


def test_a_still_legal_order_from_a_stale_index_is_accepted():
    async def go():
        session = austerlitz()
        to_move_phase(session)
        first, cid = first_unit_action(session)
        host = await hosted(session)
        lap = Laptop(host.address, host.code, [cid])
        try:
            await lap.start()
            before = lap.head
            # another unit's order (the host umpire's) comes first; ours was made before it
            commander = session.ruleset.commander(session.battle, session.battle.state.active)
            assert commander.next_action() == first
            commander.done.add(first.unit)
            other = commander.next_action()
            assert other.unit != first.unit
            host.execute(other)
            await lap.wait_until(lambda: lap.head == before + 1, 10)
            await lap.send_raw(message("act", id=901, index=before, action=first.to_dict()))
            await lap.wait_until(lambda: lap.head == before + 2, 10)
            return session, first
        finally:
            await lap.close()
            await host.stop()

    session, first = run(go())
    assert session.entries[-1].action == first


def test_a_laptop_joins_with_no_command_then_claims_and_releases():
    async def go():
        session = austerlitz()
        host = await hosted(session)
        holder = Laptop(host.address, host.code, ["guard"], name="Dupont")
        lap = Laptop(host.address, host.code, [])
        try:
            await holder.start()
            await lap.start()
            held = {s["name"]: s["commands"] for s in lap.acting_info["laptops"]}
            assert held["Dupont"] == ["guard"]
            with pytest.raises(ActionRefused, match="already claimed by Dupont"):
                await lap.claim(["guard", "i-corps"])
            assert lap.commands == [] and host.claims == {"guard": holder.laptop_id}
            assert await lap.claim(["i-corps", "v-corps"]) == ["i-corps", "v-corps"]
            assert await lap.release(["v-corps"]) == ["i-corps"]
            return host.claims, lap
        finally:
            await lap.close()
            await holder.close()
            await host.stop()

    claims, lap = run(go())
    assert claims == {"guard": claims["guard"], "i-corps": lap.laptop_id}
