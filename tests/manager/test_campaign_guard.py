"""The campaign ledger cannot be fooled, and an edited campaign file is a message naming
the table and row, never a traceback; a refused file is left byte for byte as it was."""
import sqlite3
from pathlib import Path

import pytest

from manager.campaign import Campaign
from manager.campaign.reconstitute import battle_for
from manager.cli import main
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.store import create_battle
from tests.manager.test_messages import refused

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


@pytest.fixture
def campaign(tmp_path):
    c = Campaign.create(tmp_path / "c.campaign", load_scenario(SKIRMISH), "Test", 1)
    c.close()
    return tmp_path / "c.campaign"


def edit(path, *sql):
    c = sqlite3.connect(path)
    for s in sql:
        c.execute(s)
    c.commit()
    c.execute("PRAGMA journal_mode=DELETE")
    c.close()


def battle_file(tmp_path, campaign_path, edits=()):
    """Battle 1 of the campaign, written as `campaign fight` writes it, then edited."""
    c = Campaign.open(campaign_path)
    s = Session(battle_for(c, c.founding_battle()))
    out = tmp_path / "b1.berthier"
    f = create_battle(out, s, campaign_id=c.meta["id"], campaign_battle=1)
    f.close()
    c.close()
    edit(out, *edits)
    return out


def test_a_battle_file_whose_starting_strengths_disagree_is_refused_naming_the_unit(
        tmp_path, campaign, capsys):
    # the file says the grenadiers began at 1; the campaign mustered them at full strength
    b = battle_file(tmp_path, campaign, ["UPDATE units SET hits = 1 WHERE id = 'r1-gren'"])
    refused(capsys, tmp_path, "campaign", "close", campaign, b, "--force",
            says=[str(b), r"unit r1-gren \(.*\) starts the battle with 1, but the campaign "
                          r"mustered it at \d"])


def test_an_honest_battle_file_books_from_the_rosters_strengths(tmp_path, campaign, capsys):
    b = battle_file(tmp_path, campaign)
    capsys.readouterr()
    assert main(["campaign", "close", str(campaign), str(b), "--force"]) == 0
    c = Campaign.view(campaign)
    s = c.summary()
    c.close()
    for army in s["armies"].values():
        assert army["now"] == army["start"] - army["losses"] + army["returns"] + army["replacements"]
        assert all(u["now"] >= 0 for u in army["units"])


def test_a_battle_number_that_is_not_a_number_is_a_message(tmp_path, campaign, capsys):
    b = battle_file(tmp_path, campaign,
                    ["UPDATE meta SET value = 'five' WHERE key = 'campaign_battle'"])
    refused(capsys, tmp_path, "campaign", "close", campaign, b, "--force",
            says=[str(b), "campaign_battle: expected the battle's number", "'five'"])


CAMPAIGN_EDITS = {
    "negative max": ("UPDATE roster_units SET max = -3 WHERE rowid = 1",
                     r"roster_units row '.*': max: expected a whole number from 1"),
    "text points": ("UPDATE ledger SET points = 'many' WHERE id = 1",
                    r"ledger row 1: points: expected a whole number"),
    "negative points": ("UPDATE ledger SET points = -9 WHERE id = 1",
                        r"ledger row 1: points: expected a whole number from 0"),
    "unknown ledger kind": ("UPDATE ledger SET kind = 'gift' WHERE id = 1",
                            r"ledger row 1: kind: expected one of join"),
    "ledger of no unit": ("PRAGMA foreign_keys = OFF; UPDATE ledger SET unit = 'ghost' WHERE id = 1",
                          r"ledger row 1: unit 'ghost' is not on the roster"),
    "unit of no side": ("UPDATE roster_units SET side = 'green' WHERE rowid = 1",
                        r"side 'green' is not one of the campaign's sides"),
    "odd status": ("UPDATE roster_units SET status = 'sleeping' WHERE rowid = 1",
                   r"status: expected active or destroyed"),
    "leader quality": ("UPDATE roster_leaders SET quality = 99 WHERE rowid = 1",
                       r"roster_leaders row '.*': quality: expected 0 to 6"),
    "options not JSON": ("UPDATE meta SET value = '{x' WHERE key = 'options'",
                         r"meta\.options: expected the campaign's options"),
    "options out of range": ("UPDATE meta SET value = '{\"returns_fraction\": 7}' "
                             "WHERE key = 'options'", r"meta\.options: .*returns fraction"),
    "seed not a number": ("UPDATE meta SET value = 'x' WHERE key = 'seed'",
                          r"meta\.seed: expected a whole number"),
    "dice_seq missing": ("DELETE FROM meta WHERE key = 'dice_seq'",
                         r"meta\.dice_seq: expected a whole number"),
    "founding scenario bad": ("UPDATE units SET hits = 99 WHERE ord = 0",
                              r"stored scenario is not valid: .*hits"),
    "a trigger": ("CREATE TRIGGER t AFTER INSERT ON ledger BEGIN DELETE FROM ledger; END",
                  r"trigger 't'.*did not create"),
    "a dropped table": ("DROP TABLE leader_events", r"no such table|leader_events"),
}


@pytest.mark.parametrize("case", CAMPAIGN_EDITS, ids=list(CAMPAIGN_EDITS))
def test_edited_campaign_files_are_a_message(tmp_path, campaign, capsys, case):
    sql, says = CAMPAIGN_EDITS[case]
    c = sqlite3.connect(campaign)
    c.executescript(sql)
    c.commit()
    c.execute("PRAGMA journal_mode=DELETE")
    c.close()
    for args in (("campaign", "show", campaign), ("campaign", "show", campaign, "--json"),
                 ("campaign", "reinforce", campaign, "b1-inf1", "1"),
                 ("campaign", "fight", campaign, "--simulate", "--seed", "2")):
        refused(capsys, tmp_path, *args, says=[str(campaign), says])
