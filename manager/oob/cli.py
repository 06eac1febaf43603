"""`berthier import-oob FILE [FILE ...]`: orders of battle as people write them."""
from __future__ import annotations

import json
import sys

from ..errors import OobError


def register(sub) -> None:
    o = sub.add_parser("import-oob", help="read plain-text orders of battle (one or more files)")
    o.add_argument("files", nargs="+", metavar="FILE")
    o.add_argument("-o", "--out", help="write a playable scenario (TOML) from the two armies")
    o.add_argument("--json", action="store_true", help="print the import report as JSON")
    o.add_argument("--scale", help="men[:INF,CAV,GUNS] (1 unit = 1200 infantry, 800 cavalry "
                   "or 12 guns), bases[:N] (N bases a unit, default 2) or element (one unit "
                   "per listed element); default: bases for listings in bases, else men")
    o.add_argument("--command-level", choices=("corps", "division"), default="corps",
                   help="which formations become commands (default corps)")
    o.add_argument("--army", action="append", default=[], metavar="FILE=NAME",
                   help="the army a file's formations belong to (files without an army heading)")
    o.add_argument("--ruleset", default="morschauser", help="the scenario's ruleset")
    o.add_argument("--skip-bad-lines", action="store_true",
                   help="write the scenario without the lines that could not be read")
    o.set_defaults(run=run)


def run(args) -> int:
    from . import import_files, printable
    from .forming import Scale
    try:
        scale = Scale.parse(args.scale)
    except ValueError as exc:
        raise OobError("--scale", "", str(exc)) from None
    armies = {}
    for spec in args.army:
        file, eq, name = spec.partition("=")
        if not eq or not file.strip() or not name.strip():
            raise OobError("--army", "", f"expected FILE=NAME, got {printable(spec)!r}")
        armies[file.strip()] = name.strip()
    result = import_files(args.files, scale, args.command_level, armies)
    for p in result.problems:
        print(f"berthier: {printable(p)}", file=sys.stderr)
    if args.json or not args.out:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    if result.problems and not args.skip_bad_lines:
        print(f"berthier: {len(result.problems)} line(s) could not be read; nothing written "
              "(--skip-bad-lines writes the rest)", file=sys.stderr)
        return 2
    if args.out:
        import tomli_w
        from ..scenario_io import battle_from_dict, write_text_atomic
        data = result.to_scenario(args.ruleset)
        battle_from_dict(data, args.out)           # refuse to write what would not load
        write_text_atomic(args.out, tomli_w.dumps(data))
        print(f"wrote {printable(args.out)}: {result.total_units} units in "
              f"{sum(len(a.commands) for a in result.armies)} commands at "
              f"{result.scale.describe()}; {len(result.skipped)} line(s) skipped as prose, "
              f"{len(result.notes)} note(s) (--json lists them)", file=sys.stderr)
    return 0
