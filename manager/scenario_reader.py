"""Reading a scenario's TOML tables: typed access that names the file and the full key
path on a bad value, and the readers of the tables several places share (standing orders,
arrivals, traits). scenario_io builds the battle from them."""
from __future__ import annotations

import math
from pathlib import Path

from .errors import ScenarioError
from .model.forces import UNIT_TRAITS
from .plans import STEP_KEYS, WHEN_KEYS

EDGES = ("north", "south", "east", "west")
ORDER_KINDS = ("attack", "hold", "reserve")


TYPE_WORDS = {dict: "a table", list: "a list", str: "text", int: "a whole number",
              float: "a number", bool: "true or false"}


class FieldReader:
    """Typed access to a TOML table that reports the full key path on a bad value."""

    def __init__(self, path, data, where=""):
        self.path, self.data, self.where = path, data, where

    def fail(self, key, problem):
        raise ScenarioError(self.path, self._key(key), problem)

    def _key(self, key):
        return f"{self.where}.{key}" if self.where and key != "" else (self.where or key)

    def get(self, key, kind, default=..., choices=None):
        if key not in self.data:
            if default is ...:
                self.fail(key, f"missing; expected {TYPE_WORDS.get(kind, kind)}")
            return default
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(kind, type) and (not isinstance(value, kind) or
                                       (kind is int and isinstance(value, bool))):
            self.fail(key, f"expected {TYPE_WORDS.get(kind, kind)}, got {short_value(value)}")
        if kind is float and not math.isfinite(value):
            self.fail(key, f"expected a finite number, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(key, f"expected one of {', '.join(map(str, choices))}, got {value!r}")
        return value

    def table(self, key, default=...):
        value = self.get(key, dict, default)
        return FieldReader(self.path, value or {}, self._key(key))

    def tables(self, key, required=True):
        value = self.get(key, list, ... if required else [])
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(f"{key}[{i}]", f"expected a table, got {item!r}")
            out.append(FieldReader(self.path, item, f"{self._key(key)}[{i}]"))
        return out

    def point(self, key):
        value = self.get(key, list)
        if not is_point(value):
            self.fail(key, f"expected two finite numbers [x, y], got {short_value(value)}")
        return float(value[0]), float(value[1])

    def unknown(self, allowed):
        extra = set(self.data) - set(allowed)
        if extra:
            self.fail(sorted(extra)[0], f"unknown key; expected one of {', '.join(sorted(allowed))}")


def is_point(p) -> bool:
    """Two finite numbers (NaN or infinity would poison every distance and shape)."""
    return (isinstance(p, list) and len(p) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p))


def short_value(value) -> str:
    """A value for a message: repr, cut short (a pasted megabyte is not a message)."""
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= 80 else text[:77] + "..."


def read_orders_table(r: "FieldReader") -> dict:
    """A command's standing orders for the automatic commander, checked here so a scenario
    that `check`s fine never fails in `simulate`."""
    if "orders" not in r.data:
        return {}
    o = r.table("orders")
    _order_keys(o, {"kind", "objective", "release_turn", "facing", "engage", "plan"})
    for step in o.tables("plan", required=False):
        _order_keys(step, set(STEP_KEYS))
        w = step.table("when", {})
        w.unknown(set(WHEN_KEYS))
        for key in ("turn", "at_most"):
            w.get(key, int, None)
        w.get("enemy_within", float, None)
        for key in ("clear_of", "of", "shaken", "arrived"):
            w.get(key, str, None)
        if "area" in w.data:
            area = w.get("area", list)
            if len(area) != 2:
                w.fail("area", f"expected two corners [[c0, r0], [c1, r1]], got {area!r}")
            for i in range(2):
                FieldReader(w.path, {"corner": area[i]}, w._key(f"area[{i}]")).point("corner")
    return dict(o.data)              # as written (whole box numbers stay whole)


def _order_keys(o: "FieldReader", allowed: set) -> None:
    o.unknown(allowed)
    o.get("kind", str, "attack", ORDER_KINDS)
    if "objective" in o.data:
        o.point("objective")
    for key in ("release_turn", "facing", "engage"):
        o.get(key, int, None)


def read_text(path: Path, error=ScenarioError) -> str:
    """A file's text, or `error` naming the file when it is missing or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(path, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(path, "", f"cannot be read as UTF-8 text ({exc})") from None


def read_arrives(r: "FieldReader", grid, width, height) -> dict:
    """An `arrives = { turn, roll, at/pos, to, name, delay_if_blocked }` table as the
    Arrival's fields; the entry in inches (a point, or a stretch from it to `to`)."""
    r.unknown({"turn", "roll", "at", "pos", "to", "name", "delay_if_blocked"})
    turn = r.get("turn", int)
    if turn < 1:
        r.fail("turn", f"expected the turn they arrive, 1 or more; got {turn}")
    roll = r.get("roll", int, 0)
    if roll and not 2 <= roll <= 6:
        r.fail("roll", f"expected the D6 score they need from that turn on, 2 to 6; got {roll}")
    if ("at" in r.data) == ("pos" in r.data):
        r.fail("at", "expected the entry as at = [col, row] (a box) or pos = [x, y] (inches)")
    key = "at" if "at" in r.data else "pos"
    if key == "at" and not grid:
        r.fail("at", "boxes need a gridded table; give pos = [x, y] in inches")

    def inches(k):
        x, y = r.point(k)
        if key == "at":
            if x != int(x) or y != int(y):
                r.fail(k, f"expected whole box numbers, got {r.data[k]!r}")
            x, y = (x + 0.5) * grid, (y + 0.5) * grid
        if not (0 <= x <= width and 0 <= y <= height):
            r.fail(k, f"the entry ({x:g}, {y:g}) inches is off the {width:g} x {height:g} table")
        return x, y
    entry = (inches(key),) + ((inches("to"),) if "to" in r.data else ())
    return dict(turn=turn, roll=roll, name=r.get("name", str, ""), entry=entry,
                delay_if_blocked=r.get("delay_if_blocked", bool, False))


def traits_of(r: "FieldReader") -> tuple:
    traits = r.get("traits", list, [])
    for t in traits:
        if t not in UNIT_TRAITS:
            r.fail("traits", f"expected names from {', '.join(UNIT_TRAITS)}, got {t!r}")
    return tuple(sorted(set(traits)))
