"""The host, black box: `berthier host` as a subprocess, raw JSON over websockets, each promise
of docs/network.md and issue 18 checked from the outside. This file: a game on Maida:
sectors, phases, concurrency, reconnection, undo, a killed host.

Maida (quick-play) is the battle: French Compère and Digonet, British Kempt and Cole.
A failure here where the host disagrees with the doc is a finding (xfail, strict, with
the reason). The host fixtures are in conftest.py, the client in net_blackbox.py.
"""
from __future__ import annotations

import asyncio

import pytest

from net_blackbox import digest, FRENCH_FIRST, head_of, join, JoinError, MAIDA, move, run, START


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
