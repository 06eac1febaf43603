"""Plain-text orders of battle."""
from pathlib import Path

import pytest

from manager.errors import OobError
from manager.oob_text import parse_oob, read_oob

LISTING = Path(__file__).parent.parent / "data" / "austerlitz_oob.txt"


def test_the_austerlitz_listing():
    oob = read_oob(LISTING)
    data = oob.to_json()
    assert data["total_units"] == 163
    french, allied = data["armies"]["French Army"], data["armies"]["ALLIED ARMY"]
    assert french["leader"] == "Emperor Napoleon I"
    assert allied["leader"] == "Tsar Alexander I, and General Mikhail Kutusov"
    assert len(french["commands"]) == 6 and len(allied["commands"]) == 7
    assert french["commands"]["5th Corps"] == {"leader": "Marshal Lannes", "units": 18, "by_kind": {
        "light_infantry": 2, "line_infantry": 10, "foot_artillery": 4, "heavy_cavalry": 2}}
    assert allied["commands"]["Russian Imperial Guard"]["leader"] == "Grand Duke Constantine"
    assert allied["commands"]["4th Column"]["by_kind"]["grenadiers"] == 1     # "1 Grenadier"
    santon = [u for c in oob.armies[0].commands for u in c.units if u.fixed]
    assert [u.count for u in santon] == [2]


def test_army_lines_are_told_by_structure_not_by_the_word_army():
    oob = parse_oob("Title\nBlue Host - King Blue\nVanguard, Duke A\n2 Line Infantry\n"
                    "Red Host - Queen Red\nRearguard - Count B\n1 Light cavalry\n")
    assert [a.name for a in oob.armies] == ["Blue Host", "Red Host"]
    assert oob.armies[1].commands[0].leader == "Count B"


@pytest.mark.parametrize("text,where,message", [
    ("T\nA - X\nC, Y\n3 Dragoons\n", "line 4", "unknown unit type 'Dragoons'"),
    ("T\nA - X\nC, Y\n2 more Line Infantry\n", "line 4", "needs a 'plus' line"),
    ("T\nA - X\n3 Line Infantry\n", "line 2", "comes before any army"),
    ("T\nA - X\nC, Y\n", "line 3", "followed by no units"),
])
def test_errors_name_the_line(text, where, message):
    with pytest.raises(OobError, match=message) as err:
        parse_oob(text, "oob.txt")
    assert err.value.where == where
