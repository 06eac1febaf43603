"""`berthier host ...` and `berthier join ...`: a hosted battle without a window.

The host's first three lines on stdout are `address ADDRESS`, `code CODE` and
`players URL` (flushed at once, for scripts and for reading aloud); the rest of what
it says goes to stderr. Ctrl+C or SIGTERM stops it cleanly: the server closes, the
battle file is checkpointed and its lock released. The join code and the players'
view token are kept in the battle file, so a host restarted on the same file (after a
crash, a kill -9) takes the same code and its laptops rejoin by themselves.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sys
from datetime import datetime
from pathlib import Path

from ..errors import BerthierError

log = logging.getLogger("berthier.net")


def register(sub) -> None:
    h = sub.add_parser("host", help="host a battle for several laptops on the local network")
    h.add_argument("file", help="a battle file (.berthier) to go on with, or a scenario (.toml)")
    h.add_argument("--save", metavar="NEW.berthier",
                   help="record into this new file (default: the battle file itself; for a "
                        "scenario, a new file in the autosave folder)")
    h.add_argument("--port", type=int, default=8765, help="port (0: any free port; default 8765)")
    h.add_argument("--bind", metavar="ADDRESS", help="listen on this local address only")
    h.add_argument("--public", action="store_true",
                   help="listen on every interface, public ones too (off by default)")
    h.add_argument("--code", help="the join code (default: the file's, else a new one)")
    h.add_argument("--turns", type=int, help="a scenario: end the battle after this many turns")
    h.add_argument("--no-announce", action="store_true",
                   help="do not announce the battle on the local network (zeroconf)")
    h.add_argument("--approve-undo", action="store_true",
                   help="take back moves when a laptop asks (no umpire at a headless host)")
    h.add_argument("--unheld", choices=("wait", "pass"), default="wait",
                   help="a side no laptop holds: its phases wait for a laptop to claim it "
                        "(default), or pass at the first laptop's done")
    h.set_defaults(run=_host)
    j = sub.add_parser("join", help="join a hosted battle as a laptop without a window")
    j.add_argument("address", help="the host's ADDRESS (HOST:PORT) as it printed it")
    j.add_argument("--code", required=True, help="the host's join code")
    j.add_argument("--commands", required=True, metavar="ID[,ID...]",
                   help="the commands this laptop plays (either side)")
    j.add_argument("--auto", action="store_true",
                   help="the automatic commander plays these commands; exit when the battle ends")
    j.add_argument("--save", metavar="COPY.berthier",
                   help="keep a copy of the battle (replaced as it goes)")
    j.add_argument("--name", help="how the host and the other laptops see this laptop")
    j.add_argument("--wait", type=float, default=15.0, metavar="SECONDS",
                   help="give up joining after this long without an answer (default 15)")
    j.add_argument("--id", dest="laptop_id", help=argparse_hidden())
    j.set_defaults(run=_join)


def argparse_hidden():
    import argparse
    return argparse.SUPPRESS


def _quiet_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("berthier: %(message)s"))
    net = logging.getLogger("berthier.net")
    net.addHandler(handler)
    net.setLevel(logging.INFO)
    net.propagate = False
    logging.getLogger("websockets").setLevel(logging.CRITICAL)


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):       # pragma: no cover - Windows
            pass


def open_for_hosting(path: Path, save: str | None, turns: int | None = None):
    """(BattleFile recording the hosted session) for a battle file or a scenario."""
    from ..session import Session
    from ..store import create_battle, open_battle
    if path.suffix.lower() == ".toml":
        from ..scenario_io import load_scenario
        battle = load_scenario(path)
        if turns:
            from dataclasses import replace
            battle.set_info(replace(battle.info, turns=int(turns)))
        session = Session(battle)
        if save is None:
            from ..store.autosave import autosave_dir
            folder = autosave_dir()
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            save = folder / f"{path.stem}-hosted-{stamp}.berthier"
        return create_battle(save, session)
    if save is not None:
        from ..store.battle_file import load_battle
        session, _ = load_battle(path)
        return create_battle(save, session)
    return open_battle(path)


def _host(args) -> int:
    _quiet_logging()
    from ..store import sqlite_file
    from .address import new_code, new_token
    from .address import choose_bind
    choose_bind(args.bind, args.public)          # a bad --bind is refused before any file
    if args.turns and Path(args.file).suffix.lower() != ".toml":
        raise BerthierError("--turns goes with a scenario (.toml); a battle file keeps its own")
    record = open_for_hosting(Path(args.file), args.save, args.turns)
    try:
        if record.notice:
            print(f"berthier: {record.notice}", file=sys.stderr)
        meta = record.meta
        code = (args.code or meta.get("net_code") or new_code()).strip().upper()
        token = meta.get("net_view") or new_token()
        sqlite_file.set_meta(record.db, net_code=code, net_view=token)
        return asyncio.run(_serve(args, record, code, token))
    finally:
        record.close()


async def _serve(args, record, code: str, token: str) -> int:
    from .host import Host
    host = Host(record.session, code=code, view_token=token, bind=args.bind, port=args.port,
                public=args.public, approve_undo=True if args.approve_undo else False,
                unheld=args.unheld)
    try:
        await host.start()
    except OSError as exc:
        raise BerthierError(f"cannot listen on port {args.port}: {exc.strerror or exc}; "
                            f"{record.path} is kept: host it again on another port") from None
    print(f"address {host.address}", flush=True)
    print(f"code {host.code}", flush=True)
    print(f"players {host.players_url}", flush=True)
    print(f"berthier: hosting {record.session.battle.info.name} ({len(record.session.entries)} "
          f"entries), recording to {record.path}; Ctrl+C stops", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    _stop_on_signals(stop)
    from .discovery import HostAnnouncement
    announcement = HostAnnouncement(host, record.session.ruleset.name)
    announcing = None
    if not args.no_announce:          # in the background: zeroconf probes for ~2 s
        announcing = asyncio.ensure_future(_announce(announcement))
    try:
        await stop.wait()
    finally:
        if announcing is not None:
            announcing.cancel()
        await announcement.close()
        await host.stop()
    if record.error:
        raise BerthierError(record.error)
    print(f"berthier: stopped; {len(record.session.entries)} entries in {record.path}",
          file=sys.stderr, flush=True)
    return 0


async def _announce(announcement) -> None:
    """File > Join battle on other laptops lists this host (the code is never announced)."""
    print(f"berthier: {await announcement.start()}", file=sys.stderr, flush=True)


def _join(args) -> int:
    _quiet_logging()
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    if not commands:
        raise BerthierError("--commands: name at least one command id")
    return asyncio.run(_follow(args, commands))


class CopyKeeper:
    """Keeps `--save COPY` up to date: a battle file recording the laptop's session, made
    again whenever the laptop is re-synced onto a new session. A copy left by a laptop
    that was killed is opened again, so the laptop resumes from its last entry."""

    def __init__(self, path):
        self.laptop, self.path, self.file = None, Path(path), None

    def resume(self):
        """The session the copy holds, or None (no copy yet, or not one to resume from)."""
        if not self.path.exists():
            return None
        from ..store import open_battle
        try:
            self.file = open_battle(self.path)
        except BerthierError as exc:
            print(f"berthier: {exc}; starting afresh", file=sys.stderr)
            return None
        return self.file.session

    def bind(self, laptop) -> None:
        self.laptop = laptop
        laptop.add_listener(self._on)

    def _on(self, kind, **details) -> None:
        if kind == "reset":
            self.write()

    def write(self) -> None:
        from ..store import create_battle
        if self.file is not None:
            self.file.close()
        self.file = create_battle(self.path, self.laptop.session, replace=True,
                                  hosted_by=self.laptop.uri)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


async def _follow(args, commands) -> int:
    from .laptop import Laptop
    from .pilot import play_auto
    keeper = CopyKeeper(args.save) if args.save else None
    laptop = Laptop(args.address, args.code, commands, name=args.name or "",
                    laptop_id=args.laptop_id, session=keeper.resume() if keeper else None)
    if keeper is not None:
        keeper.bind(laptop)
    laptop.add_listener(_printer(laptop))
    stop = asyncio.Event()
    _stop_on_signals(stop)
    try:
        await laptop.start(timeout=args.wait)
        if keeper is not None and keeper.file is None:
            keeper.write()
        print(f"joined {laptop.host}:{laptop.port} as {laptop.name} for "
              f"{', '.join(laptop.commands)}; {laptop.head} entries", flush=True)
        if args.auto:
            player = asyncio.ensure_future(play_auto(laptop, stop=stop))
        else:
            player = asyncio.ensure_future(laptop.wait_until(
                lambda: laptop.session is not None and laptop.session.battle.state.over, 10 ** 9))
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait([player, stopper], return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if player.done() and player.exception() is not None:
            raise player.exception()
        player.cancel()
        st = laptop.session.battle.state
        if st.over:
            print(f"the battle is over: {st.reason}", flush=True)
        return 0
    finally:
        await laptop.close()
        if keeper is not None:
            keeper.close()


def _printer(laptop):
    told = []                                   # the phase whose wait was last reported

    def on(kind, **d):
        if kind == "entry":
            e = d["entry"]
            print(f"{e.index} {e.action.describe()}", flush=True)
        elif kind in ("refused", "notice", "error") and laptop.state != "refused":
            print(f"berthier: {kind}: {d.get('reason') or d.get('text')}", file=sys.stderr,
                  flush=True)
        elif kind == "acting" and d.get("unheld") and not d.get("waiting") \
                and told[-1:] != [(d["turn"], d["side"], d["phase"])]:
            told[:] = [(d["turn"], d["side"], d["phase"])]
            print(f"berthier: waiting for a laptop to claim {d['unheld']}", file=sys.stderr,
                  flush=True)
        elif kind == "state" and d["state"] in ("reconnecting", "joined"):
            print(f"berthier: {d['state']} {d.get('detail', '')}".rstrip(), file=sys.stderr,
                  flush=True)
    return on
