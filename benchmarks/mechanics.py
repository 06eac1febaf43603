"""How often each mechanic of a ruleset happens when the automatic commanders fight a
demo: volleys, artillery, charges, melees, squares, rallies, routs, leaders lost,
generals committed (where the rules let the player commit one), and
who won, over N seeds. The rules are only tested by play if play uses them.

    python benchmarks/mechanics.py scenarios/arcole.toml --seeds 10 [--tiny] [--json]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from manager.simulate import fight  # noqa: E402

MECHANICS = ("volleys", "artillery", "charges", "melees", "squares", "rallies",
             "rallied", "routs", "leaders lost", "generals committed")


def count(session) -> dict:
    """The mechanics one finished battle used, read off its log."""
    b = session.battle
    rules = session.ruleset
    n = dict.fromkeys(MECHANICS, 0)
    for entry in session.entries:
        act = entry.action
        verb = type(act).__name__
        if verb in ("Fire", "TableFire"):
            unit = b.units.get(getattr(act, "unit", ""))
            arm = rules.profiles[unit.kind].arm if unit is not None else ""
            n["artillery" if arm == "artillery" else "volleys"] += 1
        elif verb == "Charge":
            n["charges"] += 1
        elif verb == "Rally":
            n["rallies"] += 1
        elif verb == "CommitGeneral":           # a general's influence lent at a risk
            n["generals committed"] += 1
        names = [type(e).__name__ for e in entry.events]
        texts = [e.describe().lower() for e in entry.events]
        n["melees"] += names.count("MeleeResolved")
        n["squares"] += sum(1 for t, k in zip(texts, names)
                            if "square" in t and k in ("FormationChanged", "Effect"))
        n["rallied"] += sum(1 for k, t in zip(names, texts)
                            if k in ("UnitRecovered", "Rallied") and "not this time" not in t)
        n["routs"] += sum(1 for k, t in zip(names, texts)
                          if ("rout" in t or "breaks" in t or "disperse" in t)
                          and k in ("UnitRouted", "UnitEliminated", "MoraleChecked", "Effect"))
        n["leaders lost"] += sum(1 for k, t in zip(names, texts)
                                 if k in ("LeaderFell", "GeneralFell")
                                 or (k == "GeneralHit" and "killed" in t))
    return n


def ahead(battle) -> str:
    """On the clock: the side that lost the smaller share of its strength ("on points")."""
    share = {}
    for side in battle.sides:
        units = [u for u in battle.units.values() if u.side == side]
        full = sum(u.max_hits for u in units) or 1
        share[side] = sum(u.max_hits if u.eliminated else u.max_hits - u.hits
                          for u in units) / full
    a, b = sorted(share, key=share.get)
    return "draw" if abs(share[a] - share[b]) < 0.02 else f"{a} (points)"


def table(scenario: str, seeds: int, ruleset: str | None = None, turns: int | None = None):
    rows = []
    for seed in range(1, seeds + 1):
        s = fight(scenario, ruleset, seed=seed, turns=turns)
        st = s.battle.state
        rows.append((seed, count(s), st.winner or ahead(s.battle), st.turn,
                     st.reason or "clock"))
    return rows


def markdown(rows) -> str:
    head = "| seed | " + " | ".join(MECHANICS) + " | winner | turns |"
    out = [head, "|" + "---|" * (len(MECHANICS) + 3)]
    for seed, n, winner, turn, _ in rows:
        out.append(f"| {seed} | " + " | ".join(str(n[m]) for m in MECHANICS)
                   + f" | {winner} | {turn} |")
    tot = {m: sum(r[1][m] for r in rows) for m in MECHANICS}
    out.append("| mean | " + " | ".join(f"{tot[m] / len(rows):.1f}" for m in MECHANICS)
               + " | " + ", ".join(f"{w} {sum(1 for r in rows if r[2] == w)}"
                                   for w in sorted({r[2] for r in rows})) + " | |")
    return "\n".join(out)


def figures(tiny: bool = False, scenario: str = "", seeds: int = 10, ruleset=None,
            turns=None) -> list[dict]:
    """How often each mechanic happens a battle (no targets: what play exercises)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_common import SKIRMISH, figure
    if tiny:
        scenario, seeds, turns = str(SKIRMISH), 1, 2
    rows = table(scenario, seeds, ruleset, turns)
    name = Path(scenario).stem
    return [figure(f"mechanics, {name}: {m} a battle", sum(r[1][m] for r in rows) / len(rows),
                   "", note=f"{len(rows)} seed(s)") for m in MECHANICS]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario", nargs="?", default=str(Path(__file__).resolve().parents[1]
                                                      / "scenarios" / "quatre_bras.toml"))
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--ruleset")
    p.add_argument("--turns", type=int)
    p.add_argument("--tiny", action="store_true", help="one short skirmish (the test suite)")
    p.add_argument("--json", action="store_true", help="the mean counts as figures (all.py)")
    a = p.parse_args(argv)
    if a.tiny or a.json:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_common import emit
        emit(figures(a.tiny, a.scenario, a.seeds, a.ruleset, a.turns), a.json,
             "Mechanics a battle", tiny=a.tiny)
        return
    print(markdown(table(a.scenario, a.seeds, a.ruleset, a.turns)))


if __name__ == "__main__":
    main()
