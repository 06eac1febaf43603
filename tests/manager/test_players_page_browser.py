"""The players' page in a real headless browser (issue 18): a real Chromium loads the page
from a real Host on loopback (its players' URL, token and all), draws the commands and
units the state holds, and follows the battle as it moves. Skipped, with the reason,
where no Chromium is installed."""
import asyncio
import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.net.host import Host
from manager.net.players_view import players_state
from manager.scenario_io import load_scenario
from manager.session import Session

SCENARIOS = Path(__file__).parent.parent.parent / "scenarios"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"no headless browser installed (looked for {', '.join(BROWSERS)} on PATH; "
                f"Debian: apt-get install chromium)")


async def headless(url: str, *args: str, budget_ms: int = 8000) -> str:
    """Run Chromium headless on `url`; its stdout. Virtual time lets the page's timers
    (its two-second polls) run at once; the whole run is bounded by a real timeout.
    Run as a subprocess of the host's own event loop, so the host answers meanwhile."""
    cmd = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--hide-scrollbars", f"--virtual-time-budget={budget_ms}", *args, url]
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 120)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        pytest.fail("Chromium did not finish within 120 s")
    assert proc.returncode == 0, f"Chromium failed: {err.decode(errors='replace')[-2000:]}"
    return out.decode("utf-8", errors="replace")


def hosted(scene) -> None:
    """Austerlitz played until a command is Shaken, served by a real Host on loopback;
    `scene(session, pilot, host, polls)` runs on the host's loop. `polls` counts the
    page's requests for state.json; polls.after_first runs once the first is answered."""
    session = Session(load_scenario(SCENARIOS / "austerlitz.toml"))
    pilot = Autopilot(session)
    while not (session.battle.state.shaken and session.battle.state.turn >= 3):
        assert pilot.step()

    class Polls:
        count = 0
        after_first = None

    async def main():
        host = Host(session, bind="127.0.0.1", port=0)
        answer = host._http

        def counting(connection, request):        # the host's own answer, counted
            response = answer(connection, request)
            if request.path.split("?")[0] == "/state.json" and response.status_code == 200:
                Polls.count += 1
                if Polls.count == 1 and Polls.after_first is not None:
                    Polls.after_first()           # the answer above holds the old state
            return response

        host._http = counting
        await host.start()
        try:
            await scene(session, pilot, host, Polls)
        finally:
            await host.stop()

    asyncio.run(asyncio.wait_for(main(), 300))


def dom_index(dom: str) -> int:
    m = re.search(r'<body[^>]*data-index="(\d+)"', dom)
    assert m, "the page never drew a state (no data-index on <body>)"
    return int(m.group(1))


def texts(dom: str, cls: str) -> list[str]:
    return [unescape(t) for t in re.findall(rf'<span class="{cls}">([^<]*)</span>', dom)]


def advance(session, pilot, actions: int) -> None:
    for _ in range(actions):
        assert pilot.step(), "the battle ended too soon for the test"


def test_the_page_shows_every_command_and_unit():
    async def scene(session, pilot, host, polls):
        dom = await headless(host.players_url, "--dump-dom")
        check_page(dom, players_state(session))
    hosted(scene)


def check_page(dom: str, state: dict) -> None:
    assert dom_index(dom) == state["log"]["index"]
    assert texts(dom, "name") == [c["name"] for c in state["commands"]]
    shaken = [c["name"] for c in state["commands"] if c["shaken"]]
    assert dom.count('<span class="badge">SHAKEN</span>') == len(shaken) >= 1
    drawn = set(re.findall(r'data-unit="([^"]+)"', dom))
    assert drawn == {u["id"] for u in state["units"]}
    for c in state["commands"]:
        assert f"{c['live']} of {c['units']} units · {c['lost']} lost" in unescape(dom)
    t = state["turn"]
    assert f"Turn {t['turn']} of {t['turns']} · {t['active_name']} · {t['phase_label']}" in unescape(dom)


def test_the_page_follows_the_battle_as_it_moves():
    """The page is loaded once; the battle moves on after its first poll; the same page
    shows the new state at its next poll, without a reload."""
    async def scene(session, pilot, host, polls):
        first = len(session.entries)
        polls.after_first = lambda: advance(session, pilot, 40)
        dom = await headless(host.players_url, "--dump-dom")
        assert polls.count >= 2, "the page polled only once"
        assert len(session.entries) == first + 40
        assert dom_index(dom) == first + 40, "the page still shows the state it first loaded"
        state = players_state(session)
        check_page(dom, state)
        strengths = re.findall(r'<div class="line">Strength (\d+) of (\d+)</div>', dom)
        assert [(int(a), int(b)) for a, b in strengths] == [
            (c["hits"], c["max_hits"]) for c in state["commands"]]
        assert state["log"]["lines"][-1]["text"] in unescape(dom)
    hosted(scene)


def test_the_page_renders_for_a_phone(tmp_path):
    """A screenshot at a phone's width: a real PNG, wide as the phone, the map drawn."""
    shot = tmp_path / "phone.png"

    async def scene(session, pilot, host, polls):
        await headless(host.players_url, f"--screenshot={shot}", "--window-size=412,1600")
    hosted(scene)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (412, 1600)
    assert len(data) > 20_000, "a blank page compresses to almost nothing"


def test_a_players_phone_opens_on_its_own_command():
    """`#command=ID` in the address: the map zooms to that command's units, its card
    is marked, and the rest of the page is all there."""
    async def scene(session, pilot, host, polls):
        dom = await headless(host.players_url + "#command=iv-corps", "--dump-dom")
        state = players_state(session)
        check_page(dom, state)
        box = [float(v) for v in re.search(r'<svg id="map"[^>]* viewBox="([^"]+)"', dom)
               .group(1).split()]
        assert box[2] < state["table"]["width"] and box[3] < state["table"]["height"]
        ours = [u for u in state["units"] if u["command"] == "iv-corps"]
        assert ours and all(box[0] <= u["x"] <= box[0] + box[2] and
                            box[1] <= u["y"] <= box[1] + box[3] for u in ours)
        assert 'class="cmd sel" data-command="iv-corps"' in dom
        assert "4th Corps on the map" in unescape(dom)
    hosted(scene)
