"""Small battles built in code for clause tests: every piece where the test says.

Boxes are (col, row) on a 3-inch grid; blue starts west facing east, red east
facing west. Leaders sit where the test puts them (default: two boxes behind their command's
first unit, out of the way of shots and melees, near enough that no one is slowed).
"""
from __future__ import annotations

from manager import game_actions as ga
from manager.dice import QueueSource
from manager.scenario_io import battle_from_dict
from manager.session import Session

BOX = 3.0


def centre(box):
    return ((box[0] + 0.5) * BOX, (box[1] + 0.5) * BOX)


def unit(uid, side, kind, at, facing=None, command=None, **extra):
    return dict(id=uid, side=side, kind=kind, at=list(at),
                facing=facing if facing is not None else (90 if side == "blue" else 270),
                command=command or ("b1" if side == "blue" else "r1"), **extra)


def build(units, terrain=(), options=None, leaders=None, width=20, height=12, first="blue",
          generals=None, turns=12, nations=("france", "russia"), ruleset="morschauser"):
    """leaders: {command id: (col, row) or dict(at=..., quality=..., trait=...)}."""
    leaders = dict(leaders or {})
    units = list(units)
    for sid, corner in (("blue", (0, height - 1)), ("red", (width - 1, height - 1))):
        if not any(u["side"] == sid for u in units):     # a battle needs two sides
            units.append(unit(f"{sid}-sentinel", sid, "line_infantry", corner,
                              command=f"{sid[0]}9"))
    sides = []
    for sid, nation, edge in (("blue", nations[0], "west"), ("red", nations[1], "east")):
        cmds = {}
        for u in units:
            if u["side"] == sid:
                cmds.setdefault(u["command"], []).append(u)
        side = {"id": sid, "name": sid.title(), "nation": nation, "home_edge": edge, "commands": []}
        if generals and sid in generals:
            side["general"] = {"id": f"{sid}-gen", "name": f"{sid.title()} General",
                               "quality": 3, **generals[sid]}
        for cid, us in cmds.items():
            spec = leaders.get(cid)
            if spec is None:     # default: two boxes behind the command's first unit
                c, r = us[0]["at"]
                spec = {"at": [max(c - 2, 0) if sid == "blue" else min(c + 2, width - 1), r]}
            elif isinstance(spec, (tuple, list)):
                spec = {"at": list(spec)}
            leader = {"id": f"{cid}-ldr", "name": f"Leader {cid}", "quality": 3, **spec}
            leader["at"] = list(leader["at"])
            side["commands"].append({
                "id": cid, "name": f"Command {cid}", "leader": leader,
                "units": [{k: v for k, v in u.items() if k not in ("side", "command")} for u in us]})
        sides.append(side)
    data = {"scenario": {"name": "test", "ruleset": ruleset, "seed": 1, "turns": turns,
                         "first_side": first},
            "options": {ruleset: dict(options or {})},
            "table": {"width": width * BOX, "height": height * BOX, "grid": BOX},
            "terrain": [dict(t) for t in terrain], "sides": sides}
    return battle_from_dict(data, "<test>")


def area(kind, c0, r0, c1, r1, **extra):
    """An area covering boxes c0..c1, r0..r1 inclusive."""
    return {"kind": kind, "points": [[c0 * BOX, r0 * BOX], [(c1 + 1) * BOX, r0 * BOX],
                                     [(c1 + 1) * BOX, (r1 + 1) * BOX], [c0 * BOX, (r1 + 1) * BOX]],
            **extra}


def line(kind, *boxes, **extra):
    return {"kind": kind, "points": [list(centre(b)) for b in boxes], **extra}


def point(kind, box, **extra):
    return {"kind": kind, "points": [list(centre(box))], **extra}


def session(battle, faces=(), phase="move"):
    """A started session with manual dice, advanced to the phase asked for."""
    src = QueueSource(faces)
    s = Session(battle, src)
    s.execute(ga.StartBattle())
    while s.battle.state.phase != phase:
        s.execute(ga.EndPhase())
    return s, src


def move(s, uid, box, facing):
    return s.execute(ga.MoveUnit(uid, centre(box), facing))


def legal(s, action) -> bool:
    return s.is_legal(action)


# ---- open tables in inches (the inch rulesets) -----------------------------------------
def piece(uid, side, kind, pos, facing=None, command=None, **extra):
    """A unit at pos (inches); blue faces north (0), red south (180) unless told."""
    return dict(id=uid, side=side, kind=kind, pos=list(pos),
                facing=facing if facing is not None else (0 if side == "blue" else 180),
                command=command or ("b1" if side == "blue" else "r1"), **extra)


def build_table(units, ruleset, terrain=(), options=None, leaders=None, width=48.0,
                height=36.0, first="blue", turns=12, generals=None):
    """An open-table battle; leaders: {command id: dict(pos=..., quality=...)}; a command
    without one gets a leader in the table's corner, out of everyone's way."""
    units = list(units)
    for sid, corner in (("blue", (1.5, height - 1.0)), ("red", (width - 1.5, 1.0))):
        if not any(u["side"] == sid for u in units):
            units.append(piece(f"{sid}-sentinel", sid, "line_infantry", corner,
                               command=f"{sid[0]}9"))
    sides = []
    for sid, edge in (("blue", "south"), ("red", "north")):
        cmds: dict = {}
        for u in units:
            if u["side"] == sid:
                cmds.setdefault(u["command"], []).append(u)
        side = {"id": sid, "name": sid.title(), "nation": "france" if sid == "blue" else "britain",
                "home_edge": edge, "commands": []}
        if generals and sid in generals:
            side["general"] = {"id": f"{sid}-gen", "name": f"{sid.title()} General",
                               "quality": 3, **generals[sid]}
        for cid, us in cmds.items():
            spec = dict((leaders or {}).get(cid) or {})
            spec.setdefault("pos", [0.5 if sid == "blue" else width - 0.5,
                                    height - 0.5 if sid == "blue" else 0.5])
            leader = {"id": f"{cid}-ldr", "name": f"Leader {cid}", "quality": 3, **spec}
            side["commands"].append({
                "id": cid, "name": f"Command {cid}", "leader": leader,
                "units": [{k: v for k, v in u.items() if k not in ("side", "command")}
                          for u in us]})
        sides.append(side)
    data = {"scenario": {"name": "test", "ruleset": ruleset, "seed": 1, "turns": turns,
                         "first_side": first},
            "options": {ruleset: dict(options or {})},
            "table": {"width": width, "height": height},
            "terrain": [dict(t) for t in terrain], "sides": sides}
    return battle_from_dict(data, "<test>")


def rect(kind, x0, y0, x1, y1, **extra):
    return {"kind": kind, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], **extra}


def polyline(kind, *pts, **extra):
    return {"kind": kind, "points": [list(p) for p in pts], **extra}


def session_at(battle, phase, faces=(), side=None):
    """A started session with manual dice, stepped on to `phase` (and `side`'s turn in it)."""
    src = QueueSource(faces)
    s = Session(battle, src)
    s.execute(ga.StartBattle())
    while not (s.battle.state.phase == phase and (side is None or s.battle.state.active == side)):
        s.execute(ga.EndPhase())
    return s, src


def play_spied(monkeypatch, ruleset: str, turns: int, spies: dict, seed: int = 1):
    """Austerlitz under `ruleset` for `turns` turns, the automatic commander on both sides,
    with each (owner, name) -> spy patched in first; the session."""
    import sys
    from pathlib import Path

    from manager.autopilot import Autopilot
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    for (owner, name), spy in spies.items():
        monkeypatch.setattr(owner, name, spy)
    s = Session(scenario(AUSTERLITZ, ruleset, seed=seed, turns=turns))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.play_turn()
    return s
