"""`berthier ...`: headless subcommands. Errors print a message, never a traceback."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import BerthierError

# control characters (a name holding a terminal escape) are shown, never sent raw; the
# \uXXXX form is valid inside JSON strings too, so --json output stays parseable
_CONTROL = {c: f"\\u{c:04x}" for c in [*range(0x20), *range(0x7f, 0xa0)] if chr(c) not in "\n\t"}


def shown(text: str) -> str:
    return text.translate(_CONTROL)


class _Escaping:
    """A text stream that writes control characters escaped."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(shown(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _simulate(args) -> int:
    from .simulate import balance, fight, sweep
    if (args.runs or args.grid) and args.save:
        raise BerthierError("--save records one battle; it cannot be used with --runs")
    if (args.grid or args.cluster or args.workers) and not args.runs:
        raise BerthierError("--grid, --cluster and --workers go with --runs N")
    if args.runs:
        common = dict(ruleset=args.ruleset, seed=args.seed or 1, turns=args.turns,
                      progress=not args.json, workers=args.workers, cluster=args.cluster)
        if args.grid:
            from .balance import parse_grid
            option, values = parse_grid(args.grid)
            summary = sweep(args.scenario, args.runs, option, values, **common)
            text = _grid_text
        else:
            summary = balance(args.scenario, args.runs, **common)
            text = _balance_text
        if args.json:
            print(json.dumps(summary, indent=2, ensure_ascii=False))
        else:
            print(text(summary))
        return 0
    session = fight(args.scenario, args.ruleset, args.seed, args.turns, args.save)
    _print_report(session, args.json)
    if args.save:
        print(f"saved {args.save} ({len(session.entries)} actions)", file=sys.stderr)
    return 0


def _report(args) -> int:
    from .store.battle_file import load_battle
    session, _ = load_battle(args.file)
    if args.html:
        from .report_html import battle_report_html
        from .scenario_io import write_text_atomic
        write_text_atomic(args.html, battle_report_html(session))
        print(f"wrote {args.html}", file=sys.stderr)
        return 0
    _print_report(session, args.json)
    return 0


def _print_report(session, as_json: bool) -> None:
    """The after-action report: turn by turn, the result, and each command's losses."""
    from .simulate import report, turn_lines
    data = report(session)
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    b = session.battle
    print(f"{data['scenario']} under {data['ruleset']}, seed {data['seed']}")
    for line in turn_lines(session):
        print(line)
    winner = b.sides[data["result"]["winner"]].name if data["result"]["winner"] else "nobody"
    print(f"Result after {data['turns']} turn(s): {winner} wins; {data['result']['reason']}")
    for side, sd in data["sides"].items():
        print(f"  {b.sides[side].name}")
        for name, c in sd["commands"].items():
            marks = ", ".join(m for m, on in (("Shaken", c["shaken"]),
                                              ("leader lost", c["leader_lost"])) if on)
            print(f"    {name:<36} {c['units_left']:>3}/{c['units_start']:<3} units, "
                  f"{c['hits_taken']:>3} hits taken{'  [' + marks + ']' if marks else ''}")


def _balance_text(s: dict) -> str:
    out = [f"{s['scenario']} under {s['ruleset']}: {s['runs']} battles "
           f"(seeds {s['seeds'][0]}..{s['seeds'][-1]})"]
    for side, w in s["wins"].items():
        lo, hi = w["ci95"]
        out.append(f"  {side:<12} wins {w['rate']:6.1%}  (95% CI {lo:.1%} – {hi:.1%})")
    out.append(f"  undecided    {s['undecided']['rate']:6.1%}" + _ahead_text(s["undecided"]))
    out.append(f"  mean length {s['mean_turns']:.1f} turns; ended by army morale in "
               f"{s['by_morale']:.0%}")
    for side, cmds in s["commands"].items():
        out.append(f"  {side}: mean units lost / Shaken rate")
        for name, c in cmds.items():
            line = (f"    {name:<36} {c['mean_units_lost']:5.1f}/{c['units_start']:<3} "
                    f"Shaken {c['shaken_rate']:4.0%}  fought {c.get('fought_rate', 0):4.0%}")
            if "arrived" in c:        # reinforcements: how often and when they came
                a = c["arrived"]
                line += (f"  arrived {a['rate']:4.0%}, mean turn {a['mean_turn']:.1f} "
                         f"({', '.join(f'turn {t}: {k}' for t, k in a['by_turn'].items())})")
            out.append(line)
    return "\n".join(out)


def _ahead_text(undecided: dict) -> str:
    """Who was ahead on losses (share of units lost) in the battles the turn limit ended."""
    ahead = undecided.get("ahead") or {}
    if not undecided["count"]:
        return ""
    parts = [f"{side} {k}" for side, k in ahead.items() if side != "even"]
    return f"  (ahead on losses at the turn limit: {', '.join(parts)}, even {ahead.get('even', 0)})"


def _grid_text(g: dict) -> str:
    """One row per setting: each side's win rate with its 95% interval."""
    first = g["settings"][0]
    sides = list(first["wins"])
    head = ([f"{g['option']}"] + [f"{s} wins (95% CI)" for s in sides] + ["undecided", "turns"]
            + ["ahead on losses at the limit"])
    rows = []
    for st in g["settings"]:
        row = [f"{st['value']}"]
        for s in sides:
            w = st["wins"][s]
            row.append(f"{w['rate']:.1%} ({w['ci95'][0]:.1%} – {w['ci95'][1]:.1%})")
        ahead = st["undecided"].get("ahead", {})
        rows.append(row + [f"{st['undecided']['rate']:.1%}", f"{st['mean_turns']:.1f}",
                           " / ".join(f"{s} {ahead.get(s, 0)}" for s in sides + ["even"])])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([f"{first['scenario']} under {first['ruleset']}: {g['runs']} battles a "
                      f"setting (seeds {first['seeds'][0]}..{first['seeds'][-1]})",
                      line(head)] + [line(r) for r in rows])


def _rules(args) -> int:
    from .rules import get_ruleset, ruleset_ids
    data = []
    for rid in ruleset_ids():
        r = get_ruleset(rid)
        data.append({"id": r.id, "name": r.name, "measure": r.measure,
                     "phases": [p.name for p in r.phases],
                     "options": {o.key: o.default for o in r.options},
                     "profiles": r.describe_profiles()})
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    for r in data:
        print(f"{r['id']}: {r['name']} (measures in {r['measure']})")
        print(f"  phases: {' > '.join(r['phases'])}")
        keys = [k for k in r["profiles"][0] if k not in ("kind", "label", "arm")]
        print(f"  {'kind':<16} {'profile':<17} " + " ".join(f"{k:>11}" for k in keys))
        for p in r["profiles"]:
            print(f"  {p['kind']:<16} {p['label']:<17} " + " ".join(f"{'-' if p[k] is None else p[k]!s:>11}" for k in keys))
    return 0


def _check(args) -> int:
    from .scenario_io import load_scenario
    b = load_scenario(args.scenario, args.ruleset)
    print(f"{args.scenario}: {b.info.name} under {b.info.ruleset}, "
          f"{len(b.units)} units, {len(b.leaders)} leaders")
    for side in b.sides.values():
        cmds = b.hierarchy.commands_of(side.id)
        n = sum(len(b.hierarchy.units_of(c)) for c in cmds)
        print(f"  {side.name}: {n} units in {len(cmds)} commands")
    from .rules import get_ruleset
    for line in get_ruleset(b.info.ruleset).scenario_notes(b):
        print(f"  {line}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="berthier", description="Battle manager for horse-and-musket "
                                "wargames.")
    sub = p.add_subparsers(dest="command")
    s = sub.add_parser("simulate", help="fight a scenario with the automatic commander on both sides")
    s.add_argument("scenario")
    s.add_argument("--ruleset", help="fight under another ruleset than the scenario's")
    s.add_argument("--seed", type=int)
    s.add_argument("--turns", type=int, help="turn limit")
    s.add_argument("--json", action="store_true")
    s.add_argument("--runs", type=int, help="fight this many seeds and report the balance")
    s.add_argument("--workers", type=int, help="local processes for --runs (default: every core)")
    s.add_argument("--cluster", metavar="ADDRESS",
                   help="run --runs on a Dask distributed scheduler (tcp://host:8786); "
                        "needs the [cluster] extra")
    s.add_argument("--grid", metavar="OPTION=V1,V2",
                   help="with --runs: the same seeds under each value of a ruleset option")
    s.add_argument("--save", metavar="FILE.berthier",
                   help="record the battle as it is fought (one commit per action)")
    s.set_defaults(run=_simulate)
    rp = sub.add_parser("report", help="the after-action report of a saved battle")
    rp.add_argument("file")
    rp.add_argument("--json", action="store_true")
    rp.add_argument("--html", metavar="OUT.html", help="write a printable report instead")
    rp.set_defaults(run=_report)
    from .oob.cli import register as register_oob
    register_oob(sub)
    r = sub.add_parser("rules", help="list the rulesets and their unit profiles")
    r.add_argument("--json", action="store_true")
    r.set_defaults(run=_rules)
    c = sub.add_parser("check", help="validate a scenario file")
    c.add_argument("scenario")
    c.add_argument("--ruleset")
    c.set_defaults(run=_check)
    from .campaign.cli import register
    register(sub)
    from .net.cli import register as register_net
    register_net(sub)
    return p


def main(argv=None, extend=None, default=None) -> int:
    """Run a subcommand. The desktop app passes `extend` (adds its own subcommands,
    e.g. `open`) and `default` (what a bare `berthier` does), so this module stays Qt-free."""
    parser = build_parser()
    if extend is not None:
        extend(parser._subparsers._group_actions[0])
    args = parser.parse_args(argv)
    if not args.command:
        if default is not None:
            return default()
        parser.print_help()
        return 0
    if getattr(args, "runs", None) is not None and args.runs < 1:
        parser.error("--runs needs at least 1")
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(out), _Escaping(err)
    try:
        return _run(args)
    finally:
        sys.stdout, sys.stderr = out, err


def _run(args) -> int:
    try:
        return args.run(args)
    except BerthierError as exc:
        print(f"berthier: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("berthier: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:         # `berthier ... | head`: the reader has had enough
        sys.stderr.close()
        return 0
    except OSError as exc:          # the output itself (a full disk under `> file`)
        where = f"{exc.filename}: " if exc.filename else "output: "
        print(f"berthier: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
