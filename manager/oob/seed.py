"""The seed's listing style (`manager/oob_text.py`) as a listing tree, unchanged in meaning."""
from __future__ import annotations

from ..errors import OobError
from ..oob_text import SCALE_LINE, parse_oob
from .elements import Element
from .listing import Formation, Listing, Problem


def read_seed(text: str, file: str) -> Listing | None:
    """The listing in the seed's style, or None when it is not one: it is one when the
    seed's reader takes it, or when a scale line ("1 unit = ...") follows the title (then
    what the reader refuses is the listing's problem). Parsed once."""
    out = Listing(file, "seed")
    try:
        oob = parse_oob(text, file)
    except OobError as exc:
        body = [raw.strip() for raw in text.splitlines() if raw.strip()]
        if not (len(body) >= 2 and SCALE_LINE.search(body[1])):
            return None
        where = str(exc.where)
        line = int(where.split()[-1]) if where.startswith("line ") else 1
        raw = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
        out.problems.append(Problem(file, line, raw.strip(), exc.problem))
        return out
    out.title, out.scale = oob.title, oob.scale
    for a in oob.armies:
        army = Formation(a.name, a.leader, "army", 0, file, a.line)
        for c in a.commands:
            cmd = Formation(c.name, c.leader, "corps", 1, file, c.line, notes=list(c.notes))
            for u in c.units:
                cmd.elements.append(Element(file, u.line, u.text, f"{c.name} {u.text}", u.count, "units",
                                            _arm(u.kind), u.kind, (), "regular", u.guard,
                                            u.fixed))
            army.children.append(cmd)
        out.roots.append(army)
    return out


def _arm(kind: str) -> str:
    from ..model.forces import arm_of
    return arm_of(kind)
