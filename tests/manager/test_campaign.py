"""The campaign ledger: losses, men returned, replacements, fallen leaders; it reconciles."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from builders import build, unit

from manager import editor_actions as ea
from manager import game_actions as ga
from manager.campaign import Campaign, CampaignOptions
from manager.campaign.reconstitute import battle_for, close_battle
from manager.dice import QueueSource
from manager.errors import StoreError
from manager.session import Session
from manager.store import create_battle
from manager.store.battle_file import load_battle

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def small(**opts):
    """Blue: two line infantry (4 hits each in Morschauser) and a gun; red: one of each."""
    return build([unit("i1", "blue", "line_infantry", (3, 3)), unit("i2", "blue", "line_infantry", (3, 5)),
                  unit("g1", "blue", "foot_artillery", (2, 4)),
                  unit("x1", "red", "line_infantry", (12, 3))])


def fought(tmp_path, campaign, edits, over=True, name="b.berthier"):
    """A battle of the campaign whose end state the umpire set by edits, then recorded."""
    battle = battle_for(campaign, campaign.founding_battle())
    s = Session(battle)
    f = create_battle(tmp_path / name, s, campaign_id=campaign.meta["id"],
                      campaign_battle=campaign.closed_count() + 1)
    s.execute(ga.StartBattle())
    for a in edits:
        s.execute(a)
    if over:
        s.battle.set_state(over=True, winner="blue", reason="test")
    f.close()
    return s, {"campaign_id": campaign.meta["id"], "campaign_battle": str(campaign.closed_count() + 1)}


@pytest.fixture
def camp(tmp_path):
    def make(**options):
        c = Campaign.create(tmp_path / "c.campaign", small(), "Test", 1, CampaignOptions(**options))
        return c
    return make


def test_a_campaign_musters_every_unit_at_its_strength(camp):
    c = camp()
    assert c.strength() == {u: c.founding_battle().units[u].hits for u in c.units()}
    s = c.summary()
    assert s["armies"]["blue"]["start"] == s["armies"]["blue"]["now"] == sum(
        u.hits for u in c.founding_battle().units.values() if u.side == "blue")


def test_losses_and_returns_by_the_dice(tmp_path, camp):
    c = camp(returns_fraction=0.25)
    top = c.units()["i1"]["max"]
    s, meta = fought(tmp_path, c, [ea.EditUnit("i1", (("hits", top - 3),))])
    # i1 lost 3 points: D100 each, back on 25 or less: 10 yes, 30 no, 25 yes
    close_battle(c, s, meta, "b", source=QueueSource([10, 30, 25]))
    u = next(x for x in c.summary()["armies"]["blue"]["units"] if x["id"] == "i1")
    assert (u["losses"], u["returns"], u["now"]) == (3, 2, top - 1)
    assert u["battles"]["1"] == {"losses": 3, "returns": 2, "replacements": 0}
    rolls = list(c.db.query("SELECT faces, source FROM rolls"))
    assert [json.loads(r["faces"]) for r in rolls] == [[10, 30, 25]]
    assert rolls[0]["source"] == "manual"


def test_an_eliminated_unit_is_struck_off_when_destroyed(tmp_path, camp):
    c = camp(eliminated="destroyed")
    s, meta = fought(tmp_path, c, [ea.RemoveUnit("g1")])
    close_battle(c, s, meta, "b", source=QueueSource([]))      # no roll for the dead
    assert c.units()["g1"]["status"] == "destroyed" and c.strength()["g1"] == 0
    assert "g1" not in battle_for(c, c.founding_battle()).units   # it stays at home


def test_an_eliminated_unit_survives_as_a_cadre_when_reduced(tmp_path, camp):
    c = camp(eliminated="reduced", returns_fraction=0.5)
    lost = c.strength()["g1"]
    s, meta = fought(tmp_path, c, [ea.RemoveUnit("g1")])
    close_battle(c, s, meta, "b", source=QueueSource([99] * lost))   # nobody comes back
    assert c.units()["g1"]["status"] == "active" and c.strength()["g1"] == 1
    assert battle_for(c, c.founding_battle()).units["g1"].hits == 1


@pytest.mark.parametrize("face, event, quality", [(2, "replaced", 0), (3, "wounded", 2)])
def test_a_fallen_leader_is_replaced_or_returns_wounded(tmp_path, camp, face, event, quality):
    c = camp(returns_fraction=0.0)
    lid = "b1-ldr"
    c.db["roster_leaders"].update(lid, {"quality": 3})
    s, meta = fought(tmp_path, c, [])
    s.battle.update_leader(lid, hits=0, eliminated=True)      # he fell in the battle
    close_battle(c, s, meta, "b", source=QueueSource([face]))
    assert [e["event"] for e in c.summary()["leader_events"]] == [event]
    assert c.leaders()[lid]["quality"] == quality
    nxt = battle_for(c, c.founding_battle())
    assert nxt.leaders[lid].quality == quality
    assert ("successor" in nxt.leaders[lid].name) == (event == "replaced")


def test_replacements_fill_up_to_full_strength_only(tmp_path, camp):
    c = camp(returns_fraction=0.0)
    top = c.units()["i2"]["max"]
    s, meta = fought(tmp_path, c, [ea.EditUnit("i2", (("hits", 1),))])
    close_battle(c, s, meta, "b")
    with pytest.raises(StoreError, match=f"at most {top - 1} replacement"):
        c.reinforce("i2", top)
    assert c.reinforce("i2", 2, "drafts from the depot") == 3
    u = next(x for x in c.summary()["armies"]["blue"]["units"] if x["id"] == "i2")
    assert u["battles"]["1"] == {"losses": top - 1, "returns": 0, "replacements": 2}


def test_a_battle_is_booked_once_in_order_and_finished(tmp_path, camp):
    c = camp()
    s, meta = fought(tmp_path, c, [], over=False)
    with pytest.raises(StoreError, match="not over"):
        close_battle(c, s, meta, "b")
    with pytest.raises(StoreError, match="not fought in the campaign"):
        close_battle(c, s, {"campaign_id": "other", "campaign_battle": "1"}, "b", force=True)
    close_battle(c, s, meta, "b", force=True)
    with pytest.raises(StoreError, match="battle 1 of the campaign; the next to close is battle 2"):
        close_battle(c, s, meta, "b", force=True)


def test_another_ruleset_cannot_fight_in_the_campaign(camp):
    c = camp()
    other = small()
    from dataclasses import replace
    other.set_info(replace(other.info, ruleset="elsewhere"))
    with pytest.raises(StoreError, match="fought under morschauser"):
        battle_for(c, other)


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "manager.cli", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_two_simulated_battles_reconcile_to_the_unit(tmp_path):
    r = cli("campaign", "new", "c.campaign", "--from", str(SKIRMISH), "--eliminated", "reduced",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for seed in ("1", "2"):
        r = cli("campaign", "fight", "c.campaign", "--simulate", "--seed", seed, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    c = Campaign.open(tmp_path / "c.campaign")
    weak = next(u for u, now in c.strength().items() if now < c.units()[u]["max"])
    c.close()
    r = cli("campaign", "reinforce", "c.campaign", weak, "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    show = json.loads(cli("campaign", "show", "c.campaign", "--json", cwd=tmp_path).stdout)
    assert len(show["battles"]) == 2
    # each battle started from the ledger's figures, unit by unit
    c = Campaign.open(tmp_path / "c.campaign")
    for n in (1, 2):
        session, meta = load_battle(tmp_path / f"c-battle-{n}.berthier")
        start = session.initial_battle().units
        for army in show["armies"].values():
            for u in army["units"]:
                before = u["start"] + sum(
                    b["returns"] + b["replacements"] - b["losses"]
                    for k, b in u["battles"].items() if int(k) < n)
                assert start[u["id"]].hits == before, (n, u)
    c.close()
    for army in show["armies"].values():
        for u in army["units"]:
            assert u["start"] - u["losses"] + u["returns"] + u["replacements"] == u["now"]
        for k in ("losses", "returns", "replacements"):
            assert army[k] == sum(u[k] for u in army["units"])
        assert army["start"] - army["losses"] + army["returns"] + army["replacements"] == army["now"]
    assert sum(a["losses"] for a in show["armies"].values()) > 0
    assert sum(a["replacements"] for a in show["armies"].values()) == 1
