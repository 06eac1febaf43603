"""Conformance cases as files: their loading, their clauses, and the dice a case types."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from manager.dice import check_faces
from manager.errors import DiceError

HERE = Path(__file__).parent
RULESETS = ("morschauser", "d3", "quickplay", "featherstone", "harman")
ADVANCE_LIMIT = 200
INCH_TOLERANCE = 0.5


class Finding(AssertionError):
    """The engine does not do what the text says (or the case cannot be played)."""


@dataclass
class Case:
    ruleset: str
    data: dict
    file: Path
    meta: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def test_id(self) -> str:
        return f"{self.ruleset}::{self.id}"


# ---- loading -------------------------------------------------------------------------
def case_files(ruleset: str, root: Path = HERE) -> list[Path]:
    folder = root / ruleset
    return sorted(p for p in folder.glob("*.toml") if p.name != "clauses.toml") \
        if folder.is_dir() else []


def load_cases(root: Path = HERE) -> list[Case]:
    """Every case of every ruleset folder; a malformed file fails loudly, naming itself."""
    out = []
    for rid in RULESETS:
        for path in case_files(rid, root):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            declared = data.get("ruleset", rid)
            if declared != rid:
                raise ValueError(f"{path}: ruleset = {declared!r} in the {rid} folder")
            for c in data.get("case", []):
                if "id" not in c:
                    raise ValueError(f"{path}: a [[case]] without an id")
                out.append(Case(rid, c, path, {"text": data.get("text", "")}))
    return out


def load_clauses(ruleset: str, root: Path = HERE) -> list[dict] | None:
    path = root / ruleset / "clauses.toml"
    if not path.exists():
        return None
    return tomllib.loads(path.read_text(encoding="utf-8")).get("clause", [])


# ---- dice ----------------------------------------------------------------------------
class CaseDice:
    """The faces a step gives, in order; or per side ({blue: [..], red: [..]}), where a
    roll is fed from the side whose unit, leader or name its purpose mentions first."""
    name = "manual"

    def __init__(self, faces, battle):
        self.battle = battle
        if isinstance(faces, dict):
            self.queues = {k: list(v) for k, v in faces.items()}
        else:
            self.queues = {"": list(faces or [])}
        self.asked: list[str] = []

    def _side_of(self, purpose: str) -> str:
        if set(self.queues) == {""}:
            return ""
        best = None
        names = [(s.name, s.id) for s in self.battle.sides.values()]
        names += [(u.name, u.side) for u in self.battle.units.values()]
        names += [(l.name, l.side) for l in self.battle.leaders.values()]
        for name, side in names:
            m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", purpose)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), side)
        if best and self.queues.get(best[1]):
            return best[1]
        if self.queues.get(""):              # dice merged from a later step (a morale test)
            return ""
        return next((k for k, q in self.queues.items() if q), next(iter(self.queues)))

    def faces(self, request):
        self.asked.append(f"{request.expression} for {request.purpose}")
        key = self._side_of(request.purpose)
        q = self.queues[key]
        if len(q) < request.count:
            raise DiceError(f"the engine asked for {request.expression} ({request.purpose}) "
                            f"but the case gives no more dice{f' for {key}' if key else ''}")
        taken, self.queues[key] = q[:request.count], q[request.count:]
        return check_faces(request, taken)

    def left(self) -> list:
        return [f for q in self.queues.values() for f in q]


# ---- running ---------------------------------------------------------------------------
