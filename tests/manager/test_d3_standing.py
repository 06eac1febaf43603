"""Issue 17, seventh session: a unit that stands whatever it could shoot is not asked.

A deployed gun, or a unit held in reserve, or a unit with under half an inch to go to its
standoff, already facing its nearest enemy (within 40 degrees), stands both when it could
shoot ("stand and shoot") and when it could not (`_face`: no need to turn):
`Commander._unit` answers None before `_could_shoot`'s pass over its lines (a gun has ~45
candidates); nor is it asked of a unit with no enemy centre within its range + 4. The order is the plain `_unit`'s (the code
before, kept here), on random tables and in play."""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _plain_unit(self, u):
    """Commander._unit as it was (fab4215): `_could_shoot` asked before standing."""
    from manager.footprint import bearing, distance, heading
    from manager.game_actions import MoveUnit
    from manager.model.forces import mark
    from manager.rules.d3.moves import lands_on_another, surely_blocked_each
    from manager.rules.d3.tables import MOVE
    from manager.rules.d3.units import near, utype
    b = self.battle
    t = utype(u)
    enemies = near(b, u.pos, 60, b.enemy_of(self.side))
    if not enemies:
        return None
    kind, obj = self.orders(u)
    if t == "cavalry" and kind != "reserve":
        action = self._cavalry(u, kind)
        if action is not None:
            return action
    enemy = min(enemies, key=lambda e: distance(e.pos, u.pos))
    gap = distance(enemy.pos, u.pos)
    if t != "cavalry" and self._could_shoot(u):
        return None
    if kind in ("reserve",) or (t == "artillery" and mark(u, "deployed")):
        return self._face(u, enemy)
    standoff = {"infantry": 10.0, "skirmishers": 10.0, "artillery": 30.0, "cavalry": 10.0}[t]
    if kind == "withdraw":
        way, want = self.back_bearing(), MOVE[t]
    else:
        goal = enemy.pos if (gap < self.engage(u, 30) or obj is None or kind == "hold") else obj
        if kind == "hold" and obj is not None and distance(u.pos, obj) > 3:
            goal = obj
        way = bearing(u.pos, goal)
        want = min(MOVE[t], max(distance(u.pos, goal) - (standoff if goal == enemy.pos else 0), 0))
    if want < 0.5:
        return self._face(u, enemy)
    face_to = round(bearing(u.pos, enemy.pos)) % 360 if kind != "withdraw" else round(way) % 360
    hx, hy = heading(way)
    tos = [(round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
           for k in (1.0, 0.75, 0.5, 0.25)]
    for to, blocked in zip(tos, surely_blocked_each(b, u, tos)):
        if blocked:
            continue
        for facing in (face_to, round(way) % 360, u.facing):
            if lands_on_another(b, u, to, facing):
                continue
            action = MoveUnit(u.id, to, facing)
            if self.legal(action):
                return action
    return None


KINDS = ["foot_artillery", "line_infantry", "light_cavalry", "skirmishers"]
spot = st.tuples(st.floats(6, 42), st.floats(4, 32))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, st.integers(0, 359), st.sampled_from(KINDS), st.booleans(), st.booleans(),
       st.lists(st.tuples(spot, st.integers(0, 359)), min_size=1, max_size=3),
       st.lists(spot, max_size=3))
def test_d3_standing_unit_orders_as_before(at, facing, kind, deployed, reserve, enemies,
                                           friends):
    """A gun (deployed or not) or another unit, held in reserve or not, its enemies
    anywhere near, friends in the way or not: the same order as the plain `_unit`."""
    from builders import build_table, piece, session_at

    from manager.rules.d3.commander import Commander
    placed = [piece("u", "blue", kind, at, facing=facing)]
    placed += [piece(f"e{k}", "red", "line_infantry", p, facing=f)
               for k, (p, f) in enumerate(enemies)]
    placed += [piece(f"f{k}", "blue", "line_infantry", p) for k, p in enumerate(friends)]
    s, _ = session_at(build_table(placed, "d3"), "move", side="blue")
    b = s.battle
    if deployed and kind == "foot_artillery":
        b.mark_unit("u", deployed=True)
    c = Commander(b, "blue")
    if reserve:
        c.orders = lambda unit: ("reserve", None)
    u = b.units["u"]
    assert c._unit(u) == _plain_unit(c, u)


def test_d3_standing_unit_skips_only_when_it_stands():
    """Not vacuous: a deployed gun facing its target, or any unit within half an inch of
    its standoff facing it, is not asked whether it could shoot; turned away from it, or
    with ground to cover, it is."""
    from builders import build_table, piece, session_at

    from manager.rules.d3.commander import Commander

    def asked(kind, facing, deployed, y):
        b = build_table([piece("g", "blue", kind, (24, y), facing=facing),
                         piece("e", "red", "line_infantry", (24, 2))], "d3")
        s, _ = session_at(b, "move", side="blue")
        if deployed:
            s.battle.mark_unit("g", deployed=True)
        c = Commander(s.battle, "blue")
        seen = []
        could = c._could_shoot
        c._could_shoot = lambda u: seen.append(u.id) or could(u)
        u = s.battle.units["g"]
        got, was_asked = c._unit(u), bool(seen)
        assert got == _plain_unit(c, u)
        return was_asked

    gun = "foot_artillery"
    assert not asked(gun, 0, True, 34)      # deployed, facing the enemy (north): stands
    assert asked(gun, 90, True, 34)         # turned away: could it shoot? else it turns
    assert asked(gun, 0, False, 34)         # not deployed, 32 inches off: it may march on
    assert not asked(gun, 0, False, 20)     # within its 30-inch standoff: it stands
    assert not asked("line_infantry", 0, False, 12)   # 10 inches off, its standoff
    assert asked("line_infantry", 0, False, 16)       # 14 inches off: in reach, may close
    assert asked("line_infantry", 90, False, 12)      # at its standoff, turned away


def test_d3_standing_units_order_as_before_in_play(monkeypatch):
    """Four Austerlitz turns: every unit's move order is the plain `_unit`'s, and some
    deployed guns or reserves were not asked whether they could shoot."""
    from manager.autopilot import Autopilot
    from manager.rules.d3 import commander
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    unit, could = commander.Commander._unit, commander.Commander._could_shoot
    seen = [0, 0, 0]

    def counted(self, u):
        seen[1] += 1
        return could(self, u)

    def checked(self, u):
        n0 = seen[1]
        got = unit(self, u)
        n1 = seen[1]
        assert got == _plain_unit(self, u)
        seen[0] += 1
        seen[2] += n1 == n0 and seen[1] > n1          # the plain one asked; this did not
        return got

    monkeypatch.setattr(commander.Commander, "_unit", checked)
    monkeypatch.setattr(commander.Commander, "_could_shoot", counted)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=4))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 4:
        ap.play_turn()
    assert seen[0] > 200 and seen[2] > 10, seen
