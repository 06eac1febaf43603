"""Finding hosted battles on the local network with zeroconf (mDNS / DNS-SD).

A host advertises `_berthier._tcp.local.` with the battle's name, ruleset, turn, port
and protocol version in its TXT record; never the join code, which the players read off
the host's screen. `browse(timeout)` lists what answers; `async_browse` does the same
inside a running event loop (the host and the app run asyncio; zeroconf's blocking calls
refuse to run on the loop's thread).
"""
from __future__ import annotations

import asyncio
import socket
import struct
import time
from dataclasses import dataclass

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

SERVICE = "_berthier._tcp.local."
NAME_BYTES = 63                       # DNS-SD instance names are one DNS label


@dataclass(frozen=True)
class HostFound:
    """One hosted battle that answered: where to join it and what it is."""
    instance: str
    address: str
    port: int
    battle: str
    ruleset: str
    turn: int
    protocol: int
    host_name: str = ""

    @property
    def join_address(self) -> str:
        return f"{self.address}:{self.port}"

    @property
    def label(self) -> str:
        turn = f"turn {self.turn}" if self.turn else "not started"
        who = f" on {self.host_name}" if self.host_name else ""
        return f"{self.battle} ({self.ruleset}, {turn}){who}: {self.join_address}"


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (loopback last, for one-machine games)."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip not in found:
                found.append(ip.ip)
    return sorted(found, key=lambda a: (a.startswith("127."), a))


def instance_name(battle: str, host_name: str | None = None) -> str:
    """'Austerlitz on club-laptop', cut to fit one DNS label (UTF-8 bytes)."""
    host_name = host_name if host_name is not None else socket.gethostname().split(".")[0]
    text = f"{battle} on {host_name}" if host_name else battle
    text = text.replace(".", " ")
    while len(text.encode("utf-8")) > NAME_BYTES:
        text = text[:-1]
    return text.strip() or "Berthier battle"


def properties(battle: str, ruleset: str, turn: int, port: int, protocol: int,
               host_name: str = "") -> dict:
    """The TXT record: what the Join dialog shows before anyone connects. No code."""
    return {"battle": battle[:120], "ruleset": ruleset[:60], "turn": str(int(turn)),
            "port": str(int(port)), "v": str(int(protocol)), "host": host_name[:60]}


class Advertiser:
    """A host's announcement on the local network, kept up to date as the turn moves.

    Use it from inside the host's event loop: `await start()`, `await update(turn=3)`,
    `await close()`. `addresses` defaults to this machine's; give the one the host
    listens on when it listens on one only (loopback for a one-machine game).
    """

    def __init__(self, battle: str, ruleset: str, port: int, protocol: int, turn: int = 0,
                 addresses: list[str] | None = None, interfaces: list[str] | None = None):
        self.host_name = socket.gethostname().split(".")[0]
        self.fields = {"battle": battle, "ruleset": ruleset, "turn": turn, "port": port,
                       "protocol": protocol}
        self.addresses = list(addresses) if addresses else local_addresses()
        self.interfaces = interfaces or self.addresses
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _service_info(self, same_as: AsyncServiceInfo | None = None) -> AsyncServiceInfo:
        f = self.fields
        props = properties(f["battle"], f["ruleset"], f["turn"], f["port"], f["protocol"],
                           self.host_name)
        # an update keeps the instance (zeroconf may have renamed it) and its server name
        name = same_as.name if same_as else f"{instance_name(f['battle'], self.host_name)}.{SERVICE}"
        return AsyncServiceInfo(SERVICE, name, port=int(f["port"]), properties=props,
                                addresses=[socket.inet_aton(a) for a in self.addresses],
                                server=same_as.server if same_as else None)

    @property
    def name(self) -> str:
        """The instance name announced (zeroconf renames it when another host has it)."""
        return self._info.name if self._info is not None else ""

    async def start(self) -> None:
        self._zc = AsyncZeroconf(interfaces=self.interfaces, ip_version=IPVersion.V4Only)
        self._info = self._service_info()
        await self._zc.async_register_service(self._info, allow_name_change=True)

    async def update(self, **changes) -> None:
        """New turn (or name): the TXT record is announced again."""
        if not changes or all(self.fields.get(k) == v for k, v in changes.items()):
            return
        self.fields.update(changes)
        if self._zc is None:
            return
        self._info = self._service_info(same_as=self._info)
        await self._zc.async_update_service(self._info)

    async def close(self) -> None:
        zc, self._zc = self._zc, None
        if zc is not None:
            try:
                await zc.async_unregister_all_services()
            finally:
                await zc.async_close()


def _found(info, name: str) -> HostFound | None:
    """A HostFound from a resolved service, or None for an answer that is not ours."""
    props = {}
    for k, v in (info.properties or {}).items():
        if isinstance(k, bytes) and isinstance(v, bytes):
            props[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    try:
        turn, protocol = int(props.get("turn", "0")), int(props.get("v", "0"))
    except ValueError:
        return None
    instance = name[:-len(SERVICE) - 1] if name.endswith("." + SERVICE) else name
    return HostFound(instance, addresses[0], int(info.port), props.get("battle", instance),
                     props.get("ruleset", "?"), turn, protocol, props.get("host", ""))


class Watcher:
    """Hosts on the local network as they come and go (the Join dialog's live list).

    Inside an event loop: `await start()`, read `hosts`, `await close()`;
    `on_change(hosts)` is called on the loop whenever the list changes.
    """

    def __init__(self, on_change=None, interfaces: list[str] | None = None):
        self.on_change = on_change
        self.interfaces = interfaces or local_addresses()
        self._found: dict[str, HostFound] = {}
        self._tasks: set = set()
        self._zc = self._browser = None

    @property
    def hosts(self) -> list[HostFound]:
        return sorted(self._found.values(), key=lambda h: (h.battle, h.address, h.port))

    async def start(self) -> None:
        self._zc = AsyncZeroconf(interfaces=self.interfaces, ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE, handlers=[self._seen])

    def _seen(self, zeroconf, service_type, name, state_change) -> None:
        if state_change is ServiceStateChange.Removed:
            if self._found.pop(name, None) is not None:
                self._changed()
            return
        task = asyncio.ensure_future(self._resolve(name))     # added or updated (new turn)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        info = AsyncServiceInfo(SERVICE, name)
        if self._zc is not None and await info.async_request(self._zc.zeroconf, 1500):
            host = _found(info, name)
            if host is not None and self._found.get(name) != host:
                self._found[name] = host
                self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.hosts)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        browser, zc, self._browser, self._zc = self._browser, self._zc, None, None
        if browser is not None:
            await browser.async_cancel()
        if zc is not None:
            await zc.async_close()


async def async_browse(timeout: float = 2.0, interfaces: list[str] | None = None,
                       until=None) -> list[HostFound]:
    """Hosts that answer within `timeout` seconds, sorted by battle and address; with
    `until(hosts)`, as soon as that is true."""
    watcher = Watcher(interfaces=interfaces)
    await watcher.start()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and not (until and until(watcher.hosts)):
            await asyncio.sleep(0.05)          # the browser's answers arrive meanwhile
        return watcher.hosts
    finally:
        await watcher.close()


def browse(timeout: float = 2.0, interfaces: list[str] | None = None,
           until=None) -> list[HostFound]:
    """Blocking browse, for the command line and tests (not from inside an event loop)."""
    return asyncio.run(async_browse(timeout, interfaces, until))


def multicast_works(address: str = "127.0.0.1", timeout: float = 1.0) -> str | None:
    """None when a multicast datagram sent on `address`'s interface comes back to this
    machine (what two Berthiers on one machine need to find each other), else the reason
    it does not. Uses a group of the administratively scoped range, not mDNS's own."""
    group, token = "239.255.77.77", f"berthier-probe-{time.monotonic_ns()}".encode()
    rx = tx = None
    try:
        rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        rx.bind(("", 0))
        port = rx.getsockname()[1]
        rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                      struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton(address)))
        rx.settimeout(timeout)
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(address))
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        tx.sendto(token, (group, port))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            data, _ = rx.recvfrom(256)
            if data == token:
                return None
        return f"no multicast came back on {address} within {timeout:g} s"
    except socket.timeout:
        return f"no multicast came back on {address} within {timeout:g} s"
    except OSError as exc:
        return f"multicast on {address} is not available: {exc.strerror or exc}"
    finally:
        for s in (rx, tx):
            if s is not None:
                s.close()


class HostAnnouncement:
    """A running Host announced on the local network, its TXT kept to the battle's turn.

    `await start()` answers a sentence for the umpire ("announced as …", or why not:
    discovery is a convenience, typing the address always works); `await close()`."""

    def __init__(self, host, ruleset_name: str):
        self.host, self.ruleset_name = host, ruleset_name
        self.advertiser: Advertiser | None = None
        self._turn = None
        self._unsubscribe = None
        self._tasks: set = set()

    async def start(self) -> str:
        from .protocol import VERSION
        battle = self.host.session.battle
        shown = self.host.address.rsplit(":", 1)[0].strip("[]")
        try:
            socket.inet_aton(shown)
        except OSError:
            return f"Not announced on the network ({shown} is not an IPv4 address)."
        addresses = local_addresses() if shown == "0.0.0.0" else [shown]
        ad = Advertiser(battle.info.name, self.ruleset_name, self.host.port, VERSION,
                        battle.state.turn, addresses=addresses)
        self._turn = battle.state.turn
        try:
            await ad.start()
        except Exception as exc:          # OSError, zeroconf's own: many ways to fail
            return f"Not announced on the network ({exc or type(exc).__name__}); give the address by hand."
        self.advertiser = ad
        self._unsubscribe = self.host.session.bus.subscribe(lambda *_: self._follow())
        self._follow()                     # the battle may have moved while zeroconf probed
        return f"Announced on the local network as “{ad.name.split('._')[0]}”."

    def _follow(self) -> None:
        turn = self.host.session.battle.state.turn
        if self.advertiser is not None and turn != self._turn:
            self._turn = turn
            task = asyncio.ensure_future(self.advertiser.update(turn=turn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for task in list(self._tasks):
            task.cancel()
        ad, self.advertiser = self.advertiser, None
        if ad is not None:
            await ad.close()
