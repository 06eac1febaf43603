"""One line of a listing read as an element: who, how many, of what, how good.

    26e Legere - 3 bases veteran light
    Brigade Fririon - 5 bases veteran (2nd light, 36th line)
    Reserve Bty - HvF
    1 Heavy foot artillery battery
    2 batteries medium horse artillery
    3 Guard Infantry                      (the seed's form: the count is in game units)

Everything is done by splitting and dictionary look-ups, never by a backtracking
pattern, so a line costs time in proportion to its length whatever it holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from . import lexicon as lx

MAX_COUNT = {"men": 500_000, "guns": 5_000, "units": 2_000}
MAX_OTHER = 2_000
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'/.\-]*")
_FILLER = {"of", "and", "the", "with", "more", "each", "x", "strong", "about", "c", "ca"}
_DASHES = (" - ", " – ", " — ", " -- ", ": ")


@dataclass
class Element:
    file: str
    line: int
    text: str
    name: str
    count: float | None            # None: the line gives no strength
    measure: str                   # bases battalions squadrons batteries guns men units ""
    arm: str
    kind: str
    traits: tuple = ()
    quality: str = "regular"
    guard: bool = False
    fixed: bool = False
    absent: bool = False
    notes: list[str] = field(default_factory=list)


class NotAnElement(Exception):
    """The line does not look like troops (a heading or prose)."""


class BadElement(Exception):
    """The line looks like troops but cannot be read; the message says what was expected."""


def split_parens(text: str) -> tuple[str, list[str]]:
    """The text outside parentheses and the texts inside them (one level, linear scan)."""
    if "(" not in text:
        return " ".join(text.split()), []
    outside, inside, depth, cur = [], [], 0, []
    for ch in text:
        if ch == "(":
            if depth == 0:
                cur = []
            else:
                cur.append(ch)
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                inside.append("".join(cur).strip())
            else:
                cur.append(ch)
        elif depth:
            cur.append(ch)
        else:
            outside.append(ch)
    if depth:                       # an unclosed "(": keep its text outside
        outside.append("(" + "".join(cur))
    return " ".join("".join(outside).split()), inside


def split_name(text: str) -> tuple[str, str]:
    """'Name - details' (also en/em dash, ' -- ', ': '), else ('', text)."""
    best = -1
    for sep in _DASHES:
        i = text.find(sep)
        if i > 0 and (best < 0 or i < best):
            best, found = i, sep
    if best < 0:
        return "", text
    return text[:best].strip(), text[best + len(found):].strip()


def tokens(text: str) -> list[str]:
    folded = re.sub(r"(?<=\d),(?=\d{3})", "", lx.fold(text))
    return _TOKEN.findall(folded)


def _number(tok: str):
    if tok.isdigit():
        return int(tok)
    if tok.endswith("x") and tok[:-1].isdigit():        # "3x"
        return int(tok[:-1])
    try:
        if tok.count(".") == 1 and tok.replace(".", "").isdigit():
            return float(tok)
    except ValueError:
        pass
    return None


_KNOWN = frozenset(lx.TROOP_WORDS)


@lru_cache(maxsize=4096)
def _typo(tok: str) -> str | None:
    return lx.near(tok, lx.TROOP_WORDS)


def scan(toks: list[str], fix_typos: bool):
    """(count, measure, troops [(arm, kind, traits, words)], qualities, code, guard, notes)."""
    count = measure = code = None
    troops, quals, notes, guard = [], [], [], False
    i, n, fixed_at = 0, len(toks), -1
    while i < n:
        tok = toks[i]
        num = _number(tok)
        if num is not None and count is None:
            count = num
            i += 1
            continue
        if tok in lx.NUMBER_WORDS and count is None and i + 1 < n and (
                toks[i + 1] in lx.MEASURES or toks[i + 1] in lx.TROOPS):
            count = lx.NUMBER_WORDS[tok]
            i += 1
            continue
        if tok in lx.BATTERY_CODES:
            code = tok
            i += 1
            continue
        hit = None
        for width in (4, 3, 2):                          # longest troop phrase first
            if i + width <= n:
                phrase = " ".join(toks[i:i + width])
                if phrase in lx.TROOPS:
                    hit = (phrase, width)
                    break
        if hit:
            arm, kind, traits = lx.TROOPS[hit[0]]
            troops.append((arm, kind, traits, hit[0]))
            i += hit[1]
            continue
        if tok in lx.MEASURES and measure is None:
            measure = lx.MEASURES[tok]
            if tok in ("battery", "bty") and not troops:
                troops.append(("artillery", "foot_artillery", ("?default",), tok))
        elif tok in lx.GUARD_WORDS:
            guard = True
            if tok == "guard":
                quals.append("elite")
        elif tok in lx.QUALITIES:
            quals.append(lx.QUALITIES[tok])
            if tok == "militia":
                troops.append(lx.TROOPS["militia"] + ("militia",))
        elif tok in lx.TROOPS:
            arm, kind, traits = lx.TROOPS[tok]
            troops.append((arm, kind, traits, tok))
        elif fix_typos and tok.isalpha() and i != fixed_at and tok not in _KNOWN:
            fixed = _typo(tok)
            if fixed is not None and fixed != tok:
                notes.append(f"{tok!r} read as {fixed!r}")
                toks = toks[:i] + [fixed] + toks[i + 1:]
                fixed_at = i
                continue                                  # read the corrected word once
        i += 1
    # a measure word that is also a troop word ("battery") counts once, as the measure
    return count, measure, troops, quals, code, guard, notes


def read_element(text: str, file: str, line: int, default_quality="regular",
                 default_arm="", require=False) -> Element:
    """Read one line as an element. Raise NotAnElement when it does not look like troops
    (unless `require`: a leaf of an indented listing must be troops), BadElement when it
    does but cannot be read."""
    raw = " ".join(text.split())
    outside, parens = split_parens(raw)
    name, detail = split_name(outside)
    absent = fixed = False
    remarks = []
    for p in parens:
        fp = lx.fold(p)
        if any(w in fp for w in lx.ABSENT_WORDS):
            absent = True
        elif "cannot move" in fp or "fixed" == fp:
            fixed = True
        else:
            remarks.append(p)
    dtoks = tokens(detail)
    count, measure, troops, quals, code, guard, notes = scan(dtoks, fix_typos=True)
    if not name and count is not None and dtoks and _number(dtoks[0]) is None \
            and dtoks[0] not in lx.NUMBER_WORDS:
        # "26e Legere 3 bases veteran light": the name runs up to the count
        words = detail.split()
        for k, w in enumerate(words):
            if _number(lx.fold(w).replace(",", "")) is not None:
                name, detail = " ".join(words[:k]), " ".join(words[k:])
                dtoks = tokens(detail)
                count, measure, troops, quals, code, guard2, notes = scan(dtoks, True)
                guard = guard2
                break
    looks = count is not None or code is not None or bool(troops) or measure is not None
    if count is None and code is None and (len(dtoks) > 6 or raw.endswith((".", "?", "!"))) \
            and not require:
        raise NotAnElement                  # a sentence, not a line of troops
    ntoks = tokens(name)
    name_troops = scan(ntoks, fix_typos=True)
    if any(t in lx.GUARD_WORDS for t in ntoks):
        guard = True
    if not looks:
        if require and (name_troops[2] or name_troops[4]):
            troops, code = name_troops[2], name_troops[4]        # "18e Ligne", "Horse Bty"
            notes += name_troops[6]
        elif require:
            raise BadElement("expected troops, e.g. '3 bases line', '2 battalions light', "
                             "'Div Bty - MdF'")
        else:
            raise NotAnElement
    if not troops and name_troops[2]:
        troops = name_troops[2]
        notes += name_troops[6]
    paren_troops = []
    for r in remarks:
        paren_troops += scan(tokens(r), fix_typos=False)[2]
    if not troops and paren_troops:
        troops = paren_troops
        if len({t[1] for t in troops}) > 1:
            line_kinds = [t for t in troops if t[1] == "line_infantry"]
            if line_kinds:
                notes.append(f"mixed ({', '.join(remarks)}): counted as line infantry")
                troops = line_kinds
    if code is not None:
        kind = lx.BATTERY_CODES[code]
        arm, traits = "artillery", ()
        if count is None:
            count, measure = 1, "batteries"
    elif troops:
        real = [t for t in troops if "?default" not in t[2]] or troops
        arm, kind, traits, _w = real[0]
        if len({t[1] for t in real}) > 1:
            notes.append(f"several troop types ({', '.join(t[3] for t in real)}): "
                         f"read as {real[0][3]}")
    elif unknown := [t for t in dtoks if t.isalpha() and t not in lx.TROOPS
                     and t not in lx.MEASURES and t not in lx.QUALITIES
                     and t not in lx.NUMBER_WORDS and t not in lx.GUARD_WORDS
                     and t not in lx.BATTERY_CODES and t not in _FILLER]:
        raise BadElement(f"unknown troop type {unknown[0]!r}; expected a word such as line, "
                         "light, grenadiers, jager, landwehr, hussars, dragoons, cuirassiers, "
                         "lancers, foot artillery, or a battery code such as MdF")
    elif measure in lx.MEASURE_ARM or default_arm:
        arm = lx.MEASURE_ARM.get(measure) or default_arm
        kind = {"infantry": "line_infantry", "cavalry": "light_cavalry",
                "artillery": "foot_artillery"}[arm]
        traits = ("?weight",) if arm == "cavalry" else ()
        notes.append(f"no troop type: counted as {kind.replace('_', ' ')}")
    else:
        raise BadElement(f"cannot tell the troop type of {detail or raw!r}; expected a word "
                         "such as line, light, grenadiers, hussars, dragoons, cuirassiers, "
                         "foot artillery, or a battery code such as MdF")
    if "?weight" in traits:
        notes.append("cavalry of unknown weight: counted as light cavalry")
    traits = tuple(t for t in traits if not t.startswith("?"))
    if arm == "artillery" and measure is None and count is not None and code is None \
            and any(w in ("battery", "bty", "batteries") for w in dtoks):
        measure = "batteries"
    if measure is None and count is not None:
        measure = "units"               # the seed's "3 Line Infantry": game units
    if count is not None:
        if count <= 0:
            raise BadElement(f"a count must be at least 1, got {count:g}")
        cap = MAX_COUNT.get(measure, MAX_OTHER)
        if count > cap:
            raise BadElement(f"{count:g} {measure} is more than any order of battle holds "
                             f"(at most {cap:,}); expected a count per formation")
    quality = default_quality
    for q in quals:
        quality = q
    if quality == "militia" and arm == "infantry":
        kind = "militia"
    if guard:
        kind = {"infantry": "guard_infantry", "cavalry": "guard_cavalry"}.get(arm, kind)
    trait = lx.QUALITY_TRAIT.get(quality)
    if trait and trait not in traits:
        traits = tuple(sorted(traits + (trait,)))
    if measure in ("squadrons",) and arm != "cavalry":
        notes.append(f"{measure} of {arm}?")
    label = name or _label(detail, count)
    if not paren_troops:
        notes += [f"remark: {r}" for r in remarks]
    return Element(file, line, raw, label, count, measure or "", arm, kind, traits, quality,
                   guard, fixed, absent, notes)


def _label(detail: str, count) -> str:
    words = [w for w in detail.split() if _number(lx.fold(w)) is None
             and lx.fold(w).strip(".,") not in lx.MEASURES]
    return " ".join(words) or detail
