"""Issue 17, sixth session: Featherstone's engaged units read from the chargers view kept
from the change journal, and a unit's own base read from its memo (spatial.own_base),
answer as the plain scan and the plain build do at every step of play."""
from __future__ import annotations

import sys

from play_checks import ROOT
from manager.autopilot import Autopilot
from manager.model.forces import mark
from manager.rules.featherstone import state
from manager.session import Session


def plain_engaged(battle) -> frozenset:
    ids = set()
    for u in battle.live_units():
        t = mark(u, "charging")
        if t:
            ids.update((u.id, t))
    return frozenset(ids)


def test_engaged_and_own_bases_are_the_plain_ones_in_play():
    """Every step of 3 Austerlitz turns: the engaged ids are the scan of every live
    unit's charging mark, and each live unit's base (asked twice: the build, then the
    memo's answer) is the one built afresh; some steps have units engaged."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=3))
    ap = Autopilot(s)
    steps = engaged_steps = 0
    while not s.battle.state.over and s.battle.state.turn <= 3 and ap.step():
        b = s.battle
        ids = state._engaged_ids(b)
        assert ids == plain_engaged(b)
        engaged_steps += bool(ids)
        for u in b.live_units():
            assert state.engaged(b, u) == (u.id in ids)
            fresh = state._footprint(b, u, None, None, None, None)
            assert state.footprint(b, u) == fresh
            assert state.footprint(b, u) == fresh        # the memo's answer
        steps += 1
    assert steps > 100 and engaged_steps >= 5


# ---- tenth session: a base's size kept per kind, figures, formation and stand scale --------
def plain_size(battle, unit, formation=None) -> tuple:
    """state._footprint's frontage and depth as they were built on every ask."""
    import math
    from manager.rules.featherstone.tables import RANKS, STAND_FIGURES, STAND_SIZE
    scale = float(battle.option("stand_scale", 1.0) or 1.0)
    a = state.arm(unit)
    w, d = STAND_SIZE[a]
    form = formation or unit.formation
    if a == "artillery":
        front, depth = w, d
    else:
        stands = math.ceil(unit.max_hits / STAND_FIGURES[a])
        deep = RANKS[a].get(form, 1)
        if form == "square":
            side = max(w * 1.5, d * 2 * 2)
            front, depth = side, side
        else:
            deep = min(deep, stands)
            front, depth = math.ceil(stands / deep) * w, deep * d
    return front * scale, depth * scale


def test_base_sizes_are_the_plain_build_for_every_kind_formation_and_scale():
    """Every kind, figures 1-40, every formation (and one no table names), stand scales
    1, 2.5, 0 (read as 1) and None: the kept size is the plain build's, to the bit."""
    from dataclasses import replace
    from builders import build_table, piece
    from manager.rules.featherstone.tables import PROFILES
    for scale in (1.0, 2.5, 0, None):
        b = build_table([piece("a", "blue", "line_infantry", (20, 30))], "featherstone")
        b.info = replace(b.info, options={**b.info.options, "stand_scale": scale})
        u = b.units["a"]
        for kind in PROFILES:
            for hits in range(1, 41):
                v = replace(u, kind=kind, max_hits=hits, hits=hits)
                for form in ("line", "column", "march_column", "square", "extended",
                             "skirmish", None):
                    fp = state._footprint(b, v, 1.0, 2.0, 30, form)
                    assert (fp.frontage, fp.depth) == plain_size(b, v, form)
                    assert (fp.x, fp.y, fp.facing) == (1.0, 2.0, 30)
