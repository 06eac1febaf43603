"""Issue 17, quick-play (fifth session): answers the commander's first looks already hold.

- `hidden_lines.surely_hidden`'s pass also tells the lines that surely meet no base the rules'
  scan tests (`clear_lines`): `sight_refusal` of such a line asks only the terrain. Held
  to the scan (every base near the line asked with shapely) on random crowded tables,
  at touching distances, and on every such line asked in three turns of Austerlitz.
- A shooter's lines are first tried against the (one or two) bases that hid the most of
  its lines last time; when they surely cross every line the pass is not made. The
  answers are the pass's, on random tables and at every call of four Austerlitz turns
  (the carried bases by then long moved on).
- `units.cover` looks at the boxes of towns, woods and walls first and remembers the
  answer by the base: the shapes' answer on random tables and in play.
- The commander weighs shots from the strongest each could be (`combat.volley_bound`)
  down and stops when none left can beat the best allowed: the bound is never below
  the volley the rules allow (random tables with cover), and every pick in four
  Austerlitz turns is the pick of weighing every shot (the old code, kept here).
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table, piece  # noqa: E402
from quickplay_refs import AREAS, LINES, austerlitz, box_table, spot  # noqa: E402
from test_quickplay_speed import crowd, new_sight_blockers  # noqa: E402

from manager.rules.quickplay.hidden_lines import surely_hidden as REAL_HIDDEN  # noqa: E402


def scan_blockers(b, a, z, ignore):
    """The bases sight_refusal's scan finds across the line (shapely, no first look)."""
    return [k for k in new_sight_blockers(b, a, z) if k not in ignore]


def judge_lines(b, u, targets):
    """Each line's "surely hidden" and "clear" claims against the scan: a hidden line
    has a base across it, a clear one none (and is remembered for this version only
    when clear)."""
    from manager.rules.quickplay.hidden_lines import clear_lines, surely_hidden
    hidden = surely_hidden(b, u, targets)
    kept = clear_lines(b)
    claims = 0
    for e, h in zip(targets, hidden):
        found = scan_blockers(b, u.pos, e.pos, (u.id, e.id))
        clear = (u.pos, e.pos, u.id, e.id) in kept
        assert not (h and clear)
        if h:
            assert found, (u.id, e.id)
        if clear:
            assert not found, (u.id, e.id, found)
        claims += h or clear
    return claims


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(2, 16))
def test_clear_and_hidden_lines_are_the_scans_on_random_tables(data, n):
    b = crowd(data, n)
    for u in b.live_units():
        targets = [e for e in b.live_units() if e.id != u.id]
        judge_lines(b, u, targets)


@settings(max_examples=80, deadline=None)
@given(st.floats(-3, 3), st.floats(0, 3), st.integers(0, 359), st.sampled_from(
    ["line_infantry", "light_cavalry", "foot_artillery"]), st.floats(-1e-5, 1e-5))
def test_bases_at_the_line_are_judged_as_the_scan(dx, dy, facing, kind, hair):
    """Bases set about the line, some touching it to a hair: a claim either way is the
    scan's, whichever side of the margin the hair falls (few pairs: plain floats; many:
    numpy)."""
    from manager.rules.quickplay.units import footprint
    units = [piece("a", "blue", "line_infantry", (10, 18), facing=90),
             piece("e", "red", "line_infantry", (38, 18), facing=270),
             piece("f", "red", "line_infantry", (38, 26), facing=270)]
    # a blocker whose lowest corner lies dy and a hair short of the line a-e (y = 18)
    b2 = build_table(units + [piece("o", "blue", kind, (24 + dx, 18), facing=facing)],
                     "quickplay")
    o = footprint(b2, b2.units["o"])
    low = max(y for _, y in o.corners()) - o.y
    b3 = build_table(units + [piece("o", "blue", kind, (24 + dx, 18 - low - dy - hair),
                                    facing=facing)], "quickplay")
    u = b3.units["a"]
    judge_lines(b3, u, [b3.units["e"], b3.units["f"]])
    many = build_table(units + [piece("o", "blue", kind, (24 + dx, 18 - low - dy - hair),
                                      facing=facing)] +
                       [piece(f"x{k}", "blue", "line_infantry", (12 + k, 33)) for k in range(12)],
                       "quickplay")
    judge_lines(many, many.units["a"], [many.units["e"], many.units["f"]])


def test_a_base_squarely_across_hides_and_an_open_line_is_clear():
    from manager.rules.quickplay.hidden_lines import clear_lines, surely_hidden
    b = build_table([piece("a", "blue", "line_infantry", (10, 18), facing=90),
                     piece("o", "blue", "line_infantry", (20, 18), facing=90),
                     piece("e", "red", "line_infantry", (30, 18), facing=270),
                     piece("f", "red", "line_infantry", (30, 30), facing=270)], "quickplay")
    u = b.units["a"]
    assert surely_hidden(b, u, [b.units["e"], b.units["f"]]) == [True, False]
    kept = clear_lines(b)
    assert (u.pos, b.units["f"].pos, "a", "f") in kept
    assert (u.pos, b.units["e"].pos, "a", "e") not in kept


def test_clear_lines_in_play_are_the_scans_answers():
    """Every sight_refusal of three Austerlitz turns answered from `clear_lines` is the
    answer of the full scan; and many are."""
    from manager.rules.quickplay import hidden_lines, units
    s, ap = austerlitz(3)
    real = units.sight_refusal
    used = []

    def both(battle, a_xy, b_xy, ignore=()):
        got = real(battle, a_xy, b_xy, ignore)
        if len(ignore) == 2 and (tuple(a_xy), tuple(b_xy), *ignore) in \
                hidden_lines.clear_lines(battle):
            used.append(1)
            assert not scan_blockers(battle, a_xy, b_xy, ignore)
            assert got == units.terrain_sight(battle, a_xy, b_xy)
        return got

    units.sight_refusal = both
    import manager.rules.quickplay.combat as combat
    import manager.rules.quickplay.melee as melee
    combat.sight_refusal = melee.sight_refusal = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 3:
            ap.step()
    finally:
        units.sight_refusal = combat.sight_refusal = melee.sight_refusal = real
    assert len(used) > 100


# ---- cover: boxes first, remembered by the base ---------------------------------------------
KINDS = ["line_infantry", "light_cavalry", "foot_artillery", "skirmishers"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(AREAS + ["town", "woods"]), spot, st.floats(1, 8),
       st.sampled_from(LINES + ["wall", "wall"]), st.floats(3, 45), st.sampled_from(KINDS),
       spot, st.integers(0, 359))
def test_cover_by_boxes_first_is_the_cover_measured(kind, c, r, line, lx, ukind, at, facing):
    from manager.rules.quickplay.units import _cover, cover, footprint
    b = box_table(kind, c, r, line, lx, ukind)
    u = b.units["a"]
    fp = footprint(b, u, x=at[0], y=at[1], facing=facing)
    assert _cover(b, u, fp) == _cover(b, u, fp, boxes_first=False)
    assert cover(b, u) == _cover(b, u, footprint(b, u), boxes_first=False)


def test_cover_in_play_is_the_cover_measured():
    """Every target's cover asked in three Austerlitz turns (towns, woods) is the shapes'
    answer; some targets are in cover."""
    from manager.rules.quickplay import units
    s, ap = austerlitz(3)
    real = units._cover
    seen = []

    def both(battle, unit, fp, boxes_first=True):
        got = real(battle, unit, fp, boxes_first)
        assert got == real(battle, unit, fp, boxes_first=False)
        seen.append(got)
        return got

    units._cover = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 3:
            ap.step()
    finally:
        units._cover = real
    assert len(seen) > 20


# ---- shots weighed from the strongest down ---------------------------------------------------
def old_targets(c, u, cands):
    """The commander's `_targets` before: every shot not passed over is checked, sorted."""
    from manager.game_actions import Fire
    from manager.rules.quickplay.melee_odds import fire_odds
    b = c.battle
    out = []
    for e, hidden in zip(cands, c._hidden(u, cands)):
        action = Fire(u.id, e.id)
        if not hidden and not c._seen_blocked(u, e) and c.legal(action):
            out.append((float(fire_odds(b, action).lines[0].dist.mean()), e.id, action))
    return sorted(out, reverse=True)


def test_every_shot_picked_in_play_is_the_pick_of_weighing_all():
    from manager.rules.quickplay.commander import Commander
    s, ap = austerlitz(4)
    real = Commander._targets
    picks = []

    def both(self, u, cands=None):
        cands = self._shot_candidates(u) if cands is None else cands
        got = real(self, u, cands)
        want = old_targets(self, u, cands)
        assert got == want[:1], (u.id, got, want[:3])
        picks.append(len(want))
        return got

    Commander._targets = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 4:
            ap.step()
    finally:
        Commander._targets = real
    assert sum(1 for n in picks if n > 1) >= 15         # real choices among shots


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(2, 12), st.sampled_from(["town", "woods", "fields"]), spot,
       st.floats(2, 10), st.sampled_from(["round_down", "round_up"]))
def test_a_volley_is_never_stronger_than_its_bound(data, n, kind, c, r, rounding):
    from manager.errors import IllegalAction
    from manager.rules.quickplay.combat import volley, volley_bound
    from manager.rules.quickplay.melee_odds import volley_mean
    from test_quickplay_speed import KINDS as UKINDS
    units = [piece(f"u{k}", "blue" if k % 2 == 0 else "red",
                   data.draw(st.sampled_from(UKINDS + ["skirmishers", "militia"])),
                   data.draw(spot), facing=data.draw(st.integers(0, 359)),
                   formation=data.draw(st.sampled_from(["line", "column"])))
             for k in range(n)]
    area = [{"kind": kind, "points": [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r],
                                      [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]}]
    b = build_table(units, "quickplay", terrain=area, options={"long_range_dice": rounding})
    for u in b.live_units():
        for e in b.live_units():
            if e.side == u.side:
                continue
            try:
                v = volley(b, u, e)
            except IllegalAction:
                continue
            bound = volley_bound(b, u, e)
            assert volley_mean(bound) >= volley_mean(v)
            assert bound.dice >= v.dice and bound.plus == v.plus


# ---- the bases that hid a shooter's lines before, tried first ------------------------------
def fresh_hidden(b, u, targets):
    """surely_hidden with nothing carried for the shooter (the whole pass)."""
    surely_hidden = REAL_HIDDEN
    carry = b.kept("quickplay.blockers", dict)
    kept = carry.pop(u.id, None)
    try:
        return surely_hidden(b, u, targets)
    finally:
        if kept is not None:
            carry[u.id] = kept


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(3, 16))
def test_carried_blockers_give_the_pass_answers_on_random_tables(data, n):
    from manager.rules.quickplay.hidden_lines import surely_hidden
    b = crowd(data, n)
    units = b.live_units()
    carry = b.kept("quickplay.blockers", dict)
    for u in units:
        targets = [e for e in units if e.id != u.id]
        want = fresh_hidden(b, u, targets)
        # carry each other unit as this shooter's blocker in turn (right or wrong)
        for o in units:
            carry[u.id] = (o.id,)
            assert surely_hidden(b, u, targets) == want
            assert surely_hidden(b, u, targets[:1]) == want[:1]


def test_carried_blockers_give_the_pass_answers_in_play():
    from manager.rules.quickplay import commander, hidden_lines
    s, ap = austerlitz(4)
    real = hidden_lines.surely_hidden
    short = []

    def both(battle, unit, targets):
        had = battle.kept("quickplay.blockers", dict).get(unit.id)
        got = real(battle, unit, targets)
        assert got == fresh_hidden(battle, unit, targets)
        short.append(bool(had) and all(got))
        return got

    hidden_lines.surely_hidden = commander.surely_hidden = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 4:
            ap.step()
    finally:
        hidden_lines.surely_hidden = commander.surely_hidden = real
    assert sum(short) > 100
