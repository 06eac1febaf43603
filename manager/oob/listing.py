"""A listing read into a tree of formations, whatever its style.

Three styles are read:
- the seed's (`manager/oob_text.py`: title, scale line, army, commands, "3 Line Infantry");
- indented: each level one indent deeper (`!Indent N` sets the step, tabs are one level);
  a line with deeper lines under it is a formation, a line without is an element;
- unindented: the level comes from heading words (army, corps, column, division, brigade)
  and from blank lines (a heading without such a word after a blank line is a sibling of
  the last block's heading); paragraphs of prose are skipped and reported.

Directives, on a line of their own: `!Indent 2`, `!French 1806` (nation, year),
`!Veteran` (default quality), `!cavalry` / `!infantry` / `!artillery` (default arm).
Problems are collected, never raised: the whole listing is read and every problem reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import lexicon as lx
from .elements import BadElement, Element, NotAnElement, read_element, split_name, split_parens, tokens


@dataclass
class Formation:
    name: str
    leader: str
    level: str                      # army corps division brigade regiment "" (unknown)
    rank: int
    file: str
    line: int
    nation: str = ""
    leader_doubtful: bool = False
    absent: bool = False
    children: list["Formation"] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def walk_elements(self, absent=False):
        absent = absent or self.absent
        for e in self.elements:
            if absent:
                e.absent = True
            yield e
        for c in self.children:
            yield from c.walk_elements(absent)

    @property
    def is_army(self) -> bool:
        """An army by its heading word, or a heading with no word over corps-level ones."""
        if self.level == "army":
            return True
        return self.level == "" and any(c.level == "corps" for c in self.children)


@dataclass
class Problem:
    file: str
    line: int
    text: str
    message: str

    def __str__(self):
        return f"{self.file}: line {self.line}: {self.message} (the line reads {self.text!r})"


@dataclass
class Listing:
    file: str
    style: str
    roots: list[Formation] = field(default_factory=list)
    title: str = ""
    scale: str = ""
    nation: str = ""
    skipped: list[tuple] = field(default_factory=list)       # (file, line, text)
    problems: list[Problem] = field(default_factory=list)
    notes: list[tuple] = field(default_factory=list)         # (file, line, text)


def read_heading(text: str, file: str, line: int) -> Formation:
    outside, parens = split_parens(" ".join(text.split()))
    name, leader = split_name(outside)
    if not name:
        name, leader = outside, ""
        if ", " in outside:
            name, leader = (p.strip() for p in outside.split(", ", 1))
    f = Formation(name.rstrip(":").strip(), leader, "", 9, file, line)
    for p in parens:
        fp = lx.fold(p)
        if any(w in fp for w in lx.ABSENT_WORDS):
            f.absent = True
        elif fp.strip() in lx.UNKNOWN_LEADER or "unknown" in fp:
            f.leader_doubtful = True
        elif not f.leader:
            f.leader = p                         # "1st Division (Legrand)"
    fl = lx.fold(f.leader).strip()
    if "?" in f.leader or fl in lx.UNKNOWN_LEADER or "unknown" in fl:
        f.leader_doubtful = True
        f.leader = f.leader.replace("?", "").strip() if fl not in lx.UNKNOWN_LEADER and \
            "unknown" not in fl else ""
    toks = tokens(f.name)
    joined = " ".join(toks)
    for tok_i, tok in enumerate(toks):
        lvl = lx.LEVELS.get(tok)
        if lvl is None and tok_i + 1 < len(toks):
            lvl = lx.LEVELS.get(f"{tok} {toks[tok_i + 1]}")
        if lvl:
            f.level, f.rank = lvl, lx.LEVEL_RANK[lvl]
            rest = toks[tok_i + 1:]
            if any(w in ("artillery", "cavalry", "train", "troops") for w in rest):
                f.rank += 1                      # "Corps Artillery": a part of the corps
                f.level = ""
            break
    for word, nation in lx.NATION_ADJECTIVES.items():
        if f" {word} " in f" {joined} ":
            f.nation = nation
            break
    return f


class _Reader:
    def __init__(self, file: str, listing: Listing):
        self.file, self.out = file, listing
        self.quality, self.arm = "regular", ""

    def directive(self, n: int, text: str) -> bool:
        """Apply a `!...` line; False if it is not one this reader knows (reported)."""
        words = text[1:].split()
        if not words:
            return False
        key = lx.fold(words[0])
        if key == "indent":
            return True                          # read by the indented reader up front
        if key in lx.NATIONS:
            nation = lx.NATIONS[key]
            if self.out.nation and nation != self.out.nation:
                self.out.notes.append((self.file, n, f"nation changes from {self.out.nation} "
                                       f"to {nation}: what follows goes to its own army"))
            self.out.nation = nation
            return True
        if key in lx.QUALITIES:
            self.quality = lx.QUALITIES[key]
            return True
        if key in ("cavalry", "infantry", "artillery"):
            self.arm = key
            return True
        self.out.notes.append((self.file, n, f"unknown directive {text!r} ignored; known: "
                               "!Indent N, !<Nation> [year], !<Quality>, !cavalry/!infantry/!artillery"))
        return True

    def element(self, n, text, require=False):
        return read_element(text, self.file, n, self.quality, self.arm, require=require)

    def attach(self, parent: Formation | None, item, n, text):
        if parent is None:
            self.out.problems.append(Problem(self.file, n, text, "troops before any formation "
                                             "heading; expected a heading such as "
                                             "'IV Corps - Massena' above them"))
            return
        if isinstance(item, Formation):
            item.nation = item.nation or self.out.nation
            parent.children.append(item)
        else:
            parent.elements.append(item)

    def root(self, f: Formation):
        f.nation = f.nation or self.out.nation
        if self.out.nation and f.nation and f.nation != self.out.nation and f.rank == 0:
            self.out.notes.append((self.file, f.line, f"army heading says {f.nation}, the "
                                   f"directive {self.out.nation}: the heading is kept"))
        self.out.roots.append(f)


def _indent_of(raw: str, step: int) -> int:
    spaces = 0
    for ch in raw:
        if ch == " ":
            spaces += 1
        elif ch == "\t":
            spaces += step
        else:
            break
    return spaces


def read_indented(lines, file: str) -> Listing:
    out = Listing(file, "indented")
    rd = _Reader(file, out)
    step = 0
    for n, raw in lines:
        s = raw.strip()
        if s.lower().startswith("!indent"):
            parts = s.split()
            if len(parts) == 2 and parts[1].isdigit() and 0 < int(parts[1]) <= 16:
                step = int(parts[1])
            else:
                out.problems.append(Problem(file, n, s, "expected '!Indent N' with N from 1 to 16"))
    body = [(n, raw) for n, raw in lines if raw.strip()]
    if not step:                                  # the smallest indent used
        indents = {_indent_of(r, 4) for _n, r in body if r[:1] in (" ", "\t")}
        step = min(indents) if indents else 2
    rows = []
    for n, raw in body:
        s = raw.strip()
        if s.startswith("!"):
            rows.append((n, s, -1, 0))            # a directive, applied where it stands
            continue
        rows.append((n, s, _indent_of(raw, step) // step, _indent_of(raw, step) % step))
    following = [0] * len(rows)                   # depth of the next line that is not a directive
    nxt = -1
    for i in range(len(rows) - 1, -1, -1):
        following[i] = nxt
        if rows[i][2] >= 0:
            nxt = rows[i][2]
    stack: list[Formation] = []
    for i, (n, s, depth, odd) in enumerate(rows):
        if depth < 0:
            rd.directive(n, s)
            continue
        if odd:
            out.notes.append((file, n, f"indent is not a multiple of {step}: read as level {depth}"))
        has_children = following[i] > depth
        depth = min(depth, len(stack))            # a jump of two levels is read as one
        del stack[depth:]
        parent = stack[-1] if stack else None
        if has_children:
            f = read_heading(s, file, n)
            f.rank = depth
            if parent is None:
                rd.root(f)
            else:
                rd.attach(parent, f, n, s)
            stack.append(f)
            continue
        try:
            e = rd.element(n, s, require=parent is not None and len(s.split()) <= 8)
        except NotAnElement:
            out.skipped.append((file, n, s))
            continue
        except BadElement as exc:
            out.problems.append(Problem(file, n, s, str(exc)))
            continue
        _note(out, e)
        rd.attach(parent, e, n, s)
    return out


def _note(out: Listing, e: Element):
    for note in e.notes:
        out.notes.append((e.file, e.line, note))


def _looks_like_heading(s: str, f: Formation) -> bool:
    words = s.split()
    if f.rank < 9:
        return len(words) <= 12
    return len(words) <= 8 and not s.endswith((".", "?", "!", ";", ","))


def read_unindented(lines, file: str) -> Listing:
    out = Listing(file, "unindented")
    rd = _Reader(file, out)
    rows = []
    blank = True
    for n, raw in lines:
        s = raw.strip()
        if not s:
            blank = True
            continue
        rows.append((n, s, blank))
        blank = False
    kinds = []
    parsed = []
    for n, s, _b in rows:
        if s.startswith("!"):
            kinds.append("directive")
            parsed.append(None)
            continue
        try:
            e = read_element(s, file, n, "regular", "")
            kinds.append("element")
            parsed.append(e)
        except NotAnElement:
            kinds.append("other")
            parsed.append(None)
        except BadElement as exc:
            kinds.append("bad")
            parsed.append(exc)
    for i, (n, s, _b) in enumerate(rows):
        e = parsed[i]
        if kinds[i] == "element" and e.count is None and i + 1 < len(rows) \
                and not rows[i + 1][2] and kinds[i + 1] in ("element", "bad"):
            kinds[i], parsed[i] = "other", None       # "Reserve Artillery" over its batteries
    stack: list[Formation] = []
    block_rank = None
    for i, (n, s, after_blank) in enumerate(rows):
        kind = kinds[i]
        if kind == "directive":
            rd.directive(n, s)
            continue
        if kind in ("element", "bad"):
            if kind == "bad":
                if stack:
                    out.problems.append(Problem(file, n, s, str(parsed[i])))
                else:
                    out.skipped.append((file, n, s))
                continue
            e = rd.element(n, s) if (rd.quality != "regular" or rd.arm) else parsed[i]
            _note(out, e)
            if not stack:
                out.skipped.append((file, n, s))          # troops in the preamble: prose
                continue
            rd.attach(stack[-1], e, n, s)
            continue
        f = read_heading(s, file, n)
        nxt = next((kinds[j] for j in range(i + 1, len(rows)) if kinds[j] != "directive"), None)
        if not _looks_like_heading(s, f) or nxt not in ("element", "other", "bad"):
            out.skipped.append((file, n, s))
            continue
        if f.rank == 9:                               # no level word
            if after_blank and block_rank is not None:
                f.rank = block_rank
            else:
                f.rank = stack[-1].rank + 1 if stack else 0
        if after_blank:
            block_rank = f.rank
        while stack and stack[-1].rank >= f.rank:
            stack.pop()
        if stack:
            rd.attach(stack[-1], f, n, s)
        else:
            rd.root(f)
        stack.append(f)
    _prune(out)
    return out


def _prune(out: Listing):
    """Headings with no troops under them are prose (a title, a date line): skipped."""
    def keep(f: Formation) -> bool:
        f.children = [c for c in f.children if keep(c)]
        if f.elements or f.children:
            return True
        out.skipped.append((f.file, f.line, f.name + (f" - {f.leader}" if f.leader else "")))
        return False
    out.roots = [r for r in out.roots if keep(r)]
    out.skipped.sort(key=lambda t: t[1])
