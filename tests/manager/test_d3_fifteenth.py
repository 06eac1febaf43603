"""d3's fifteenth-session speed pieces (issue 17): each fast answer against the plain one it
replaces, on real positions and at the edges."""
import math
from dataclasses import replace
from types import MappingProxyType

import pytest

from test_d3_speed import _battle


def _plain_scale(battle) -> float:
    return float(battle.option("frontage_scale", 1.0) or 1.0)


@pytest.mark.parametrize("scales", [(None, 0.7, 0.7, 2.0, None, -1.5, 0, 1.0)])
def test_d3_frontage_scale_follows_each_battles_info(scales):
    """The kept frontage_scale (and largest_half, and every base built from it) is the
    option's own for the battle asked, as battles with other options are asked in turn
    (a copy with a new info, back to the first, an unset option, a zero, a negative)."""
    from manager.rules.d3.tables import DEPTH, FRONTAGE
    from manager.rules.d3.units import (HALF_DIAGONAL, _footprint, frontage_scale, largest_half,
                                        utype)
    first = _battle("austerlitz")
    battles = []
    for scale in scales:
        b = first.copy()
        options = dict(b.info.options)
        options.pop("frontage_scale", None)
        if scale is not None:
            options["frontage_scale"] = scale
        b.set_info(replace(b.info, options=MappingProxyType(options)))
        battles.append(b)
    u = first.live_units()[0]
    for b in battles + battles[::-1] + [first]:
        k = _plain_scale(b)
        assert frontage_scale(b) == k
        assert largest_half(b) == HALF_DIAGONAL * abs(k)
        fp = _footprint(b, u, 1.0, 2.0, 30)
        assert (fp.frontage, fp.depth) == (FRONTAGE[utype(u)] * k, DEPTH[utype(u)] * k)


def test_d3_frontage_scale_in_play():
    """Through a played d3 turn the kept scale is the option's at every ask."""
    from manager.autopilot import Autopilot
    from manager.rules.d3 import units
    from manager.session import Session
    s = Session(_battle("austerlitz").copy())
    seen = []
    real = units._scaled

    def both(battle):
        got = real(battle)
        seen.append(got[1] == _plain_scale(battle) and
                    got[2] == units.HALF_DIAGONAL * abs(_plain_scale(battle)))
        return got
    units._scaled = both
    try:
        ap = Autopilot(s)
        ap.step()
        ap.play_turn()
    finally:
        units._scaled = real
    assert len(seen) > 1000 and all(seen)
    assert not math.isnan(units.largest_half(s.battle))
