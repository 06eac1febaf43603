"""Where a host listens, who may talk to it, and the codes that let them in.

By default a host listens on this machine's local-network address (the one its route
out would use) and on loopback, never on every interface: a laptop in a hotel or a
club on a public network is not reachable from outside. An address that is not a
private, loopback or link-local one is refused unless `public` is asked for; peers
from outside the local network are turned away the same way.
"""
from __future__ import annotations

import ipaddress
import secrets
import socket

from ..errors import BerthierError

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"    # no 0/O, 1/I: read aloud at a table


def new_code(length: int = 6) -> str:
    """A join code to read out at the table (30 bits: with the host's limit on wrong
    codes, guessing it takes years)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_token() -> str:
    """The players' read-only view token (in the players' URL)."""
    return secrets.token_urlsafe(9)


# RFC 1918 and IPv6 ULA: the local networks. Not Python's `is_private`, which also counts
# documentation (TEST-NET) and other reserved ranges that are nobody's club Wi-Fi.
PRIVATE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                             "fc00::/7")]


def is_local(ip: str) -> bool:
    """A private (RFC 1918, ULA), loopback or link-local address."""
    try:
        a = ipaddress.ip_address(ip.split("%")[0])
    except ValueError:
        return False
    if getattr(a, "ipv4_mapped", None):
        a = a.ipv4_mapped
    return a.is_loopback or a.is_link_local or any(a in n for n in PRIVATE)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))        # TEST-NET: only picks the outgoing interface
        ip = s.getsockname()[0]
    except OSError:
        ip = "127.0.0.1"
    finally:
        s.close()
    return ip


def choose_bind(bind: str | None, public: bool) -> tuple[list[str], str]:
    """(addresses to listen on, the address to tell laptops)."""
    if public:
        return (["0.0.0.0"], bind or lan_address())
    if bind:
        if not is_local(bind):
            raise BerthierError(f"{bind} is not a local-network address; a host listens on "
                                f"the local network only unless started with --public")
        return ([bind], bind)
    lan = lan_address()
    if lan == "127.0.0.1" or not is_local(lan):
        return (["127.0.0.1"], "127.0.0.1")
    return ([lan, "127.0.0.1"], lan)


def split_address(address: str, default_port: int = 8765) -> tuple[str, int]:
    """'192.168.1.20:8765' (or ws://... or a bare host) -> (host, port)."""
    text = address.strip()
    for prefix in ("ws://", "http://"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    text = text.split("/", 1)[0]
    if text.startswith("["):                     # [ipv6]:port
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    if not host:
        raise BerthierError(f"{address!r}: expected HOST:PORT, e.g. 192.168.1.20:8765")
    try:
        return host, int(port) if port else default_port
    except ValueError:
        raise BerthierError(f"{address!r}: the port must be a number") from None


def join_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
