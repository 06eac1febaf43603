"""Issue 17, fourteenth session: the fire steps' first looks (`fire_near`) come from one
numpy pass for every unit of a side, kept while the grid, the centres and the bases'
half diagonals are the same floats. Each answer must be `near_bases_apart`'s own: the
same records in the same order, the same bounds to the bit, after every kind of change
(figures lost, a unit moved, turned, re-formed, gone or come, a trial copy)."""
from __future__ import annotations

from dataclasses import replace

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager.rules.featherstone import commander as cm
from manager.rules.featherstone import fire_near as fn
from manager.rules.featherstone.nearby import near_bases_apart

FS = "featherstone"


def test_the_commanders_fire_looks_in_play(monkeypatch):
    """Every ask of 4 Austerlitz turns' fire steps against the one-shooter pass; most
    asks are answered from a pass made at an earlier battle version."""
    real = fn.fire_near
    seen = {"asked": 0, "kept": 0, "made": 0, "bases": 0}
    made = fn._made

    def counted(*args):
        seen["made"] += 1
        return made(*args)

    def both(battle, unit, side, reach, inches, looks):
        got = real(battle, unit, side, reach, inches, looks)
        want = near_bases_apart(battle, unit, side, reach, inches)
        assert got[0] == want[0] and got[1] == want[1], unit.id
        assert all(a is b for a, b in zip(got[0], want[0]))
        seen["asked"] += 1
        seen["bases"] += len(got[0])
        return got
    monkeypatch.setattr(cm, "fire_near", both)
    monkeypatch.setattr(fn, "_made", counted)
    for _ in austerlitz_phases(FS, (), 4):
        pass
    assert seen["asked"] > 300 and seen["bases"] > 1000, seen
    assert seen["made"] * 5 < seen["asked"], seen


def looks(u):
    return (55, 48) if u.kind == "foot_artillery" else (20, 12)


def same_everywhere(b) -> int:
    """fire_near of every unit at both sides against the one-shooter pass."""
    found = 0
    for u in b.live_units():
        for side in ("blue", "red"):
            reach, inches = looks(u)
            got = fn.fire_near(b, u, side, reach, inches, looks)
            want = near_bases_apart(b, u, side, reach, inches)
            assert got == want and all(a is c for a, c in zip(got[0], want[0])), u.id
            found += len(got[0])
    return found


def test_fire_looks_after_each_change():
    units = [piece(f"f{k}", "blue", "line_infantry", (6 + 5 * k, 24)) for k in range(6)]
    units += [piece(f"e{k}", "red", "line_infantry", (8 + 5 * k, 14)) for k in range(6)]
    units += [piece("g", "blue", "foot_artillery", (20, 30)),
              piece("h", "red", "light_cavalry", (30, 6))]
    b = build_table(units, FS, width=48, height=36)
    assert same_everywhere(b) > 40
    b.update_unit("e1", hits=b.units["e1"].hits - 3)            # figures lost: kept
    assert same_everywhere(b) > 40
    b.update_unit("e2", x=14.0, y=17.5, facing=200)             # moved and turned
    assert same_everywhere(b) > 40
    b.update_unit("f2", formation="column")                     # re-formed where it is
    assert same_everywhere(b) > 40
    b.update_unit("f3", x=b.units["f3"].x + 1e-9)               # a hair's move
    assert same_everywhere(b) > 40
    b.update_unit("e4", y=b.units["e4"].y + 0.5)                # forward only
    assert same_everywhere(b) > 40
    c = b.copy()                                                # a trial copy
    c.update_unit("e3", x=22.0, y=20.0)
    assert same_everywhere(c) > 40
    assert same_everywhere(b) > 40
    b.update_unit("f1", eliminated=True)                        # gone: rebuilt grid
    assert same_everywhere(b) > 40
    b.put_unit(replace(b.units["f1"], id="z", x=40.0, y=20.0, eliminated=False))  # come
    assert same_everywhere(b) > 40
    # the last unit gone and one of the other side come in its very place: the same
    # centres and half diagonals in the same order, another grid (the sides differ)
    last = b.live_units()[-1]
    b.update_unit(last.id, eliminated=True)
    other = "blue" if last.side == "red" else "red"
    b.put_unit(replace(last, id="turncoat", side=other))
    assert same_everywhere(b) > 40


def test_another_reach_is_measured_by_itself():
    """A unit asked with a reach its commander's looks do not give (never in play) gets
    the one-shooter pass, not another row's answer."""
    b = build_table([piece("u", "blue", "line_infantry", (20, 20)),
                     piece("e", "red", "line_infantry", (20, 35)),
                     piece("f", "red", "line_infantry", (20, 5))], FS, width=40, height=40)
    u = b.units["u"]
    assert fn.fire_near(b, u, "red", 20, 12, looks) == near_bases_apart(b, u, "red", 20, 12)
    assert [e.id for e in fn.fire_near(b, u, "red", 10, 12, looks)[0]] == []
    assert fn.fire_near(b, u, "red", 10, 12, looks) == near_bases_apart(b, u, "red", 10, 12)
