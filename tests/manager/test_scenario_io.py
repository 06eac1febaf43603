"""Scenario files: the Austerlitz order of battle, clear errors, and exact round trips."""
import hashlib
from pathlib import Path

import pytest

from manager.errors import ScenarioError
from manager.scenario_io import battle_to_dict, load_scenario, save_scenario

ROOT = Path(__file__).parent.parent.parent
AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


@pytest.fixture(scope="module")
def austerlitz():
    return load_scenario(AUSTERLITZ)


def by_kind(b, cid):
    out = {}
    for u in b.hierarchy.units_of(cid):
        k = b.units[u].kind + ("+guard" if b.units[u].guard else "")
        out[k] = out.get(k, 0) + 1
    return out


def test_austerlitz_orders_of_battle_as_the_text_lists_them(austerlitz):
    b = austerlitz
    h = b.hierarchy
    assert [len(h.commands_of(s)) for s in ("french", "allies")] == [6, 7]
    # every unit of the order of battle, Davout's 3rd Corps still on the Raigern road included
    count = lambda s: sum(1 for u in b.all_units().values() if u.side == s)
    assert count("french") == 81 and count("allies") == 82
    assert b.arrival_of("iii-corps").describe() == "arriving from turn 2 on a 4+ at the Raigern road"
    assert sum(len(h.units_of(c)) for c in h.commands_of("french")) == 81 - 13
    assert by_kind(b, "guard") == {"guard_infantry": 3, "guard_cavalry": 2,
                                   "horse_artillery+guard": 2, "grenadiers": 4, "foot_artillery": 1}
    assert by_kind(b, "v-corps") == {"light_infantry": 2, "line_infantry": 10, "foot_artillery": 4,
                                     "heavy_cavalry": 2}
    assert by_kind(b, "russian-guard") == {"light_infantry": 1, "guard_infantry": 4,
                                           "foot_artillery+guard": 2, "guard_cavalry": 3,
                                           "horse_artillery+guard": 1}
    assert by_kind(b, "col-4") == {"light_infantry": 2, "line_infantry": 9, "grenadiers": 1,
                                   "foot_artillery": 4}
    santon = [b.units[u] for u in h.units_of("v-corps") if b.units[u].fixed]
    assert len(santon) == 2 and all(u.kind == "foot_artillery" for u in santon)
    every = b.all_leaders()
    leaders = {b.commands[c].name: every[h.leader_of_command(c) or b.arrival_of(c).leader[1].id].name
               for s in b.sides for c in h.commands_of(s)}
    assert leaders["3rd Corps"] == "Marshal Davout"
    assert leaders["4th Corps"] == "Marshal Soult" and "Bagration" in leaders["Advance Guard of the Army"]
    assert b.info.scale == "1 unit = 1200 infantry, 800 cavalry or 12 guns"


def test_austerlitz_ground(austerlitz):
    from manager.rules.morschauser.board import board
    t = board(austerlitz).terrain
    names = {f.name: f for f in austerlitz.battlefield.features}
    for place in ("Goldbach", "Telnitz", "Sokolnitz", "Sokolnitz castle", "Kobelnitz", "Puntowitz",
                  "Pratzen heights", "Santon", "Brünn–Olmütz road", "Satschan ponds", "Zuran hill"):
        assert place in names, place
    assert names["Satschan ponds"].kind == "lake" and names["Goldbach"].kind == "stream"
    french = [austerlitz.units[u] for c in austerlitz.hierarchy.commands_of("french")
              for u in austerlitz.hierarchy.units_of(c)]
    pratzen = [u for u in austerlitz.units.values() if u.side == "allies"
               and t.at((int(u.x // 3), int(u.y // 3))).elevation >= 1]
    assert len(pratzen) >= 20, "the Allied centre holds the Pratzen"
    assert max(u.x for u in french) < min(u.x for u in austerlitz.units.values() if u.side == "allies")


def test_save_then_load_is_exact(tmp_path, austerlitz):
    out = tmp_path / "a.toml"
    save_scenario(austerlitz, out)
    again = load_scenario(out)
    assert again.fingerprint() == austerlitz.fingerprint()
    assert battle_to_dict(again) == battle_to_dict(austerlitz)


BAD = [
    ("not toml [", "not valid TOML"),
    ('[scenario]\nname = "x"\nruleset = "morschauser"\n', "table: missing; expected a table"),
    ('[scenario]\nname = "x"\nruleset = "chess"\n[table]\nwidth=1\nheight=1\ngrid=1\n', "unknown ruleset"),
    ('[scenario]\nname = 3\nruleset = "morschauser"\n[table]\nwidth=9\nheight=9\ngrid=3\n'
     '[[sides]]\nid="a"\nname="A"\ncommands=[]\n[[sides]]\nid="b"\nname="B"\ncommands=[]\n',
     "scenario.name: expected text, got 3"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_files_are_named_with_the_key_and_left_untouched(tmp_path, text, message):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    with pytest.raises(ScenarioError, match=message) as err:
        load_scenario(p)
    assert str(p) in str(err.value)
    assert hashlib.sha256(p.read_bytes()).hexdigest() == digest


def test_a_bad_unit_names_its_place(tmp_path):
    text = AUSTERLITZ.read_text().replace('kind = "guard_cavalry"', 'kind = "dragoons"', 1)
    p = tmp_path / "a.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.commands\[0\]\.units\[3\]\.kind: expected one of"):
        load_scenario(p)


def test_units_may_not_start_where_the_rules_forbid(tmp_path):
    text = AUSTERLITZ.read_text().replace('kind = "heavy_cavalry", at = [12, 14]', 'kind = "heavy_cavalry", at = [14, 19]', 1)
    assert text != AUSTERLITZ.read_text()
    p = tmp_path / "a.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError, match="cavalry and artillery may not enter buildings|already held"):
        load_scenario(p)


def test_unknown_options_are_named(tmp_path):
    text = AUSTERLITZ.read_text().replace("national_characteristics = true", "national_character = true")
    p = tmp_path / "a.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError, match="unknown option 'national_character'"):
        load_scenario(p)


def test_a_misspelt_leader_trait_is_named_not_ignored(tmp_path):
    text = AUSTERLITZ.read_text().replace('trait = "napoleon"', 'trait = "napolean"', 1)
    p = tmp_path / "a.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.general\.trait: expected one of .*napoleon.*got .napolean"):
        load_scenario(p)
