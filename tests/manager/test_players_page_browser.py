"""The players' page in a real headless browser (issue 18): a real Chromium loads the page
from a host on loopback, draws the commands and units the state holds, and follows the
battle as it moves. Skipped, with the reason, where no Chromium is installed."""
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.net.players_view import players_state
from manager.scenario_io import load_scenario
from manager.session import Session

from players_host import PlayersHost

SCENARIOS = Path(__file__).parent.parent.parent / "scenarios"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"no headless browser installed (looked for {', '.join(BROWSERS)} on PATH; "
                f"Debian: apt-get install chromium)")


def headless(url: str, *args: str, budget_ms: int = 8000) -> str:
    """Run Chromium headless on `url`; its stdout. Virtual time lets the page's timers
    (its two-second polls) run at once; the whole run is bounded by a real timeout."""
    cmd = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--hide-scrollbars", f"--virtual-time-budget={budget_ms}", *args, url]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("Chromium did not finish within 120 s")
    assert done.returncode == 0, f"Chromium failed: {done.stderr[-2000:]}"
    return done.stdout


def dom_index(dom: str) -> int:
    m = re.search(r'<body[^>]*data-index="(\d+)"', dom)
    assert m, "the page never drew a state (no data-index on <body>)"
    return int(m.group(1))


def texts(dom: str, cls: str) -> list[str]:
    return [unescape(t) for t in re.findall(rf'<span class="{cls}">([^<]*)</span>', dom)]


def advance(session, pilot, actions: int) -> None:
    for _ in range(actions):
        assert pilot.step(), "the battle ended too soon for the test"


@pytest.fixture
def hosted():
    session = Session(load_scenario(SCENARIOS / "austerlitz.toml"))
    pilot = Autopilot(session)
    while not (session.battle.state.shaken and session.battle.state.turn >= 3):
        assert pilot.step()
    with PlayersHost(session) as host:
        yield session, pilot, host


def test_the_page_shows_every_command_and_unit(hosted):
    session, pilot, host = hosted
    dom = headless(host.url, "--dump-dom")
    state = players_state(session)
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


def test_the_page_follows_the_battle_as_it_moves(hosted):
    """The page is loaded once; the battle moves on after its first poll; the same page
    shows the new state at its next poll, without a reload."""
    session, pilot, host = hosted
    first = len(session.entries)
    host.after_first_poll = lambda: advance(session, pilot, 40)
    dom = headless(host.url, "--dump-dom")
    assert host.polls >= 2, "the page polled only once"
    assert len(session.entries) == first + 40
    assert dom_index(dom) == first + 40, "the page still shows the state it first loaded"
    state = players_state(session)
    strengths = re.findall(r'<div class="line">Strength (\d+) of (\d+)</div>', dom)
    assert [(int(a), int(b)) for a, b in strengths] == [
        (c["hits"], c["max_hits"]) for c in state["commands"]]
    assert unescape(state["log"]["lines"][-1]["text"]) in unescape(dom)


def test_the_page_renders_for_a_phone(hosted, tmp_path):
    """A screenshot at a phone's width: a real PNG, wide as the phone, the map drawn."""
    session, pilot, host = hosted
    shot = tmp_path / "phone.png"
    headless(host.url, f"--screenshot={shot}", "--window-size=412,1600")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (412, 1600)
    assert len(data) > 20_000, "a blank page compresses to almost nothing"
