"""Issue 17, Featherstone (ninth session): the rules pass over what a path cannot reach.

- `losses.retreat` asks overlap at every half-inch step only of the bases whose circle
  can meet the retreating base's somewhere on its way (`_on_the_way`).
- `charges._generals_in_path` asks the hull of the charge only of generals inside the
  box of both bases, and works out the attached generals only once one is inside.
Each against the code it replaced (kept here), on random tables and in play.
"""
from __future__ import annotations

from hypothesis import assume, given, settings, strategies as st
from shapely.geometry import Point

from builders import build_table, piece
from play_checks import SameDice, austerlitz_phases
from manager.errors import ScenarioError
from manager.footprint import distance, swept
from manager.rules.featherstone import charges, losses
from manager.rules.featherstone.state import footprint
from manager.rules.featherstone.nearby import attached_leaders, near_units

FS = "featherstone"
KINDS = ["line_infantry", "light_infantry", "heavy_cavalry", "light_cavalry",
         "foot_artillery"]


RETREAT, GENERALS_IN_PATH = losses.retreat, charges._generals_in_path   # (before any spy)


def plain_on_the_way(fp, hx, hy, inches, others):
    return others


def plain_generals_in_path(battle, unit, end, dice, events):
    """charges._generals_in_path as it was: the hull and every enemy's attached generals
    first, then every live enemy general asked of the hull."""
    hull = swept(footprint(battle, unit), end)
    enemy = battle.enemy_of(unit.side)
    attached = {l.id for u in battle.live_units(enemy) if distance(u.pos, unit.pos) < 40
                for l in attached_leaders(battle, u)}
    for l in battle.live_leaders(enemy):
        if l.id in attached or not hull.contains(Point(l.x, l.y)):
            continue
        friends = [u for u in near_units(battle, l.pos, 8, enemy)
                   if footprint(battle, u).polygon().distance(Point(l.x, l.y))
                   <= charges.SHELTER_REACH
                   and not hull.intersects(footprint(battle, u).polygon())]
        if friends:
            f = friends[0]
            battle.update_leader(l.id, x=f.x, y=f.y)
            events.append(charges.CrewSheltered(l.name, f.name))
        else:
            charges.overrun_general(battle, l.id, dice, events)


def both_retreats(battle, *args):
    """The retreat on two copies, with and without the bases passed over: the same
    return, events and battle."""
    mine, ref = battle.copy(), battle.copy()
    ev1, ev2 = [], []
    got = RETREAT(mine, args[0], args[1], args[2], args[3], args[4], ev1, SameDice())
    keep = losses._on_the_way
    try:
        losses._on_the_way = plain_on_the_way
        want = RETREAT(ref, args[0], args[1], args[2], args[3], args[4], ev2, SameDice())
    finally:
        losses._on_the_way = keep
    assert got == want and ev1 == ev2
    assert mine.fingerprint() == ref.fingerprint()


@settings(max_examples=150, deadline=None)
@given(st.tuples(st.floats(14, 46), st.floats(12, 34)), st.integers(0, 359),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.floats(0, 359), st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0]),
       st.lists(st.tuples(st.floats(-16, 16), st.floats(-16, 16), st.integers(0, 359),
                          st.sampled_from(KINDS)), max_size=10),
       st.sampled_from(["enemy", "away"]))
def test_a_retreat_past_bases_is_the_plain_slide(at, facing, kind, away, moves, others,
                                                face):
    """A unit driven any way, 0 to 2 moves, among up to 10 bases of every kind strewn
    about it (some in its way, some beside it, some behind), or off the table."""
    from manager.footprint import heading
    units = [piece("u", "blue", kind, at, facing=facing)]
    for k, (dx, dy, f, okind) in enumerate(others):
        units.append(piece(f"o{k}", "red" if k % 2 else "blue", okind,
                           (at[0] + dx, at[1] + dy), facing=f))
    try:
        b = build_table(units, FS, width=60, height=46)
    except ScenarioError:
        assume(False)
    hx, hy = heading(away)
    both_retreats(b, "u", (at[0] - hx * 3, at[1] - hy * 3), moves, face, "falls back")


def test_retreats_in_play(monkeypatch):
    """Every retreat of 4 Austerlitz turns (routs, fall-backs, recoils): the plain
    slide's; most pass over some of the bases near."""
    seen = {"retreats": 0, "passed": 0}
    real, on_the_way = losses.retreat, losses._on_the_way

    def counted(fp, hx, hy, inches, others):
        kept = on_the_way(fp, hx, hy, inches, others)
        seen["passed"] += len(kept) < len(others)
        return kept

    def spy(battle, uid, away_from, moves, face, how, events, dice=None):
        both_retreats(battle, uid, away_from, moves, face, how)
        seen["retreats"] += 1
        return real(battle, uid, away_from, moves, face, how, events, dice)
    monkeypatch.setattr(losses, "_on_the_way", counted)
    for module in (losses, charges, *_importers("retreat")):
        monkeypatch.setattr(module, "retreat", spy)
    for _ in austerlitz_phases(FS, (), 4):
        pass
    # (two of the three slides per retreat count: the spy's own and the real one)
    assert seen["retreats"] > 10 and seen["passed"] > seen["retreats"], seen


def _importers(name: str) -> list:
    """The Featherstone modules that import `name` from losses by name."""
    import importlib
    out = []
    for m in ("melee", "morale", "moves", "charge_fire", "flow", "fire"):
        mod = importlib.import_module(f"manager.rules.featherstone.{m}")
        if getattr(mod, name, None) is getattr(losses, name):
            out.append(mod)
    return out


def both_paths(battle, unit, end):
    mine, ref = battle.copy(), battle.copy()
    ev1, ev2 = [], []
    GENERALS_IN_PATH(mine, mine.units[unit.id], end, SameDice(), ev1)
    plain_generals_in_path(ref, ref.units[unit.id], end, SameDice(), ev2)
    assert ev1 == ev2 and mine.fingerprint() == ref.fingerprint()
    return ev1


@settings(max_examples=150, deadline=None)
@given(st.floats(4, 14), st.lists(st.tuples(st.floats(-6, 6), st.floats(-3, 18)),
                                  min_size=1, max_size=4),
       st.lists(st.tuples(st.floats(-6, 6), st.floats(2, 18), st.integers(0, 359)),
                max_size=3), st.booleans())
def test_generals_in_a_charges_path_as_before(length, generals, friends, on_host):
    """A charge of `length` inches north at an enemy, red generals strewn along and
    beside its path (one standing on a friend's base, if asked), red friends about: the
    same shelters and overruns, events and battle as the plain pass."""
    units = [piece("c", "blue", "heavy_cavalry", (30.0, 40.0)),
             piece("t", "red", "line_infantry", (30.0, 40.0 - length - 3), facing=180)]
    leaders = {}
    for k, (dx, dy, f) in enumerate(friends):
        units.append(piece(f"f{k}", "red", "line_infantry", (30 + dx * 2, 40 - dy), facing=f,
                           command=f"r{k + 1}"))
    for j, (dx, dy) in enumerate(generals):
        cmd = f"g{j}"                           # each general leads a command of his own
        units.append(piece(f"h{j}", "red", "line_infantry", (6 + 7 * j, 56.0), command=cmd))
        leaders[cmd] = {"pos": [30 + dx, 40 - dy]}
    if on_host and friends:
        leaders["g0"] = {"pos": list(units[2]["pos"])}     # on the first friend's base
    try:
        b = build_table(units, FS, width=60, height=60, leaders=leaders)
    except ScenarioError:
        assume(False)
    end = footprint(b, b.units["c"], x=30.0, y=40.0 - length, facing=0)
    both_paths(b, b.units["c"], end)


def test_generals_in_paths_in_play(monkeypatch):
    """Every charge resolved in 6 Austerlitz turns: the plain pass's shelters and
    overruns."""
    seen = []
    real = charges._generals_in_path

    def spy(battle, unit, end, dice, events):
        both_paths(battle, unit, end)
        seen.append(1)
        return real(battle, unit, end, dice, events)
    monkeypatch.setattr(charges, "_generals_in_path", spy)
    for _ in austerlitz_phases(FS, (), 6):
        pass
    assert len(seen) > 10, len(seen)
