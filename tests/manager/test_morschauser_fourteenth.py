"""Morschauser's speed-ups of the fourteenth session give the very answers of the plain
code: the rear moves are walked only when read, and a check reads them only for a box
straight to the rear (where alone rear_moves finds any)."""
import random
import sys
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.grid import DIRS
from manager.rules.morschauser import moves
from manager.rules.morschauser import movement as mv
from manager.rules.morschauser.board import board, facing_dir
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def test_straight_back_is_every_box_behind_and_no_other():
    rng = random.Random(14)
    for _ in range(3000):
        start = (rng.randrange(-20, 20), rng.randrange(-20, 20))
        facing = rng.randrange(8)
        bx, by = DIRS[(facing + 4) % 8]
        k = rng.randrange(1, 12)
        assert moves.straight_back(start, (start[0] + bx * k, start[1] + by * k), facing)
        other = (start[0] + rng.randrange(-12, 13), start[1] + rng.randrange(-12, 13))
        behind = any(other == (start[0] + bx * j, start[1] + by * j) for j in range(1, 13))
        assert moves.straight_back(start, other, facing) == behind, (start, other, facing)


def _positions(seed: int, turns: int):
    """Austerlitz with the commander on both sides: the battle at every move phase."""
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=turns))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.step()
        if s.battle.state.phase == "move":
            yield s.battle


@pytest.mark.parametrize("seed", [1, 5])
def test_rear_moves_read_lazily_are_the_walk_and_lie_straight_back(seed):
    checked = 0
    for b in _positions(seed, 3):
        if b.version % 7:
            continue
        for u in b.live_units(b.state.active):
            if u.moved:
                continue
            fwd, rear, rear_step = mv.allowances(b, u)
            _, _, backs, _ = moves.move_options(b, u)
            want = mv.rear_moves(b, u, rear, rear_step)
            assert dict(backs) == want and list(backs) == list(want)
            here = board(b).unit_box[u.id]
            assert all(moves.straight_back(here, box, facing_dir(u)) for box in backs)
            checked += len(want)
    assert checked > 100


def test_rear_moves_refuse_to_be_read_after_a_change():
    b = next(_positions(1, 1))
    u = b.live_units(b.state.active)[0]
    backs = moves.move_options(b, u)[2]
    b.touch()
    with pytest.raises(RuntimeError):
        dict(backs)


def test_orders_kept_are_read_afresh_when_a_record_they_read_changes():
    from dataclasses import replace

    from manager.autopilot import read_orders
    from manager.rules.morschauser.commander import Commander
    b = next(_positions(1, 1))
    side = b.state.active
    cmd = Commander(b, side)
    cids = b.hierarchy.commands_of(side)
    for cid in cids:
        assert cmd.orders(cid) == read_orders(b, cid, side)
    first, other = cids[0], cids[-1]
    # new orders for the command: a new record
    b.put_command(replace(b.commands[first], orders={"kind": "reserve", "objective": [3, 4]}))
    assert cmd.orders(first) == ("reserve", (3, 4)) == read_orders(b, first, side)
    # a friendly command Shaken (the turn state): the reserve is released, the other withdraws
    b.set_state(shaken=b.state.shaken | {other})
    assert cmd.orders(first) == ("attack", (3, 4)) == read_orders(b, first, side)
    assert cmd.orders(other) == ("withdraw", None)
    # a command Shaken that is no one's yet: the reserve holds, until the hierarchy (and
    # nothing else) gives that command to this side
    b.set_state(shaken=frozenset({"ghost"}))
    assert cmd.orders(first) == ("reserve", (3, 4))
    b.set_hierarchy(b.hierarchy.with_command(side, "ghost"))
    assert cmd.orders(first) == ("attack", (3, 4)) == read_orders(b, first, side)


def test_orders_kept_answer_as_read_orders_all_through_a_battle(monkeypatch):
    from manager.autopilot import read_orders
    from manager.rules.morschauser import commander as cm
    real, asked = cm.Commander.orders, [0]

    def orders(self, cid):
        got = real(self, cid)
        assert got == read_orders(self.battle, cid, self.side)
        asked[0] += 1
        return got
    monkeypatch.setattr(cm.Commander, "orders", orders)
    for _ in _positions(3, 4):
        pass
    assert asked[0] > 1000


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_melees_found_from_the_units_with_someone_ahead_are_the_scan(seed):
    from morschauser_refs import ref_melees

    from manager.rules.morschauser.melee import melees
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=6))
    ap = Autopilot(s)
    ap.step()
    found = 0
    while not s.battle.state.over and s.battle.state.turn <= 6:
        ap.step()
        b = s.battle
        got = melees(b)
        assert got == ref_melees(b)
        found += len(got)
    assert found > 20


def test_melees_against_a_lone_leader_and_a_friend_ahead_are_the_scan():
    from morschauser_refs import ref_melees

    from manager.grid import step
    from manager.rules.morschauser.board import bombarding
    from manager.rules.morschauser.melee import melees
    b = next(p for p in _positions(1, 3) if not bombarding(p))
    side, brd = b.state.active, board(b)
    size = brd.grid.size
    free = [(u, step(brd.unit_box[u.id], facing_dir(u))) for u in
            sorted(b.live_units(side), key=lambda u: u.id)]
    free = [(u, box) for u, box in free if box not in brd.box_unit and box not in brd.box_leaders]
    enemy = next(l for l in b.live_leaders() if l.side != side)
    # a leader alone in the box ahead of one unit, a friend in the box ahead of another
    (_, ahead), (_, there) = free[0], free[1]
    b.update_leader(enemy.id, x=(ahead[0] + 0.5) * size, y=(ahead[1] + 0.5) * size)
    b.update_unit(free[-1][0].id, x=(there[0] + 0.5) * size, y=(there[1] + 0.5) * size)
    got = melees(b)
    assert got == ref_melees(b)
    assert any(m.lone_leader and m.defender == enemy.id for m in got)


def test_the_boards_box_of_every_live_unit_is_box_of_all_through_a_battle():
    # the commander reads a unit's box off the board, not its record's position
    from manager.rules.morschauser.board import box_of
    seen = 0
    for b in _positions(4, 3):
        brd = board(b)
        for u in b.live_units():
            assert brd.unit_box[u.id] == box_of(b, u)
            seen += 1
    assert seen > 10000
