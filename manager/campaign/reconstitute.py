"""Between battles: muster the campaign's armies onto a scenario, then book the result.

`battle_for` sets a scenario's units to their campaign strength (destroyed units stay
home) and its leaders to their campaign state. `close_battle` books a finished battle:
losses (strength at its start minus at its end), men returned (each point lost comes
back on a D100 at or under the campaign's fraction, rolled and recorded), eliminated
units destroyed or kept as a cadre, and fallen leaders wounded or replaced. Shaken,
disorder and the like are not carried: the next battle starts from a clean scenario.
"""
from __future__ import annotations

import json

from ..dice import Dice, SeededSource
from ..errors import StoreError
from ..scenario_io import battle_from_dict, battle_to_dict
from ..store import sqlite_file
from .ledger import Campaign


def battle_for(campaign: Campaign, scenario_battle):
    """The scenario with the campaign's armies as they stand now (checked like a file)."""
    meta = campaign.meta
    if scenario_battle.info.ruleset != meta["ruleset"]:
        raise StoreError(f"{campaign.path}: the campaign is fought under {meta['ruleset']}; the "
                         f"scenario is {scenario_battle.info.ruleset}, whose strengths differ")
    units, leaders, strength = campaign.units(), campaign.leaders(), campaign.strength()
    data = battle_to_dict(scenario_battle)
    for side in data["sides"]:
        for c in side["commands"]:
            kept = []
            for u in c["units"]:
                if u["id"] in units:
                    if units[u["id"]]["status"] == "destroyed" or strength[u["id"]] <= 0:
                        continue
                    u["hits"] = min(strength[u["id"]], units[u["id"]]["max"])
                kept.append(u)
            c["units"] = kept
        for holder in [side.get("general")] + [c.get("leader") for c in side["commands"]]:
            if holder and holder["id"] in leaders:
                holder.update(name=leaders[holder["id"]]["name"],
                              quality=leaders[holder["id"]]["quality"])
        side["commands"] = [c for c in side["commands"] if c["units"]]
    info = data["scenario"]
    info["name"] = f"{info['name']} ({meta['name']}, battle {campaign.closed_count() + 1})"
    return battle_from_dict(data, f"{campaign.path} + {scenario_battle.info.name}")


def starting_strengths(campaign: Campaign, start, file) -> dict[str, int]:
    """Each unit's strength at the battle's start, from the campaign's own roster and
    ledger (what `battle_for` mustered), not from the battle file: a file that disagrees
    (edited, or from another muster) is refused, naming the unit."""
    units, strength = campaign.units(), campaign.strength()
    out = {}
    every = start.all_units()              # reinforcements still to come were mustered too
    for uid, u in every.items():
        if uid not in units:                     # fresh troops the scenario brought
            out[uid] = u.hits
            continue
        r = units[uid]
        expected = min(strength[uid], r["max"])
        if r["status"] == "destroyed" or expected <= 0:
            raise StoreError(f"{file}: unit {uid} ({u.name}) is in the battle, but the campaign "
                             f"has it destroyed; this battle file does not match the ledger")
        if u.hits != expected:
            raise StoreError(f"{file}: unit {uid} ({u.name}) starts the battle with {u.hits}, "
                             f"but the campaign mustered it at {expected}; this battle file "
                             f"does not match the ledger")
    for uid in every:
        out.setdefault(uid, min(strength[uid], units[uid]["max"]))
    return out


def close_battle(campaign: Campaign, session, battle_meta: dict, file: str = "",
                 force: bool = False, source=None) -> dict:
    """Book a battle into the campaign: one transaction, all or nothing."""
    meta = campaign.meta
    no = campaign.closed_count() + 1
    if battle_meta.get("campaign_id") != meta["id"]:
        raise StoreError(f"{file}: this battle was not fought in the campaign {meta['name']!r}")
    try:
        number = int(battle_meta.get("campaign_battle", 0))
    except (TypeError, ValueError):
        raise StoreError(f"{file}: meta.campaign_battle: expected the battle's number in the "
                         f"campaign, got {battle_meta.get('campaign_battle')!r}") from None
    if number != no:
        raise StoreError(f"{file}: this is battle {number} of the campaign; the next to close "
                         f"is battle {no}")
    end = session.battle
    if not end.state.over and not force:
        raise StoreError(f"{file}: the battle is not over (turn {end.state.turn}); finish it, "
                         f"or close it as it stands with --force")
    start = session.initial_battle()
    opts = campaign.options
    units, leaders = campaign.units(), campaign.leaders()
    begun = starting_strengths(campaign, start, file)
    seq = int(meta["dice_seq"])
    dice = Dice(source or SeededSource(int(meta["seed"])), seq)
    rows, events, status, joined = [], [], {}, []
    late = {u.id: cid for a in start.pending for cid, u in a.units}
    for uid, u in start.all_units().items():
        if uid not in units:                     # fresh troops the scenario brought
            cid = start.hierarchy.find_command(uid) or late.get(uid, "")
            joined.append({"id": uid, "side": u.side, "command": cid,
                           "name": u.name, "kind": u.kind, "max": u.max_hits, "status": "active"})
            rows.append((uid, "join", u.hits, f"joined at battle {no}"))
        if end.arrival_of(uid) is not None:      # never arrived: not a loss, nothing to book
            continue
        after = end.units.get(uid)
        left = 0 if after is None or after.eliminated else after.hits
        lost = begun[uid] - left
        if lost > 0:
            rows.append((uid, "loss", lost, "eliminated" if left == 0 else ""))
        elif lost < 0:                           # rallied above its strength at the start
            rows.append((uid, "return", -lost, "rallied during the battle"))
        if left == 0 and opts.eliminated == "destroyed":
            status[uid] = "destroyed"
            continue
        back = 0
        if lost > 0 and opts.returns_fraction > 0:
            need = round(100 * opts.returns_fraction)
            faces = dice.roll(lost, f"{u.name}: men returning (D100 <= {need} each)", 100).faces
            back = sum(1 for f in faces if f <= need)
            if back:
                rows.append((uid, "return", back, "stragglers and lightly wounded"))
        if left + back == 0:                     # "reduced": a cadre survives
            rows.append((uid, "return", 1, "cadre"))
    for lid, l in end.leaders.items():
        if not l.eliminated or lid not in leaders:
            continue
        fate = opts.fallen_leaders
        if fate == "roll":
            face = dice.roll(1, f"{l.name}: fate of a fallen leader (1-2 killed)").faces[0]
            fate = "replaced" if face <= 2 else "wounded"
        if fate == "wounded":
            q = leaders[lid]["quality"]
            new_q = q if q == 0 else max(1, q - 1)
            events.append((lid, "wounded", f"returns wounded, quality {q} -> {new_q}",
                           {"quality": new_q, "status": "wounded"}))
        else:
            events.append((lid, "replaced", f"{l.name} is killed; a successor takes over, "
                           f"quality rolled at the next battle",
                           {"name": f"{l.name}'s successor", "quality": 0, "status": "fit"}))
    with campaign.transaction():
        campaign.db["roster_units"].insert_all(joined)
        campaign.db["ledger"].insert_all([{"battle": no, "unit": u, "kind": k, "points": p,
                                           "note": n} for u, k, p, n in rows])
        for uid, st in status.items():
            campaign.db.execute("UPDATE roster_units SET status = ? WHERE id = ?", [st, uid])
        for lid, event, note, changes in events:
            campaign.db["leader_events"].insert({"battle": no, "leader": lid, "event": event,
                                                 "note": note})
            campaign.db["roster_leaders"].update(lid, changes)
        campaign.db["rolls"].insert_all([{"battle": no, "seq": r.seq, "purpose": r.purpose,
                                          "expression": r.expression, "faces": json.dumps(r.faces),
                                          "source": r.source} for r in dice.rolls])
        campaign.db["battles"].upsert({"no": no, "file": str(file), "scenario": end.info.name,
                                       "seed": end.info.seed, "winner": end.state.winner or "",
                                       "reason": end.state.reason, "turns": end.state.turn,
                                       "closed_at": sqlite_file.now()}, pk="no")
        campaign.db["meta"].upsert({"key": "dice_seq", "value": str(dice.next_seq)}, pk="key")
    return {"battle": no, "rolls": len(dice.rolls), "ledger_rows": len(rows),
            "leaders": [(lid, e) for lid, e, _, _ in events]}
