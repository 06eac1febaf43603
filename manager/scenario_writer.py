"""A battle as it stands -> a scenario's TOML tables, and the one safe way to write a file
(beside the target, then renamed). scenario_io reads what this writes."""
from __future__ import annotations

import os
import uuid
from pathlib import Path

from .errors import OutputError
from .model import Battle
from .rules import get_ruleset


def arrives_dict(arrival, grid) -> dict:
    """The arrival as a scenario's `arrives` table (as it stands: a delay moves its turn)."""
    def box(p):
        c, r = int(p[0] // grid), int(p[1] // grid)
        return [c, r] if ((c + 0.5) * grid, (r + 0.5) * grid) == tuple(p) else None
    boxes = [box(p) for p in arrival.entry] if grid else [None]
    d = {"turn": arrival.next_turn}
    if arrival.roll and not arrival.rolled:
        d["roll"] = arrival.roll
    if all(b is not None for b in boxes):
        d["at"] = boxes[0]
        if len(boxes) > 1:
            d["to"] = boxes[1]
    else:
        d["pos"] = list(arrival.entry[0])
        if len(arrival.entry) > 1:
            d["to"] = list(arrival.entry[1])
    if arrival.name:
        d["name"] = arrival.name
    if arrival.delay_if_blocked:
        d["delay_if_blocked"] = True
    return d


def battle_to_dict(battle: Battle) -> dict:
    """The scenario as it stands (positions and strengths now), ready for tomli_w."""
    grid = battle.battlefield.grid
    info = battle.info

    def where(piece):
        if grid:                    # boxes when a piece stands at a box centre, else exact
            c, r = int(piece.x // grid), int(piece.y // grid)
            if ((c + 0.5) * grid, (r + 0.5) * grid) == (piece.x, piece.y):
                return {"at": [c, r]}
        return {"pos": [piece.x, piece.y]}

    def leader(l):
        d = {"id": l.id, "name": l.name, "quality": l.quality, **where(l)}
        if l.trait:
            d["trait"] = l.trait
        return d

    sc = {"name": info.name, "ruleset": info.ruleset, "seed": info.seed, "turns": info.turns,
          "first_side": info.first_side}
    for key in ("description", "date", "scale"):
        if getattr(info, key):
            sc[key] = getattr(info, key)
    table = {"width": battle.battlefield.width, "height": battle.battlefield.height}
    if grid:
        table["grid"] = grid
    terrain = []
    for f in battle.battlefield.features:
        d = {"id": f.id, "kind": f.kind, "points": [list(p) for p in f.points]}
        if f.name:
            d["name"] = f.name
        if f.kind == "hill":
            d["level"] = f.level
        if f.variant:
            d["variant"] = f.variant
        terrain.append(d)
    options = {k: dict(v) for k, v in info.option_sets.items()}
    defaults = get_ruleset(info.ruleset).option_defaults()
    options[info.ruleset] = {k: v for k, v in info.options.items() if defaults.get(k) != v}
    out_sides = []
    h = battle.hierarchy
    for side in battle.sides.values():
        sd = {"id": side.id, "name": side.name, "nation": side.nation,
              "home_edge": side.home_edge, "colour": side.colour}
        if side.general:
            sd["general"] = leader(battle.leaders[side.general])
        cmds = []
        for cid in h.commands_of(side.id):
            c = battle.commands[cid]
            cd = {"id": c.id, "name": c.name}
            if c.nation != side.nation:
                cd["nation"] = c.nation
            if c.note:
                cd["note"] = c.note
            whole = next((a for a in battle.pending if a.scope == "command" and a.id == cid), None)
            if h.leader_of_command(cid):
                cd["leader"] = leader(battle.leaders[h.leader_of_command(cid)])
            elif whole is not None and whole.leader:
                cd["leader"] = leader(whole.leader[1])
            if whole is not None:
                cd["arrives"] = arrives_dict(whole, grid)
            if c.orders:
                cd["orders"] = dict(c.orders)
            units = []
            late = {u.id: a for a in battle.pending for k, u in a.units if k == cid}
            on_table = [battle.units[uid] for uid in h.units_of(cid)]
            for u in on_table + [u for a in battle.pending for k, u in a.units if k == cid]:
                uid = u.id
                ud = {"id": u.id, "name": u.name, "kind": u.kind, **where(u), "facing": u.facing}
                if u.hits != u.max_hits:
                    ud["hits"] = u.hits
                for flag in ("guard", "fixed", "sharpshooters"):
                    if getattr(u, flag):
                        ud[flag] = True
                if u.traits:
                    ud["traits"] = list(u.traits)
                if u.nation != c.nation:
                    ud["nation"] = u.nation
                if u.formation != "line":
                    ud["formation"] = u.formation
                if uid in late and late[uid].scope == "unit":
                    ud["arrives"] = arrives_dict(late[uid], grid)
                units.append(ud)
            cd["units"] = units
            cmds.append(cd)
        sd["commands"] = cmds
        out_sides.append(sd)
    return {"scenario": sc, "options": {k: v for k, v in options.items() if v},
            "table": table, "terrain": terrain, "sides": out_sides}


def write_text_atomic(path, text: str) -> None:
    """Write beside the target under a private name, then rename: never a half-written
    file under its name, never a leftover (a full disk or a read-only folder is an
    OutputError naming the file)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise OutputError(path, exc.strerror or str(exc), exc.errno) from None


def save_scenario(battle: Battle, path) -> None:
    import tomli_w
    write_text_atomic(path, tomli_w.dumps(battle_to_dict(battle)))
