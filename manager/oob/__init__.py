"""Orders of battle as people write them, read into armies, commands and game units.

    result = import_files(["iv_corps.txt", "russians.txt"], scale="men", command_level="corps")
    result.problems      # every line that looks like troops but cannot be read, by file and line
    result.to_json()     # the report: armies, commands, listed strengths, units formed, skipped prose
    result.to_scenario("morschauser")     # two armies: a playable scenario

Styles (see `listing.py`): the seed's listing, indented listings with `!` directives, and
unindented listings with heading words, blank lines and prose. Nothing is guessed silently:
typo corrections, mixed brigades, doubtful leaders and defaults are reported as notes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OobError
from . import lexicon as lx
from .deploy import scenario_from
from .forming import GameUnit, Scale, form_units
from .listing import Formation, Listing, Problem, read_indented, read_unindented
from .seed import read_seed

__all__ = ["import_files", "import_texts", "read_listing", "OobImport", "Scale", "printable"]


def read_listing(text: str, file: str) -> Listing:
    lines = list(enumerate(text.splitlines(), 1))
    nonblank = [raw for _n, raw in lines if raw.strip()]
    if not nonblank:
        out = Listing(file, "empty")
        out.problems.append(Problem(file, 1, "", "the file is empty; expected an order of battle"))
        return out
    indented = sum(1 for raw in nonblank if raw[:1] in (" ", "\t"))
    if any(raw.lstrip().startswith("!") for raw in nonblank) and indented or \
            indented * 5 >= len(nonblank):
        return read_indented(lines, file)
    seed = read_seed(text, file)
    if seed is not None:
        return seed
    return read_unindented(lines, file)


@dataclass
class Command:
    name: str
    leader: str
    file: str
    line: int
    leader_doubtful: bool = False
    elements: list = field(default_factory=list)
    units: list[GameUnit] = field(default_factory=list)
    formations: list[str] = field(default_factory=list)

    def listed(self) -> dict:
        out: dict[str, float] = {}
        for e in self.elements:
            if e.count is not None and not e.absent and e.measure != "units":
                out[e.measure] = out.get(e.measure, 0) + e.count
        return {k: (int(v) if float(v).is_integer() else v) for k, v in sorted(out.items())}


@dataclass
class Army:
    name: str
    leader: str
    nation: str
    file: str
    line: int
    commands: list[Command] = field(default_factory=list)


@dataclass
class OobImport:
    armies: list[Army]
    scale: Scale
    listings: list[Listing]
    problems: list[Problem] = field(default_factory=list)
    skipped: list[tuple] = field(default_factory=list)
    notes: list[tuple] = field(default_factory=list)
    title: str = ""

    @property
    def total_units(self) -> int:
        return sum(len(c.units) for a in self.armies for c in a.commands)

    def to_json(self) -> dict:
        armies = {}
        units = []
        for a in self.armies:
            cmds = {}
            for c in a.commands:
                by_kind: dict[str, int] = {}
                for u in c.units:
                    by_kind[u.kind] = by_kind.get(u.kind, 0) + 1
                    units.append({"army": a.name, "command": c.name, "name": u.name,
                                  "kind": u.kind, "traits": list(u.traits),
                                  "from": [{"file": f, "line": ln, "share": sh}
                                           for f, ln, sh in u.sources]})
                cmds[c.name] = {"leader": c.leader, "units": len(c.units), "by_kind": by_kind,
                                "listed": c.listed()}
                if c.leader_doubtful:
                    cmds[c.name]["leader_doubtful"] = True
            armies[a.name] = {"leader": a.leader, "nation": a.nation, "commands": cmds}
        return {"armies": armies, "total_units": self.total_units,
                "scale": self.scale.describe(),
                "skipped": [{"file": f, "line": n, "text": t} for f, n, t in self.skipped],
                "problems": [{"file": p.file, "line": p.line, "text": p.text,
                              "message": p.message} for p in self.problems],
                "notes": [{"file": f, "line": n, "text": t} for f, n, t in self.notes],
                "units": units}

    def to_scenario(self, ruleset: str = "morschauser") -> dict:
        if len(self.armies) != 2:
            where = "; ".join(f"{a.name!r} ({a.file} line {a.line})" for a in self.armies)
            raise OobError(", ".join(str(l.file) for l in self.listings), "",
                           f"a scenario needs two armies, the listings make {len(self.armies)}"
                           + (f": {where}" if where else "")
                           + "; name each file's army with --army FILE=NAME")
        return scenario_from(self, ruleset)


def _commands_of(army: Formation, level: str, elements_out: list) -> list[Command]:
    cmds: list[Command] = []
    if army.elements:
        c = Command(f"{army.name} army troops", army.leader, army.file, army.line)
        c.elements = list(army.elements) if not army.absent else \
            list(army.walk_elements())
        cmds.append(c)
    for child in army.children:
        subs = [f for f in child.children] if level == "division" else []
        if subs:
            if child.elements:
                c = Command(f"{child.name} (corps troops)", child.leader, child.file, child.line,
                            child.leader_doubtful, list(child.elements), [], [child.name])
                cmds.append(c)
            for s in subs:
                cmds.append(Command(s.name, s.leader, s.file, s.line, s.leader_doubtful,
                                    list(s.walk_elements()), [], [child.name, s.name]))
        else:
            cmds.append(Command(child.name, child.leader, child.file, child.line,
                                child.leader_doubtful, list(child.walk_elements()), [],
                                [child.name]))
    for c in cmds:
        elements_out.extend(c.elements)
    return cmds


def _unique_names(cmds: list[Command]) -> None:
    """Command names unique within the army (the report is keyed by them)."""
    taken: set[str] = set()
    next_k: dict[str, int] = {}             # per name: linear however many share it
    for c in cmds:
        name = c.name
        if lx.fold(name) in taken and len(c.formations) > 1:
            name = f"{c.name} ({c.formations[0]})"
        k = next_k.get(lx.fold(c.name), 2)
        while lx.fold(name) in taken:
            name = f"{c.name} {k}"
            k += 1
        next_k[lx.fold(c.name)] = k
        c.name = name
        taken.add(lx.fold(name))


def import_texts(texts, scale=None, command_level: str = "corps", armies: dict | None = None
                 ) -> OobImport:
    """texts: [(file name, text)]; armies: {file name: army name} for files without one."""
    if command_level not in ("corps", "division"):
        raise ValueError(f"unknown command level {command_level!r}; expected corps or division")
    scale = scale if isinstance(scale, Scale) else Scale.parse(scale)
    listings = [read_listing(text, str(name)) for name, text in texts]
    by_key: dict[str, Army] = {}
    order: list[Army] = []
    roots: list[tuple[Army, Formation]] = []
    flags = {str(k): v for k, v in (armies or {}).items()}
    for lst in listings:
        flagged = flags.get(lst.file) or flags.get(Path(lst.file).name)
        for root in lst.roots:
            if root.is_army and not flagged:
                name, leader, nation = root.name, root.leader, root.nation or lst.nation
                army_root = root
            else:
                nation = root.nation or lst.nation
                name = flagged or lx.NATION_ARMY.get(nation) or (
                    f"{nation.title()} Army" if nation else Path(lst.file).stem.replace("_", " ").title())
                leader, army_root = "", None
                if not flagged and not nation:
                    lst.notes.append((lst.file, root.line, f"no army heading, nation or --army "
                                      f"for {root.name!r}: put in the army {name!r}"))
            key = lx.fold(name)
            army = by_key.get(key)
            if army is None:
                army = by_key[key] = Army(name, leader, nation, lst.file, root.line)
                order.append(army)
            elif leader and not army.leader:
                army.leader = leader
            roots.append((army, army_root or Formation(name, leader, "army", 0, lst.file,
                                                       root.line, nation, children=[root])))
    result = OobImport(order, scale, listings, title=next((l.title for l in listings if l.title), ""))
    all_elements: list = []
    for army, root in roots:
        army.commands.extend(_commands_of(root, command_level, all_elements))
    for army in order:
        _unique_names(army.commands)
    result.scale = scale = scale.resolved(all_elements)
    raw_problems = []
    for army in order:
        for c in army.commands:
            c.units = form_units(c.elements, scale, c.name, raw_problems, result.notes)
    for lst in listings:
        for root in lst.roots:
            _doubtful(root, lst.notes)
        result.problems.extend(lst.problems)
        result.skipped.extend(lst.skipped)
        result.notes[:0] = lst.notes
    result.problems.extend(Problem(f, n, t, m) for f, n, t, m in raw_problems)
    result.problems.sort(key=lambda p: (p.file, p.line))
    result.notes.sort(key=lambda t: (t[0], t[1]))
    return result


def _doubtful(f: Formation, notes: list):
    if f.leader_doubtful:
        notes.append((f.file, f.line, f"{f.name}: leader unknown or doubtful"
                      + (f" ({f.leader})" if f.leader else "")))
    for c in f.children:
        _doubtful(c, notes)


def printable(text: str) -> str:
    """Text safe for a terminal: control characters shown as escapes, accents kept."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def import_files(paths, scale=None, command_level: str = "corps", armies: dict | None = None
                 ) -> OobImport:
    from ..scenario_io import read_text
    texts = [(str(p), read_text(Path(p), OobError)) for p in paths]
    return import_texts(texts, scale, command_level, armies)
