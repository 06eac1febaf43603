"""The wire format between a host and its laptops: versioned JSON, checked field by field.

Every message is one JSON object `{"v": 1, "type": ..., ...}` in one WebSocket text
frame. `decode` refuses anything else with a ProtocolError that says what was wrong:
bytes that are not UTF-8 JSON, nesting too deep, an unknown type, a missing or
mistyped field, a number out of range. Actions are rebuilt only through the action
registry (`action_from_dict`), which refuses unknown names and fields, and only game
actions may come from a laptop (edits are the host's). Nothing is ever unpickled or
evaluated. The whole protocol is written down in docs/network.md.
"""
from __future__ import annotations

import hashlib
import json
import time
from collections import deque

from .. import session as _every_action  # noqa: F401  (the registry holds every action)
from ..actions import REGISTRY, Action, action_from_dict
from ..errors import BerthierError

VERSION = 1
MAX_MESSAGE = 64 * 1024          # bytes a laptop may send in one message
MAX_FROM_HOST = 32 * 1024 * 1024  # what a laptop accepts (the scenario and a page of log)
MAX_DEPTH = 16                    # nesting of objects and lists in a message
MAX_TEXT = 200                    # characters in a name, a code, a reason
MAX_LIST = 64                     # commands claimed, dice typed
PAGE = 400                        # log entries per `entries` message


class ProtocolError(BerthierError):
    """A message that is not Berthier's protocol; the text names the field and what was expected."""


# ---- the fields each message from a laptop carries: name -> (kind, required) ------------
INT, TEXT, TEXTS, INTS, OBJ = "int", "text", "texts", "ints", "object"
FROM_LAPTOP = {
    "hello": {"code": (TEXT, True), "laptop": (TEXT, True), "name": (TEXT, False),
              "commands": (TEXTS, True), "have": (INT, False), "tip": (TEXT, False)},
    "act": {"id": (INT, True), "index": (INT, True), "action": (OBJ, True),
            "dice": (INTS, False)},
    "done": {"turn": (INT, True), "side": (TEXT, True), "phase": (TEXT, True)},
    "undo": {"id": (INT, True), "to": (INT, True), "why": (TEXT, False)},
    "claim": {"commands": (TEXTS, True), "id": (INT, False)},
    "release": {"commands": (TEXTS, True), "id": (INT, False)},
    "leave": {},
}


def message(kind: str, **fields) -> str:
    """One message as the text sent on the wire."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"),
                      ensure_ascii=False)


def _depth(x, limit: int) -> int:
    """How deep a decoded value nests (stops counting past the limit)."""
    stack, deepest = [(x, 1)], 0
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack.extend((w, d + 1) for w in v.values())
        elif isinstance(v, list):
            stack.extend((w, d + 1) for w in v)
    return deepest


def parse(raw, limit: int = MAX_MESSAGE) -> dict:
    """Text or bytes -> a JSON object with the right version and a known-looking type."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 text") from None
    if not isinstance(raw, str):
        raise ProtocolError("a message must be text")
    if len(raw.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError(f"message too large ({len(raw)} characters; at most {limit} bytes)")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("message nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object, got {type(data).__name__}")
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ProtocolError(f"message nested deeper than {MAX_DEPTH} levels")
    if data.get("v") != VERSION:
        raise ProtocolError(f"protocol version {data.get('v')!r} is not spoken here "
                            f"(this Berthier speaks version {VERSION})")
    if not isinstance(data.get("type"), str):
        raise ProtocolError("a message needs a 'type' (text)")
    return data


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


def _field(kind: str, name: str, value):
    if kind == INT:
        if type(value) is not int or not 0 <= value < 2 ** 53:
            raise ProtocolError(f"{name}: expected a whole number from 0, got {_short(value)}")
    elif kind == TEXT:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise ProtocolError(f"{name}: expected text of at most {MAX_TEXT} characters, "
                                f"got {_short(value)}")
    elif kind == TEXTS:
        if (not isinstance(value, list) or len(value) > MAX_LIST
                or not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in value)):
            raise ProtocolError(f"{name}: expected a list of at most {MAX_LIST} names, "
                                f"got {_short(value)}")
    elif kind == INTS:
        if (not isinstance(value, list) or len(value) > MAX_LIST
                or not all(type(v) is int and 1 <= v <= 100 for v in value)):
            raise ProtocolError(f"{name}: expected a list of at most {MAX_LIST} dice faces "
                                f"(1..100), got {_short(value)}")
    elif kind == OBJ and not isinstance(value, dict):
        raise ProtocolError(f"{name}: expected an object, got {_short(value)}")
    return value


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def decode(raw, limit: int = MAX_MESSAGE) -> dict:
    """A laptop's message, every field checked; `act` carries a rebuilt Action."""
    data = parse(raw, limit)
    kind = data["type"]
    spec = FROM_LAPTOP.get(kind)
    if spec is None:
        raise ProtocolError(f"unknown message type {_short(kind)}; expected one of "
                            f"{', '.join(FROM_LAPTOP)}")
    extra = set(data) - set(spec) - {"v", "type"}
    if extra:
        raise ProtocolError(f"{kind}: unexpected field(s) {', '.join(sorted(map(str, extra)))}")
    out = {"type": kind}
    for name, (field_kind, required) in spec.items():
        if name not in data:
            if required:
                raise ProtocolError(f"{kind}: missing field {name!r}")
            continue
        out[name] = _field(field_kind, f"{kind}.{name}", data[name])
    if kind == "act":
        out["action"] = rebuild_action(out["action"])
    return out


def _action_limits(value, where: str) -> None:
    """The message limits hold inside an action too: no text over MAX_TEXT, no list over
    MAX_LIST, before any rule reads a field."""
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ProtocolError(f"{where}: expected text of at most {MAX_TEXT} characters, got "
                            f"{len(value)}")
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            raise ProtocolError(f"{where}: expected a list of at most {MAX_LIST} items, got "
                                f"{len(value)}")
        for i, v in enumerate(value):
            _action_limits(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            _action_limits(k, f"{where} (a field name)")
            _action_limits(v, f"{where}.{k}")


def rebuild_action(d: dict) -> Action:
    """An action from its logged form, through the registry only; game actions only."""
    _action_limits(d, "act.action")
    cls = REGISTRY.get(d.get("action")) if isinstance(d.get("action"), str) else None
    if cls is not None and cls.category != "game":
        raise ProtocolError(f"act.action: {cls.__name__} edits the scenario; only the host "
                            f"edits, laptops send game actions")
    try:
        action = action_from_dict(d)
    except BerthierError as exc:
        raise ProtocolError(f"act.action: {exc}") from None
    if action.category != "game":
        raise ProtocolError(f"act.action: {action.verb} edits the scenario; only the host "
                            f"edits, laptops send game actions")
    try:                                    # a field of the wrong type is refused here,
        hash(action)                        # not deep inside a resolver
    except TypeError:
        raise ProtocolError(f"act.action: {action.verb}: a field holds an object") from None
    return action


def entry_digest(entry_dict: dict) -> str:
    """A short digest of one log entry (action and dice): a laptop's resume point."""
    core = {"index": entry_dict["index"], "action": entry_dict["action"],
            "rolls": entry_dict["rolls"]}
    text = json.dumps(core, sort_keys=True, separators=(",", ":"))   # canonical: no spaces
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


class RateLimit:
    """A token bucket: `rate` messages a second on average, bursts of `burst`; and the
    refusals of the last `window` seconds, so a laptop that keeps flooding can be told
    from one that sent a burst (a refill between refusals does not forgive a flood)."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0, clock=time.monotonic,
                 window: float = 10.0):
        self.rate, self.burst, self.clock, self.window = rate, burst, clock, window
        self.tokens, self.at = burst, clock()
        self.refused = 0
        self.run = 0                  # refusals in a row: logged once a run
        self.recent: deque[float] = deque()   # when the refusals of the window came

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        while self.recent and now - self.recent[0] > self.window:
            self.recent.popleft()
        if self.tokens >= 1:
            self.tokens -= 1
            self.run = 0
            return True
        self.refused += 1
        self.run += 1
        self.recent.append(now)
        return False

    def flooding(self, most: int) -> bool:
        """At least `most` refusals within the window: a flood, not a burst."""
        return len(self.recent) >= most
