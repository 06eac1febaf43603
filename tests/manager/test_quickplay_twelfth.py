"""Quick-play's shortcuts of issue 17's twelfth session answer as the code they replaced.

The sight pass (`hidden_lines._judged`) reads the table's columns, gathered in one call,
and tests a pair's two axes at once: its answers are held to the old pass's, to the bit,
by test_quickplay_fewer_numpy_calls.py (in play and on random tables); here, the columns
follow every unit."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from quickplay_refs import austerlitz  # noqa: E402


def test_table_columns_follow_the_units():
    """The table's columns (x, y, fx, -fy, fy, fx, hd, hf) are each unit's base, after
    moves and in a trial copy's table, and its named rows are views of them."""
    from manager.footprint import heading
    from manager.rules.quickplay.bases import bases
    from manager.rules.quickplay.units import footprint
    s, ap = austerlitz(2)
    ap.play_turn()
    b = s.battle
    for battle in (b, b.copy()):
        t = bases(battle)
        assert t.x.base is t.cols and t.hf.base is t.cols
        for k, u in enumerate(t.units):
            fp = footprint(battle, u)
            fx, fy = heading(fp.facing)
            assert t.cols[:, k].tolist() == [fp.x, fp.y, fx, -fy, fy, fx, fp.depth / 2,
                                             fp.frontage / 2]

