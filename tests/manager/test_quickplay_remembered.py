"""Issue 17, quick-play (sixth session): answers remembered across battle versions.

- A line `hidden_lines.surely_hidden` found hidden is remembered with the base found across it;
  asked again with the same ends it is hidden still while that base lives on the very
  same footprint, and no pass is made for it. Held to the whole pass (nothing carried,
  nothing remembered) on random tables where bases move, turn and fall between the
  questions, and at every call of Austerlitz turns (where most lines are such repeats).
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from quickplay_refs import austerlitz, spot  # noqa: E402
from test_quickplay_speed import crowd  # noqa: E402

from manager.rules.quickplay.hidden_lines import surely_hidden as REAL_HIDDEN  # noqa: E402


def whole_pass(b, u, targets):
    """surely_hidden with nothing carried for the shooter and nothing remembered."""
    carry = b.kept("quickplay.blockers", dict)
    memo = b.kept("quickplay.hidden_by", dict)
    kept, mine = carry.pop(u.id, None), memo.pop(u.id, None)
    try:
        return REAL_HIDDEN(b, u, targets)
    finally:
        carry.pop(u.id, None)
        memo.pop(u.id, None)
        if kept is not None:
            carry[u.id] = kept
        if mine is not None:
            memo[u.id] = mine


def still_across(hit, a, b, t) -> bool:
    """Is the line a-b the one remembered (a, b, row, footprint of a base across it), that
    row's base alive on that very footprint? (surely_hidden's test of a remembered line)"""
    return hit is not None and hit[0] == a and hit[1] == b and t.fps[hit[2]] is hit[3] \
        and bool(t.alive[hit[2]])


def remembered_lines(b, u, targets) -> int:
    """How many of the lines u -> targets would be answered from what is remembered."""
    from manager.rules.quickplay.bases import bases
    mine = b.kept("quickplay.hidden_by", dict).get(u.id) or {}
    t = bases(b)
    return sum(still_across(mine.get(e.id), u.pos, e.pos, t) for e in targets)


change = st.tuples(st.integers(0, 15), st.sampled_from(["move", "turn", "fall", "mark"]),
                   spot, st.integers(0, 359))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(3, 16), st.lists(change, min_size=1, max_size=6))
def test_remembered_lines_give_the_pass_answers_on_random_tables(data, n, changes):
    """Every unit asks about every other; then one base moves, turns, falls or only gets
    a mark (a new record on the same base), and all ask again: each answer is the whole
    pass's, remembered or not."""
    b = crowd(data, n)
    ids = list(b.units)
    used = 0
    for step in [None] + changes:
        if step is not None:
            k, what, xy, facing = step
            uid = ids[k % len(ids)]
            if what == "move":
                b.update_unit(uid, x=float(xy[0]), y=float(xy[1]))
            elif what == "turn":
                b.update_unit(uid, facing=facing)
            elif what == "fall":
                b.update_unit(uid, eliminated=True)
            else:
                b.mark_unit(uid, acted=facing)
        units = b.live_units()
        for u in units:
            targets = [e for e in units if e.id != u.id]
            used += remembered_lines(b, u, targets)
            assert REAL_HIDDEN(b, u, targets) == whole_pass(b, u, targets)
            assert REAL_HIDDEN(b, u, targets[::-1][:3]) == whole_pass(b, u, targets[::-1][:3])


def test_a_remembered_line_stands_while_its_base_stands():
    from manager.rules.quickplay.hidden_lines import surely_hidden
    from builders import build_table, piece
    b = build_table([piece("a", "blue", "line_infantry", (10, 18), facing=90),
                     piece("o", "blue", "line_infantry", (20, 18), facing=90),
                     piece("p", "blue", "line_infantry", (20, 30), facing=90),
                     piece("e", "red", "line_infantry", (30, 18), facing=270)], "quickplay")
    u, e = b.units["a"], b.units["e"]
    assert surely_hidden(b, u, [e]) == [True]
    b.mark_unit("o", acted=1)                           # a new record, the same base
    assert remembered_lines(b, b.units["a"], [e]) == 1
    assert surely_hidden(b, b.units["a"], [e]) == [True]
    b.update_unit("p", x=40.0)                          # another base moves: no matter
    assert remembered_lines(b, b.units["a"], [e]) == 1
    b.update_unit("o", y=22.5)                          # the base across steps aside
    assert remembered_lines(b, b.units["a"], [e]) == 0
    assert surely_hidden(b, b.units["a"], [e]) == [False]
    b.update_unit("o", y=18.0)
    assert surely_hidden(b, b.units["a"], [e]) == [True]
    b.update_unit("o", eliminated=True)                 # falls: remembered no more
    assert remembered_lines(b, b.units["a"], [e]) == 0
    assert surely_hidden(b, b.units["a"], [e]) == [False]


def test_remembered_lines_give_the_pass_answers_in_play():
    """Every call of the commander in eight Austerlitz turns (seed 2) gives the whole
    pass's answers; and thousands of lines are answered from what is remembered."""
    from manager.rules.quickplay import commander, hidden_lines
    s, ap = austerlitz(8, seed=2)
    real = hidden_lines.surely_hidden
    used = []

    def both(battle, unit, targets):
        used.append(remembered_lines(battle, unit, targets))
        got = real(battle, unit, targets)
        assert got == whole_pass(battle, unit, targets)
        return got

    hidden_lines.surely_hidden = commander.surely_hidden = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 8:
            ap.step()
    finally:
        hidden_lines.surely_hidden = commander.surely_hidden = real
    assert sum(used) > 1000, sum(used)


# ---- the base a unit's spot landed on last, asked first ----------------------------------
def engine_lands(b, u, to, facing):
    from manager import spatial
    from manager.rules.quickplay.units import footprint
    end = footprint(b, u, x=to[0], y=to[1], facing=facing, formation=u.formation)
    return spatial.lands_on(b, u, end, footprint)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 14), st.floats(0, 360), st.floats(0.5, 14))
def test_a_carried_landing_is_the_engines_answer_on_random_tables(data, n, way, want):
    """Each unit tries spots along one line (the commander's three distances, two
    facings) with each other unit carried as the base it landed on last (right or wrong,
    eliminated too): every answer is the engine's."""
    from manager.footprint import heading
    from manager.rules.quickplay.move_ground import landing
    b = crowd(data, n)
    if data.draw(st.booleans()):
        b.update_unit(list(b.units)[0], eliminated=True)
    carried = b.kept("quickplay.landed_on", dict)
    hx, hy = heading(way)
    for u in b.live_units():
        far = (u.x + hx * want, u.y + hy * want)
        others = list(b.units)
        for carry in [()] + [(o,) for o in others] + [tuple(others[:3])]:
            carried[u.id] = carry
            lands = landing(b, u, far)
            for k in (1.0, 0.6, 0.3):
                to = (round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
                for facing in (round(way) % 360, u.facing):
                    assert lands(to, facing) == engine_lands(b, u, to, facing)


def test_carried_landings_are_the_engines_answers_in_play():
    """Every spot the commander tried in six Austerlitz turns (seed 1) is judged as the
    engine judges it; and many are settled by the carried base alone."""
    from manager.rules.quickplay import commander, move_ground
    s, ap = austerlitz(6)
    real = move_ground.landing
    settled = []

    def both(battle, unit, far):
        lands = real(battle, unit, far)

        def check(to, facing):
            carried = battle.kept("quickplay.landed_on", dict).get(unit.id, ())
            got = lands(to, facing)
            assert got == engine_lands(battle, unit, to, facing)
            end = move_ground.footprint(battle, unit, x=to[0], y=to[1], facing=facing,
                                  formation=unit.formation)
            settled.append(got and any(
                not battle.units[o].eliminated and
                move_ground.overlap(end, move_ground.footprint(battle, battle.units[o])) for o in carried))
            return got
        return check

    move_ground.landing = commander.landing = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 6:
            ap.step()
    finally:
        move_ground.landing = commander.landing = real
    assert sum(settled) > 100, sum(settled)
