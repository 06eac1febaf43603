"""Plain-text orders of battle, written the way the Austerlitz listing is.

    Austerlitz                                  title
    1 unit = 1200 Infantry, 800 Cavalry ...     scale (optional)
    French Army - Emperor Napoleon I            army: "Name - Leader" or "Name, Leader"
    Imperial Guard, Marshal Bessieres           command: same forms
    3 Guard Infantry                            units: "N Type", singular or plural
    plus                                        the next "N more ..." lines add to the command
    2 more Foot Artillery (remark)              a remark may follow in parentheses
    (a remark on its own line)                  a note on the current command

An army line is told from a command line by what follows it: a command line is
followed by units, an army line by a command line. Nothing is returned unless the whole
file reads cleanly; an error names the line. `manager/oob/` reads this style through
here, other styles itself, and makes the game units and scenarios.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import OobError

# Normalised type text -> (generic kind, guard flag).
UNIT_TYPES = {
    "guard infantry": ("guard_infantry", False), "guard cavalry": ("guard_cavalry", False),
    "guard horse artillery": ("horse_artillery", True),
    "guard foot artillery": ("foot_artillery", True),
    "guard artillery": ("foot_artillery", True), "guard battery": ("foot_artillery", True),
    "grenadier": ("grenadiers", False), "line infantry": ("line_infantry", False),
    "infantry": ("line_infantry", False), "line": ("line_infantry", False),
    "light infantry": ("light_infantry", False), "militia": ("militia", False),
    "militia infantry": ("militia", False), "rifle": ("rifles", False),
    "skirmisher": ("skirmishers", False), "heavy cavalry": ("heavy_cavalry", False),
    "light cavalry": ("light_cavalry", False), "foot artillery": ("foot_artillery", False),
    "foot battery": ("foot_artillery", False), "horse artillery": ("horse_artillery", False),
    "horse battery": ("horse_artillery", False), "heavy artillery": ("heavy_artillery", False),
    "heavy battery": ("heavy_artillery", False),
}

_TYPE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .'-")
MAX_UNITS = 2_000          # units in one line: more is a typo, not an order of battle


def unit_line(line: str):
    """(count, more, type, remark) of 'N [more] Type [(remark)]', or None.

    Split by hand, not by a pattern: a backtracking pattern took seconds on a line of
    spaces; this is linear in the line's length whatever it holds."""
    parts = line.split(None, 1)
    if len(parts) < 2 or not parts[0].isdigit():
        return None
    count, rest = parts[0], parts[1].strip()
    more = ""
    low = rest[:5].lower()
    if low == "more " or rest.lower() == "more":
        more, rest = rest[:4], rest[5:].strip()
    remark = ""
    if rest.endswith(")") and "(" in rest:
        i = rest.index("(")
        rest, remark = rest[:i].strip(), rest[i + 1:-1]
    if not rest or not rest[0].isalpha() or not set(rest) <= _TYPE_CHARS:
        return None
    return count, more, rest, remark
SCALE_LINE = re.compile(r"\bunits?\s*=", re.IGNORECASE)


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"          # batteries -> battery
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def unit_type(text: str):
    key = " ".join(_singular(w) for w in text.lower().split())
    return UNIT_TYPES.get(key) or UNIT_TYPES.get(" ".join(text.lower().split()))


@dataclass
class OobUnits:
    count: int
    kind: str
    guard: bool
    text: str
    remark: str = ""
    line: int = 0

    @property
    def fixed(self) -> bool:
        return "cannot move" in self.remark.lower()


@dataclass
class OobCommand:
    name: str
    leader: str
    line: int
    units: list[OobUnits] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(u.count for u in self.units)


@dataclass
class OobArmy:
    name: str
    leader: str
    line: int
    commands: list[OobCommand] = field(default_factory=list)


@dataclass
class Oob:
    title: str
    scale: str
    armies: list[OobArmy]
    path: str = ""

    @property
    def total_units(self) -> int:
        return sum(c.total for a in self.armies for c in a.commands)

    def to_json(self) -> dict:
        armies = {}
        for a in self.armies:
            cmds = {}
            for c in a.commands:
                by_kind: dict[str, int] = {}
                for u in c.units:
                    by_kind[u.kind] = by_kind.get(u.kind, 0) + u.count
                cmds[c.name] = {"leader": c.leader, "units": c.total, "by_kind": by_kind}
            armies[a.name] = {"leader": a.leader, "commands": cmds}
        return {"armies": armies, "total_units": self.total_units}


def split_header(text: str) -> tuple[str, str]:
    """'Name - Leader' or 'Name, Leader'; the dash wins when both appear."""
    for sep in (" - ", " – ", ", "):
        if sep in text:
            name, leader = text.split(sep, 1)
            return name.strip(), leader.strip()
    return text.strip(), ""


def parse_oob(text: str, path="<text>") -> Oob:
    lines = [(i + 1, raw.strip()) for i, raw in enumerate(text.splitlines())]
    lines = [(n, l) for n, l in lines if l]
    if not lines:
        raise OobError(path, "", "the file is empty; expected a title line")
    title = lines[0][1]
    rest = lines[1:]
    scale = ""
    if rest and SCALE_LINE.search(rest[0][1]):
        scale = rest[0][1].rstrip(".")
        rest = rest[1:]
    # classify every line first, so a header's role can be read from what follows it
    kinds = []
    for n, l in rest:
        if l.lower() in ("plus", "plus:"):
            kinds.append("plus")
        elif l.startswith("(") and l.endswith(")"):
            kinds.append("remark")
        elif re.match(r"^\d+\s", l):    # "3 Line Infantry", not "1st Corps"
            kinds.append("units")
        else:
            kinds.append("header")
    armies: list[OobArmy] = []
    command: OobCommand | None = None
    adding = False
    for idx, ((n, l), kind) in enumerate(zip(rest, kinds)):
        if kind == "header":
            nxt = next((k for k in kinds[idx + 1:] if k != "remark"), None)
            name, leader = split_header(l)
            if nxt == "header":
                armies.append(OobArmy(name, leader, n))
                command = None
            elif nxt == "units":
                if not armies:
                    raise OobError(path, f"line {n}", f"command {name!r} comes before any army "
                                   "line (an army line is followed by a command line)")
                command = OobCommand(name, leader, n)
                armies[-1].commands.append(command)
            else:
                raise OobError(path, f"line {n}", f"{l!r} is followed by no units; expected unit "
                               "lines such as '3 Line Infantry' after a command")
            adding = False
        elif kind == "plus":
            if command is None:
                raise OobError(path, f"line {n}", "'plus' must follow a command's units")
            adding = True
        elif kind == "remark":
            if command is not None:
                command.notes.append(l[1:-1].strip())
            elif armies:
                pass    # a remark on an army: kept by nobody, harmless
        else:
            m = unit_line(l)
            if not m:
                raise OobError(path, f"line {n}", f"cannot read {l!r}; expected 'N Unit Type', "
                               "e.g. '3 Light Cavalry' or '2 more Foot Artillery (remark)'")
            if command is None:
                raise OobError(path, f"line {n}", f"units {l!r} come before any command line")
            count, more, typ, remark = m
            if more and not adding:
                raise OobError(path, f"line {n}", f"'{count} more ...' needs a 'plus' line before it")
            found = unit_type(typ)
            if found is None:
                known = sorted({k.title() for k in UNIT_TYPES})
                raise OobError(path, f"line {n}", f"unknown unit type {typ.strip()!r}; expected "
                               f"one of: {', '.join(known)} (singular or plural)")
            if int(count) <= 0:
                raise OobError(path, f"line {n}", f"a unit count must be at least 1, got {count}")
            if int(count) > MAX_UNITS:
                raise OobError(path, f"line {n}", f"{int(count):,} units in one line is more "
                               f"than any order of battle holds (at most {MAX_UNITS:,})")
            command.units.append(OobUnits(int(count), found[0], found[1], typ.strip(),
                                          (remark or "").strip(), n))
    if not armies:
        raise OobError(path, "", "no army found; expected an army line followed by command lines")
    for a in armies:
        if not a.commands:
            raise OobError(path, f"line {a.line}", f"army {a.name!r} has no commands")
    return Oob(title, scale, armies, str(path))


def read_oob(path) -> Oob:
    from .scenario_io import read_text
    path = Path(path)
    return parse_oob(read_text(path, OobError), path)
