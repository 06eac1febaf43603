"""Harman's Simple Horse and Musket engagements as data: quality, Combat Value, the
Tactical Dice faces, moves in squares, ranges, terrain, options, the turn.

No arithmetic for the players: a unit throws as many Tactical Dice as its quality and
reads faces, never sums. docs/rules/harman.md names the clause behind each number.
"""
from __future__ import annotations

from ..army_morale import ARMY_MORALE_OPTION
from ..base import Option, Phase, UnitProfile

# Tactical Dice faces
OFFICER, TARGET, FLAG, FIRE, SABRE = "Officer", "Target", "Flag", "Fire", "Sabre"
FACE = {1: OFFICER, 2: TARGET, 3: TARGET, 4: FLAG, 5: FIRE, 6: SABRE}

# quality -> (Tactical Dice, Combat Value at full strength and high morale)
QUALITY = {"veteran": (4, 10), "trained": (3, 7), "raw": (2, 4)}

# generic kind: label, type, quality
_TABLE = {
    "line_infantry":   ("Trained infantry", "infantry", "trained"),
    "light_infantry":  ("Trained infantry", "infantry", "trained"),
    "grenadiers":      ("Elite infantry", "infantry", "veteran"),
    "guard_infantry":  ("Guard infantry", "infantry", "veteran"),
    "militia":         ("Militia", "infantry", "raw"),
    "rifles":          ("Skirmishers (rifles)", "skirmishers", "trained"),
    "skirmishers":     ("Skirmishers", "skirmishers", "trained"),
    "light_cavalry":   ("Trained cavalry", "cavalry", "trained"),
    "heavy_cavalry":   ("Trained cavalry", "cavalry", "trained"),
    "guard_cavalry":   ("Guard cavalry", "cavalry", "veteran"),
    "foot_artillery":  ("Foot artillery", "foot_artillery", "trained"),
    "heavy_artillery": ("Foot artillery", "foot_artillery", "trained"),
    "horse_artillery": ("Horse artillery", "horse_artillery", "trained"),
}
ARM = {"infantry": "infantry", "skirmishers": "infantry", "cavalry": "cavalry",
       "foot_artillery": "artillery", "horse_artillery": "artillery"}
PROFILES = {kind: UnitProfile(kind, label, ARM[t], {
    "type": t, "quality": q, "dice": QUALITY[q][0], "hits": QUALITY[q][1]})
    for kind, (label, t, q) in _TABLE.items()}

# movement in squares (orthogonal steps)
MARCH = {"infantry": 2, "skirmishers": 2, "cavalry": 3, "foot_artillery": 2,
         "horse_artillery": 3}
CHARGE = 4                        # cavalry, the last two squares straight
GENERAL_MOVE = 3
FOREST_MOVE = 1                   # skirmishers in a forest
CROPS_MOVE = {"infantry": 1, "skirmishers": 1, "cavalry": 2}

# ranges in squares
MUSKET = 2                        # one square between the units
ARTILLERY = {"foot_artillery": (3, 8), "horse_artillery": (2, 6)}   # canister, effective
ARTILLERY_DICE = 3

TRAITS = ()
FORMATIONS = ("line", "limbered", "square")

OPTIONS = (
    Option("weakened_at", "half", "'Lost over its Combat Value' read as over half of it "
           "(a die less, no offensive action) or never before all of it.",
           ("half", "never")),
    Option("officer_effect", "halt", "An Officer face against a unit with no General "
           "present: it may not move in its next turn (loss of command), or nothing.",
           ("halt", "none")),
    Option("flags_add", "turn", "Flags a unit suffers in one turn add up, from every "
           "battery and volley alike (turn), or each throw is judged alone (throw; in the "
           "simultaneous artillery fire the worst battery's throw counts).",
           ("turn", "throw")),
    Option("retire", "each_move", "A unit that 'halts and then begins to retire' (or has "
           "lost all its CV) steps back at once and again as each of its moves begins, "
           "unless a General has joined it (each_move); or steps back once, then stays "
           "retiring (no advance, no charge) where it stands until a General rallies it "
           "(once).", ("each_move", "once")),
    Option("flee", "rout", "Defenders who 'panic and flee at once' before a bayonet charge "
           "rout from the field (rout: the text's 'rout and flee the field'), or retire a "
           "square (retire).", ("rout", "retire")),
    Option("sabres_alone", "stand", "Sabres with no Flag reaching the defenders' quality: "
           "the 'no Flags' paragraph holds, the foot stand (or form square in good time) "
           "(stand), or Sabres and Flags are counted together (break).", ("stand", "break")),
    Option("skirmishing", True, "The optional skirmishing rules: skirmish screens, "
           "skirmish duels, driven-in screens."),
    Option("ammunition", 0, "The optional ammunition limit: turns of fire before a unit "
           "must withdraw to replenish (0: unlimited)."),
    Option("diagonal_moves", False, "Units step diagonally as well as orthogonally "
           "(the text counts squares; adjacency for close combat is orthogonal)."),
    Option("leader_quality", "historical", "Generals have no rating here; kept for other "
           "rulesets.", ("historical", "rolled")),
    ARMY_MORALE_OPTION,
)

PHASES = (
    Phase("artillery", "Artillery fire", frozenset({"Fire", "EndPhase"}),
          "Both sides fire their foot artillery (simultaneously: hits land as the phase ends)."),
    Phase("initiative", "Initiative", frozenset({"ChooseInitiative", "EndPhase"}),
          "The lower D6 chooses who moves first."),
    Phase("move", "Move, fire and close combat", frozenset({
        "MoveUnit", "ChangeFormation", "Charge", "Fire", "MoveLeader", "Rally", "ResolveMelee",
        "EndPhase"}),
          "Move; fire; a unit moving next to the enemy engages it in close combat."),
)
