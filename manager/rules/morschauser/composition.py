"""Army composition by nation (a Napoleonic extra).

The text gives one hard rule (Great Britain: no Militia) and guidance elsewhere
("more artillery", "less cavalry"), which cannot be checked without a baseline. The
hard rule refuses a start when the option is on; the guidance is reported beside
each army's shares so the scenario author can judge.
"""
from __future__ import annotations

GUIDANCE = {
    "france": "Imperial Guard",
    "britain": "Rifles; no Militia",
    "austria": "less Light Infantry",
    "russia": "more Artillery",
    "prussia": "more Militia Infantry",
    "spain": "more Militia infantry, less Cavalry",
}
FORBIDDEN = {"britain": {"militia": "Great Britain fields no Militia"}}


def composition_report(battle) -> list[str]:
    lines = []
    for side in battle.sides.values():
        units = [u for u in battle.units.values() if u.side == side.id and not u.eliminated]
        if not units:
            continue
        arms = {}
        for u in units:
            arms[u.arm] = arms.get(u.arm, 0) + 1
        light = sum(1 for u in units if u.kind in ("light_infantry", "rifles", "skirmishers"))
        militia = sum(1 for u in units if u.kind == "militia")
        shares = ", ".join(f"{k} {v / len(units):.0%}" for k, v in sorted(arms.items()))
        lines.append(f"{side.name} ({side.nation or 'no nation'}): {shares}, light infantry "
                     f"{light / len(units):.0%}, militia {militia / len(units):.0%}"
                     f" - the text asks for: {GUIDANCE.get(side.nation, 'nothing particular')}")
    return lines


def composition_breaches(battle) -> list[str]:
    out = []
    for u in battle.units.values():
        nation = u.nation or battle.sides[u.side].nation
        why = FORBIDDEN.get(nation, {}).get(u.kind)
        if why:
            out.append(f"{u.name}: {why}")
    return out
