"""Game units from listed elements, at the scenario's scale, with a record of who came from where.

Scales (`--scale`):
- `men` (default for listings in men, battalions, squadrons, guns or batteries): the seed's
  "1 unit = 1200 infantry, 800 cavalry or 12 guns"; `men:1000,600,8` sets other numbers.
  A battalion counts 600 men, a squadron 150, a battery 8 guns, a base 600 infantry or
  400 cavalry (one battery for guns).
- `bases:N` (default, N = 2, for listings in bases or stands): N bases a unit; a battalion
  or a battery is one base, a squadron half a base, 8 guns a base, 600 infantry or 300
  cavalry a base.
- `element`: every listed element (regiment, brigade, battery) is one unit.
- the seed's listings count game units already, and keep them.

Within a command, elements of the same kind and traits are pooled in listing order: a
unit is formed each time the pool reaches one unit's worth, and what is left at the end
makes one more unit if it is at least half a unit (else it is reported as left out).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .elements import Element

PER_MEN = {"battalions": 600, "squadrons": 150}
BATTERY_GUNS = 8


@dataclass
class Scale:
    mode: str = "auto"               # auto men bases element
    infantry: float = 1200
    cavalry: float = 800
    guns: float = 12
    bases: float = 2

    @classmethod
    def parse(cls, text: str | None) -> "Scale":
        """'men', 'men:1200,800,12', 'bases', 'bases:3', 'element' or None (auto)."""
        if not text:
            return cls()
        mode, _, rest = text.partition(":")
        mode = mode.strip().lower()
        if mode not in ("men", "bases", "element", "auto"):
            raise ValueError(f"unknown scale {text!r}; expected men[:INF,CAV,GUNS], "
                             "bases[:N] or element")
        s = cls(mode)
        try:
            nums = [float(x) for x in rest.split(",")] if rest.strip() else []
        except ValueError:
            raise ValueError(f"scale {text!r}: expected numbers after the colon") from None
        if any(x <= 0 or x != x or x == float("inf") for x in nums):
            raise ValueError(f"scale {text!r}: numbers must be positive")
        if mode == "men" and nums:
            if len(nums) != 3:
                raise ValueError(f"scale {text!r}: expected men:INFANTRY,CAVALRY,GUNS")
            s.infantry, s.cavalry, s.guns = nums
        elif mode == "bases" and nums:
            if len(nums) != 1:
                raise ValueError(f"scale {text!r}: expected bases:N")
            s.bases = nums[0]
        elif mode == "element" and nums:
            raise ValueError("scale 'element' takes no numbers")
        return s

    def resolved(self, elements) -> "Scale":
        if self.mode != "auto":
            return self
        measures = [e.measure for e in elements if e.count is not None]
        if measures and sum(m == "bases" for m in measures) * 2 >= len(measures):
            return Scale("bases", self.infantry, self.cavalry, self.guns, self.bases)
        return Scale("men", self.infantry, self.cavalry, self.guns, self.bases)

    def describe(self) -> str:
        if self.mode == "men":
            return (f"1 unit = {self.infantry:g} infantry, {self.cavalry:g} cavalry or "
                    f"{self.guns:g} guns")
        if self.mode == "bases":
            return f"{self.bases:g} bases a unit"
        return "one unit per listed element"

    def worth(self, e: Element) -> float | None:
        """How many units an element is worth; None when it gives nothing to count."""
        if self.mode == "element":
            return 1.0
        if e.count is None:
            return None
        c, m, arm = e.count, e.measure, e.arm
        if m == "units":
            return float(c)
        if self.mode == "men":
            if arm == "artillery":
                guns = {"guns": c, "batteries": c * BATTERY_GUNS, "bases": c * BATTERY_GUNS}.get(m)
                return None if guns is None else guns / self.guns
            men = {"men": c, "bases": c * (600 if arm == "infantry" else 400)}.get(m)
            if men is None and m in PER_MEN:
                men = c * PER_MEN[m]
            return None if men is None else men / (self.infantry if arm == "infantry"
                                                   else self.cavalry)
        bases = {"bases": c, "battalions": c, "batteries": c, "squadrons": c / 2,
                 "guns": c / BATTERY_GUNS,
                 "men": c / (600 if arm == "infantry" else 300)}.get(m)
        return None if bases is None else bases / self.bases


@dataclass
class GameUnit:
    name: str
    kind: str
    traits: tuple
    guard: bool
    fixed: bool
    sources: list = field(default_factory=list)     # (file, line, share of the element)


def form_units(elements, scale: Scale, command: str, problems: list, notes: list):
    """The command's game units from its elements; unreadable strengths become problems."""
    pools: dict[tuple, list] = {}
    order: list[tuple] = []
    for e in elements:
        if e.absent:
            notes.append((e.file, e.line, f"{e.name}: marked absent, left out"))
            continue
        w = scale.worth(e)
        if w is None:
            problems.append((e.file, e.line, e.text,
                             f"no strength to count at {scale.describe()}; expected a count such "
                             "as '3 bases', '2 battalions', '4 squadrons' or '12 guns'"
                             if e.count is None else
                             f"{e.measure} of {e.arm} cannot be counted at {scale.describe()}"))
            continue
        key = (e.kind, e.traits, e.guard, e.fixed)
        if key not in pools:
            pools[key] = []
            order.append(key)
        pools[key].append((e, w))
    units: list[GameUnit] = []
    for key in order:
        kind, traits, guard, fixed = key
        acc, src = 0.0, []
        made = []
        for e, w in pools[key]:
            left = w
            while left > 1e-9:
                take = min(left, 1.0 - acc)
                src.append((e.file, e.line, round(take / w, 4) if w else 1.0, e.name))
                acc += take
                left -= take
                if acc >= 1.0 - 1e-9:
                    made.append(src)
                    acc, src = 0.0, []
        if acc >= 0.5 - 1e-9:
            made.append(src)
        elif acc > 1e-9:
            lines = ", ".join(f"line {s[1]}" for s in src)
            notes.append((src[0][0], src[0][1], f"{command}: {acc:.2f} of a unit of "
                          f"{kind.replace('_', ' ')} ({lines}) is too few for a game unit at "
                          f"{scale.describe()}: left out"))
        bases = []
        for s in made:
            names = list(dict.fromkeys(x[3] for x in s))
            bases.append(names[0] if len(names) == 1 else f"{command} {kind.replace('_', ' ')}")
        total = _counts(bases)
        seen: dict[str, int] = {}
        for s, base in zip(made, bases):
            seen[base] = seen.get(base, 0) + 1
            name = base if total[base] == 1 else f"{base} {seen[base]}"
            units.append(GameUnit(name, kind, traits, guard, fixed,
                                  [(f, ln, share) for f, ln, share, _nm in s]))
    return units


def _counts(items) -> dict:
    out: dict = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out
