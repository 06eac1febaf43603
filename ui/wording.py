"""Plain words for what the umpire reads: the Undo history, tooltips and the turn runner
say "IV Line 5 moves to C-12", never `MoveUnit(unit='col-4-…')`.

Names come from the battle (a unit removed since is looked up in the battle given, then
shown by its id); places are grid boxes on a gridded table ("C-12": column letter, row
number, as the status bar shows them) and inches on an open one.
"""
from __future__ import annotations


def column_letters(n: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: spreadsheet columns, so any table width has a name."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def place(battle, pos) -> str:
    if not pos:
        return "?"
    x, y = pos[0], pos[1]
    g = battle.battlefield.grid if battle is not None else None
    if g:
        return f"{column_letters(int(x // g))}-{int(y // g) + 1}"
    return f'({x:.1f}", {y:.1f}")'


def name(battle, pid: str, also=None) -> str:
    """The piece's name in `battle`, else in `also` (an earlier state), else its id."""
    if not pid:
        return ""
    for b in (battle, also):
        if b is None:
            continue
        for table in (b.units, b.leaders, b.commands, b.sides):
            piece = table.get(pid)
            if piece is not None:
                return piece.name
        for f in b.battlefield.features:
            if f.id == pid:
                return f.name or f.kind
    return pid


def arrival_name(battle, aid: str) -> str:
    """The command's or unit's name of a reinforcement (off the table, so not in `units`)."""
    a = battle.arrival_of(aid) if battle is not None else None
    if a is not None and a.scope == "unit" and a.units:
        return a.units[0][1].name
    return name(battle, aid)


def _changes(changes) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in changes)


def action_text(battle, action, also=None) -> str:
    """One line for an action, in the battle's names (the battle as it was before it;
    `also`, an earlier state, names pieces since removed)."""
    n = lambda pid: name(battle, pid, also)      # noqa: E731
    verb = action.verb
    a = action
    texts = {
        "StartBattle": lambda: "Start the battle",
        "EndPhase": lambda: "End the phase",
        "MoveUnit": lambda: f"{n(a.unit)} moves to {place(battle, a.to)}"
                            + (f" in {a.formation.replace('_', ' ')}" if a.formation else ""),
        "MoveLeader": lambda: f"{n(a.leader)} rides to {place(battle, a.to)}",
        "ChangeFormation": lambda: f"{n(a.unit)} forms {a.formation.replace('_', ' ')}",
        "Fire": lambda: f"{n(a.unit)} fires at {n(a.target)}",
        "TableFire": lambda: f"{n(a.unit)} fires at {n(a.target)} (table)",
        "Rally": lambda: (f"{n(a.leader)} rallies {n(a.unit)}" if a.leader
                          else f"{n(a.unit)} tries to rally"),
        "ResolveMelee": lambda: f"Melee at {n(a.defender)}"
                                + (f" ({', '.join(n(j) for j in a.joiners)} join)" if a.joiners else ""),
        "TableMelee": lambda: f"Melee: {', '.join(n(u) for u in a.attackers)} against "
                              f"{', '.join(n(u) for u in a.defenders)} (table)",
        "Charge": lambda: f"{n(a.unit)} charges {n(a.target)}",
        "ChooseInitiative": lambda: f"Initiative: {n(a.first)} moves first",
        "PlaceUnit": lambda: f"Place {a.name} at {place(battle, a.pos)}",
        "RemoveUnit": lambda: f"Remove {n(a.unit)}",
        "RelocateUnit": lambda: f"{n(a.unit)} set down at {place(battle, a.pos)}",
        "EditUnit": lambda: f"{n(a.unit)}: {_changes(a.changes)}",
        "ReassignUnit": lambda: f"{n(a.unit)} goes to {n(a.command)}",
        "AddCommand": lambda: f"New command {a.name}",
        "AppointGeneral": lambda: f"{a.name} commands {n(a.side)}",
        "RenameCommand": lambda: f"{n(a.command)} renamed {a.name}",
        "RemoveCommand": lambda: f"Remove {n(a.command)} and its units",
        "EditLeader": lambda: f"{n(a.leader)}: {_changes(a.changes)}",
        "RelocateLeader": lambda: f"{n(a.leader)} set down at {place(battle, a.pos)}",
        "AddTerrain": lambda: f"Add {a.name or a.kind}",
        "RemoveTerrain": lambda: f"Remove {n(a.id)}",
        "ReshapeTerrain": lambda: f"Reshape {n(a.id)}",
        "EditTerrain": lambda: f"{n(a.id)}: {_changes(a.changes)}",
        "SetOption": lambda: f"Option {a.key.replace('_', ' ')}: {a.value}",
        "SetArrival": lambda: (f"{n(a.target)}: on the table from the start" if not a.turn else
                               f"{n(a.target)} arrives turn {a.turn}"
                               + (f" on a {a.roll}+" if a.roll else "")
                               + (f" at {a.name}" if a.name else "")),
        "BringOnArrival": lambda: f"{arrival_name(battle, a.arrival)} come on"
                                  + (" where the umpire set them" if a.spots else " at their entry"),
        "RollForArrival": lambda: f"Roll for {arrival_name(battle, a.arrival)}",
    }
    make = texts.get(verb)
    try:
        if make is not None:
            return make()
    except AttributeError:           # a ruleset's own action that shares a name
        pass
    return _generic(battle, action, also)


def _generic(battle, action, also=None) -> str:
    """A ruleset's own action: its name split into words, and the pieces it names."""
    words = "".join(" " + c.lower() if c.isupper() else c for c in action.verb).strip()
    who = [name(battle, getattr(action, f), also) for f in ("unit", "leader", "target")
           if isinstance(getattr(action, f, None), str) and getattr(action, f)]
    return words.capitalize() + (": " + ", ".join(who) if who else "")


# Counters at the fit-all zoom carry a short designation: "IV Line 5" -> "IV Ln5",
# "4th Col Line 3" -> "4C Ln3", "Rus.Gd Guard Foot 1" -> "RG GdF1" (full name on hover).
ABBREVIATIONS = {
    "line": "Ln", "light": "Lt", "heavy": "Hv", "horse": "H", "foot": "F", "battery": "B",
    "batteries": "Btys", "guard": "Gd", "grenadiers": "Gr", "grenadier": "Gr", "col": "C",
    "column": "C", "old": "O", "young": "Y", "hussars": "Hus", "dragoons": "Dr",
    "cuirassiers": "Cu", "chasseurs": "Ch", "uhlans": "Uh", "cossacks": "Cos",
    "infantry": "Inf", "cavalry": "Cav", "artillery": "Art", "militia": "Mil", "rifles": "Rf",
    "brigade": "Bde", "battalion": "Bn", "regiment": "Rgt", "division": "Div",
    "voltigeurs": "Vlt", "skirmishers": "Sk", "jäger": "Jg", "jager": "Jg", "musketeers": "Mus",
    "of": "", "the": "", "à": "", "a": "", "on": "", "and": "", "de": "", "la": "", "le": "",
}
ROMAN = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}


def _abbrev(word: str) -> str:
    digits = "".join(c for c in word if c.isdigit())
    if digits:
        return digits
    if word in ROMAN:
        return word
    if "." in word:
        return "".join(part[:1].upper() for part in word.split(".") if part)
    if word in PHRASES.values():
        return word
    key = word.lower().strip("'’s,")
    if key in ABBREVIATIONS:
        return ABBREVIATIONS[key]
    return word[:3].capitalize()


PHRASES = {"light horse": "LH", "heavy horse": "HH", "foot battery": "FB",
           "horse battery": "HB", "guard foot": "GF", "guard horse": "GH",
           "foot artillery": "FA", "horse artillery": "HA"}


def short_name(name: str, limit: int = 8) -> str:
    """A counter's short designation: the command's tag, the arm, the number."""
    text = " " + name.replace("(", " ").replace(")", " ") + " "
    for phrase, short in PHRASES.items():     # two-word arms first: "Foot Battery" -> FB
        at = text.lower().find(f" {phrase} ")
        if at >= 0:
            text = text[:at + 1] + short + text[at + 1 + len(phrase):]
    words = text.split()
    if not words:
        return ""
    tag = ""
    first = words[0]
    if first in ROMAN or "." in first:
        tag, words = _abbrev(first), words[1:]
    elif any(c.isdigit() for c in first) and len(words) > 2 and first[-2:] in ("st", "nd", "rd", "th"):
        tag, words = _abbrev(first) + _abbrev(words[1]), words[2:]
    parts: list[str] = []
    for w in words:
        a = _abbrev(w)
        if a and (not parts or parts[-1] != a):
            parts.append(a)
    rest = "".join(parts)
    text = f"{tag} {rest}".strip() if tag else rest
    return text[:limit]
