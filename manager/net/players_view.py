"""The players' view: what the phones at the table see of a hosted battle, as plain JSON.

`players_state(battle_or_session)` is read-only and JSON-able: the table and its terrain,
every unit on it, each command's state (units, hits, Shaken, leader and where he is),
each army's morale, the turn, and the last lines of the log with the log index. The
host serves it as `/state.json` beside `page_html()` (the page at `/`), which polls it.

Pass the host's Session to get the log lines and index; a bare Battle gives the state
with an empty log. Nothing here writes the battle: it is a view, not a door.
"""
from __future__ import annotations

import json
from math import ceil

from ..rules import get_ruleset

VIEW_VERSION = 1
LOG_LINES = 8


def players_state(source, log=None) -> dict:
    """The battle as the players' page draws it. `source` is a Session or a Battle;
    `log` (a list of log entries) overrides the session's own."""
    battle = getattr(source, "battle", source)
    entries = log if log is not None else getattr(source, "entries", [])
    ruleset = getattr(source, "ruleset", None) or get_ruleset(battle.info.ruleset)
    return {
        "view": VIEW_VERSION,
        "battle": battle.info.name,
        "ruleset": ruleset.name or battle.info.ruleset,
        "table": _table(battle),
        "terrain": [_feature(f) for f in battle.battlefield.features],
        "sides": _sides(battle),
        "turn": _turn(battle, ruleset),
        "units": _units(battle, ruleset),
        "leaders": _leaders(battle),
        "commands": _commands(battle),
        "log": {"index": len(entries), "lines": _log_lines(battle, entries)},
    }


def state_json(source, log=None, acting: dict | None = None) -> bytes:
    """players_state as the bytes `/state.json` answers with; `acting` (a host's: the
    laptops still acting in the phase) adds their names, which the page shows."""
    state = players_state(source, log)
    if acting:
        state["acting"] = {"waiting": list(acting.get("waiting", [])),
                           "done": list(acting.get("done", []))}
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def page_html() -> bytes:
    """The players' page: one self-contained HTML file (inline CSS and JS, an SVG map)."""
    from .players_page import PAGE
    return PAGE.encode("utf-8")


# ---- the parts ------------------------------------------------------------------------------
def _r(v: float) -> float:
    return round(float(v), 2)


def _table(battle) -> dict:
    bf = battle.battlefield
    return {"width": _r(bf.width), "height": _r(bf.height),
            "grid": _r(bf.grid) if bf.grid else None}


def _feature(f) -> dict:
    return {"id": f.id, "kind": f.kind, "shape": f.shape, "name": f.name,
            "level": f.level, "variant": f.variant,
            "points": [[_r(x), _r(y)] for x, y in f.points]}


def _sides(battle) -> list[dict]:
    h, shaken = battle.hierarchy, battle.state.shaken
    rule = str(battle.option("army_morale", "all"))
    out = []
    for sid, side in battle.sides.items():
        cmds = [c for c in h.commands_of(sid) if h.units_of(c)]
        n_shaken = sum(1 for c in cmds if c in shaken)
        if "off" in rule:
            concede = None
        else:
            concede = ceil(len(cmds) / 2) if "half" in rule else len(cmds)
        out.append({"id": sid, "name": side.name, "colour": side.colour,
                    "home_edge": side.home_edge,
                    "morale": {"commands": len(cmds), "shaken": n_shaken, "rule": rule,
                               "concedes_at": concede}})
    return out


def _turn(battle, ruleset) -> dict:
    st = battle.state
    try:
        phase = ruleset.phase(st.phase).label
    except Exception:                        # "setup" and "over" are not in the table
        phase = st.phase
    active = battle.sides.get(st.active)
    try:
        to_act = len(ruleset.to_act(battle)) if st.started and not st.over else 0
    except Exception:                        # a view never breaks the host
        to_act = 0
    winner = battle.sides.get(st.winner) if st.winner else None
    return {"turn": st.turn, "turns": battle.info.turns, "started": st.started,
            "phase": st.phase, "phase_label": phase,
            "active": st.active, "active_name": active.name if active else "",
            "to_act": to_act, "over": st.over,
            "winner": st.winner, "winner_name": winner.name if winner else "",
            "reason": st.reason}


def _units(battle, ruleset) -> list[dict]:
    h, shaken = battle.hierarchy, battle.state.shaken
    out = []
    for u in battle.units.values():
        if u.eliminated:
            continue
        cid = h.find_command(u.id)
        try:
            w, d = ruleset.footprint(battle, u)
            arm = ruleset.profile(u.kind).arm
        except Exception:
            w, d, arm = 2.0, 1.0, ""
        out.append({"id": u.id, "name": u.name, "side": u.side, "command": cid,
                    "kind": u.kind, "arm": arm, "formation": u.formation,
                    "x": _r(u.x), "y": _r(u.y), "facing": u.facing, "w": _r(w), "d": _r(d),
                    "hits": u.hits, "max_hits": u.max_hits,
                    "flags": unit_flags(ruleset, battle, u, cid in shaken)})
    return out


def unit_flags(ruleset, battle, unit, shaken: bool) -> list[str]:
    """The marks a player looks for: the ruleset's own words, plus its command's Shaken."""
    flags = list(ruleset.unit_flags(battle, unit)) if hasattr(ruleset, "unit_flags") else []
    if shaken:
        flags.insert(0, "shaken")
    return flags


def _leaders(battle) -> list[dict]:
    h = battle.hierarchy
    out = []
    for l in battle.leaders.values():
        kind, ref = h.find_leader_node(l.id)
        out.append({"id": l.id, "name": l.name, "side": l.side, "x": _r(l.x), "y": _r(l.y),
                    "commands": ref if kind == "command" else "",
                    "general": kind == "army", "hits": l.hits, "max_hits": l.max_hits,
                    "eliminated": l.eliminated})
    return out


def _commands(battle) -> list[dict]:
    h, st = battle.hierarchy, battle.state
    out = []
    for sid in battle.sides:
        for cid in h.commands_of(sid):
            c = battle.commands[cid]
            units = [battle.units[u] for u in h.units_of(cid) if u in battle.units]
            coming = [(a, u) for a in battle.pending for k, u in a.units if k == cid]
            lid = h.leader_of_command(cid)
            leader = battle.leaders.get(lid)
            if leader is None:
                held = next((a.leader[1] for a in battle.pending
                             if a.leader and a.leader[0] == cid), None)
                lead = ({"id": held.id, "name": held.name, "arriving": True} if held else None)
            else:
                lead = {"id": leader.id, "name": leader.name, "x": _r(leader.x),
                        "y": _r(leader.y), "hits": leader.hits, "max_hits": leader.max_hits,
                        "eliminated": leader.eliminated}
            live = [u for u in units if not u.eliminated]
            out.append({
                "id": cid, "name": c.name, "side": sid, "shaken": cid in st.shaken,
                "units": len(units), "live": len(live), "lost": len(units) - len(live),
                "shaken_at": ceil(len(units) / 2) if units else 0,
                "hits": sum(u.hits for u in live), "max_hits": sum(u.max_hits for u in units),
                "hits_taken": sum(u.max_hits - (0 if u.eliminated else u.hits) for u in units),
                "disordered": sum(1 for u in live if u.disordered),
                "to_arrive": len(coming),
                "arrival": coming[0][0].describe() if coming else "",
                "leader": lead,
                "unit_ids": [u.id for u in units]})
    return out


def _log_lines(battle, entries) -> list[dict]:
    out = []
    for e in entries[-LOG_LINES:]:
        events = [ev.describe() for ev in getattr(e, "events", ())]
        text = "; ".join(events) or _action_words(battle, e.action)
        side = battle.sides.get(e.side)
        out.append({"index": e.index + 1, "turn": e.turn, "phase": e.phase,
                    "side": side.name if side else e.side, "text": text})
    return out


def _action_words(battle, action) -> str:
    """'End phase', 'Move unit: IV Line 5' for an entry whose events say nothing."""
    verb = action.verb
    words = "".join(" " + c.lower() if c.isupper() else c for c in verb).strip().capitalize()
    for key in ("unit", "leader", "defender"):
        ref = getattr(action, key, None)
        if isinstance(ref, str):
            piece = battle.units.get(ref) or battle.leaders.get(ref)
            return f"{words}: {piece.name if piece else ref}"
    return words
