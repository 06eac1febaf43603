"""The targeted check of one move (A*) agrees with the full search the UI and the
commander use, for every unit, box and facing, in positions reached by random play."""
import random
from pathlib import Path

import pytest

from manager import game_actions as ga
from manager.rules.morschauser.board import board
from manager.rules.morschauser.moves import _cost_from_reach, _targeted_cost, move_options
from manager.scenario_io import load_scenario
from manager.session import Session
from test_properties import candidates

SKIRMISH = Path(__file__).parent.parent / "data" / "skirmish.toml"


def full_cost(battle, unit, box, facing):
    """The reference: the answer read off the full search."""
    move_options(battle, unit)                   # make sure the full search is there
    return _cost_from_reach(battle, unit, box, facing, "")


@pytest.mark.parametrize("seed", range(3))
def test_targeted_and_full_search_agree(seed):
    s = Session(load_scenario(SKIRMISH))
    s.execute(ga.StartBattle())
    rng = random.Random(seed)
    checked = 0
    for _ in range(40 + 10 * seed):
        if s.battle.state.over:
            break
        options = candidates(s)
        s.execute(options[rng.randrange(len(options))])
        if s.battle.state.phase != "move":
            continue
        b = s.battle
        brd = board(b)
        movers = [u for u in b.live_units(b.state.active) if not u.moved]
        for u in rng.sample(movers, min(2, len(movers))):
            here = brd.unit_box[u.id]
            for dc in range(-6, 7):
                for dr in range(-6, 7):
                    box = (here[0] + dc, here[1] + dr)
                    for facing in range(8):
                        targeted = _targeted_cost(b, u, box, facing)
                        assert targeted == full_cost(b, u, box, facing), (u.id, box, facing)
                        checked += 1
    assert checked > 1000
