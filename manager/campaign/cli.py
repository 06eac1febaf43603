"""`berthier campaign ...` and `berthier library ...`: the campaign keeper's commands."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import StoreError
from ..store import sqlite_file


def _open(path):
    """The campaign, opened to write; a lock left by a crashed Berthier is cleared, and said."""
    import sys
    from .ledger import Campaign
    c = Campaign.open(path)
    if c.notice:
        print(f"berthier: {c.notice}", file=sys.stderr)
    return c


def _new(args) -> int:
    from ..scenario_io import load_scenario
    from .ledger import Campaign, CampaignOptions
    options = CampaignOptions(args.returns, args.eliminated, args.fallen_leaders)
    c = Campaign.create(args.file, load_scenario(args.scenario), args.name or "", args.seed, options)
    s = c.summary()
    c.close()
    for army in s["armies"].values():
        print(f"{army['name']}: {len(army['units'])} units, strength {army['now']}")
    print(f"wrote {args.file}")
    return 0


def _fight(args) -> int:
    from ..autopilot import Autopilot
    from ..scenario_io import load_scenario
    from ..session import Session
    from ..store import create_battle
    from .reconstitute import battle_for, close_battle
    c = _open(args.file)
    try:
        scenario = load_scenario(args.scenario) if args.scenario else c.founding_battle()
        battle = battle_for(c, scenario)
        if args.seed is not None:
            from dataclasses import replace
            battle.set_info(replace(battle.info, seed=args.seed))
        no = c.closed_count() + 1
        out = Path(args.out or Path(args.file).with_name(f"{Path(args.file).stem}-battle-{no}.berthier"))
        session = Session(battle)
        record = create_battle(out, session, campaign_id=c.meta["id"], campaign_battle=no)
        with c.transaction():
            c.db["battles"].upsert({"no": no, "file": str(out), "scenario": battle.info.name,
                                    "seed": battle.info.seed, "fought_at": sqlite_file.now()}, pk="no")
        if not args.simulate:
            record.close()
            print(f"wrote {out}: battle {no} of the campaign. Fight it in the app "
                  f"(berthier open {out}), then: berthier campaign close {args.file} {out}")
            return 0
        try:
            Autopilot(session).play()
            record_meta = record.meta
        finally:
            record.close()
        result = close_battle(c, session, record_meta, str(out))
        b = session.battle
        winner = b.sides[b.state.winner].name if b.state.winner else "nobody"
        print(f"battle {no} fought ({out}): {winner} wins after {b.state.turn} turns; "
              f"{result['ledger_rows']} ledger rows, {result['rolls']} return rolls")
        _print_show(c.summary())
    finally:
        c.close()
    return 0


def _close(args) -> int:
    from ..store.battle_file import load_battle
    from .reconstitute import close_battle
    session, meta = load_battle(args.battle)
    c = _open(args.file)
    try:
        result = close_battle(c, session, meta, str(args.battle), force=args.force)
        print(f"battle {result['battle']} booked: {result['ledger_rows']} ledger rows, "
              f"{result['rolls']} rolls")
        for lid, event in result["leaders"]:
            print(f"  {c.leaders()[lid]['name']}: {event}")
    finally:
        c.close()
    return 0


def _show(args) -> int:
    from .ledger import Campaign
    c = Campaign.view(args.file)
    try:
        s = c.summary()
    finally:
        c.close()
    if args.json:
        print(json.dumps(s, indent=2, ensure_ascii=False))
    else:
        _print_show(s)
    return 0


def _print_show(s: dict) -> None:
    print(f"{s['campaign']} ({s['ruleset']}): {len(s['battles'])} battle(s)")
    for b in s["battles"]:
        state = f"{b['winner'] or 'undecided'} after {b['turns']} turns" if b["closed_at"] else "not closed"
        print(f"  battle {b['no']}: {b['scenario']} - {state}")
    for army in s["armies"].values():
        print(f"{army['name']}: start {army['start']}, losses {army['losses']}, returns "
              f"{army['returns']}, replacements {army['replacements']}, now {army['now']}")
        for u in army["units"]:
            mark = "  [destroyed]" if u["status"] == "destroyed" else ""
            print(f"    {u['name']:<32} {u['start']:>3} -{u['losses']:<3} +{u['returns']:<3} "
                  f"+{u['replacements']:<3} = {u['now']:>3}{mark}")


def _reinforce(args) -> int:
    c = _open(args.file)
    try:
        now = c.reinforce(args.unit, args.points, args.note or "")
        print(f"{c.units()[args.unit]['name']} is now {now}")
    finally:
        c.close()
    return 0


def _library(args) -> int:
    from ..store.oob_library import OobLibrary
    lib = OobLibrary(args.library)
    try:
        if args.do == "list":
            for e in lib.entries():
                print(f"{e['kind']:<8} {e['name']:<36} {e['units']:>4} units  {e['nation']}")
        elif args.do == "save":
            from ..scenario_io import load_scenario
            b = load_scenario(args.scenario)
            if bool(args.command_id) == bool(args.army):
                raise StoreError("library save: give --command ID or --army SIDE")
            if args.command_id and args.command_id not in b.commands:
                raise StoreError(f"{args.scenario}: no command {args.command_id!r}")
            if args.army and args.army not in b.sides:
                raise StoreError(f"{args.scenario}: no side {args.army!r}")
            name = (lib.save_command(b, args.command_id, args.name) if args.command_id
                    else lib.save_army(b, args.army, args.name))
            print(f"saved {name!r} in {lib.path}")
        elif args.do == "remove":
            lib.remove(args.name)
            print(f"removed {args.name!r} from {lib.path}")
    finally:
        lib.close()
    return 0


def register(sub) -> None:
    c = sub.add_parser("campaign", help="carry armies and their losses from battle to battle")
    cs = c.add_subparsers(dest="campaign_command", required=True)
    n = cs.add_parser("new", help="a campaign mustering a scenario's armies")
    n.add_argument("file")
    n.add_argument("--from", dest="scenario", required=True)
    n.add_argument("--name")
    n.add_argument("--seed", type=int, default=1, help="seed of the campaign's own dice")
    n.add_argument("--returns", type=float, default=0.25,
                   help="fraction of each lost point that comes back (default 0.25)")
    n.add_argument("--eliminated", choices=("destroyed", "reduced"), default="destroyed")
    n.add_argument("--fallen-leaders", choices=("roll", "wounded", "replaced"), default="roll")
    n.set_defaults(run=_new)
    f = cs.add_parser("fight", help="the next battle with the campaign's armies")
    f.add_argument("file")
    f.add_argument("--scenario", help="terrain and deployment (default: the founding scenario)")
    f.add_argument("--simulate", action="store_true", help="fight it now with the commander")
    f.add_argument("--seed", type=int)
    f.add_argument("-o", "--out", help="the battle file to write")
    f.set_defaults(run=_fight)
    cl = cs.add_parser("close", help="book a finished battle into the ledger")
    cl.add_argument("file")
    cl.add_argument("battle")
    cl.add_argument("--force", action="store_true", help="close a battle that is not over")
    cl.set_defaults(run=_close)
    s = cs.add_parser("show", help="the ledger: every unit's strength, losses and returns")
    s.add_argument("file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(run=_show)
    r = cs.add_parser("reinforce", help="add replacements to a unit")
    r.add_argument("file")
    r.add_argument("unit")
    r.add_argument("points", type=int)
    r.add_argument("--note")
    r.set_defaults(run=_reinforce)
    lb = sub.add_parser("library", help="the order-of-battle library in your data folder")
    lb.add_argument("--library", help="another library file than the one in your data folder")
    ls = lb.add_subparsers(dest="do", required=True)
    ls.add_parser("list", help="what the library holds").set_defaults(run=_library)
    sv = ls.add_parser("save", help="save a command or an army of a scenario")
    sv.add_argument("scenario")
    sv.add_argument("--command", dest="command_id", metavar="ID")
    sv.add_argument("--army", metavar="SIDE")
    sv.add_argument("--name")
    sv.set_defaults(run=_library)
    rm = ls.add_parser("remove")
    rm.add_argument("name")
    rm.set_defaults(run=_library)

