"""The one-page quick-play rules as data: units, moves, weapons, melee and morale numbers.

Parts of the text were lost; where it breaks off the reading here is the most common
one for rules of this family, and docs/rules/quickplay.md says which cells are ours.
"""
from __future__ import annotations

from ..army_morale import ARMY_MORALE_OPTION
from ..base import Option, Phase, UnitProfile

# generic kind: label, arm, figures (gunners for a gun), move class, weapon, quality,
# special rules
_TABLE = {
    "line_infantry":   ("Regular infantry", "infantry", 16, "regular", "musket", 0, ()),
    "light_infantry":  ("Regular light infantry", "infantry", 16, "regular", "musket", 0, ()),
    "grenadiers":      ("Elite infantry", "infantry", 16, "regular", "musket", 1, ("shock",)),
    "guard_infantry":  ("Guard infantry", "infantry", 16, "regular", "musket", 1, ("shock",)),
    "militia":         ("Militia (irregular)", "infantry", 16, "irregular", "musket", -1, ()),
    "rifles":          ("Rifles (skirmishers)", "infantry", 12, "irregular", "rifle", 0,
                        ("skirmish", "sharpshooter")),
    "skirmishers":     ("Skirmishers", "infantry", 12, "irregular", "musket", 0, ("skirmish",)),
    "light_cavalry":   ("Light cavalry", "cavalry", 8, "cavalry", "", 0, ()),
    "heavy_cavalry":   ("Heavy cavalry", "cavalry", 8, "cavalry", "", 0, ("shock",)),
    "guard_cavalry":   ("Guard cavalry", "cavalry", 8, "cavalry", "", 1, ("shock",)),
    "foot_artillery":  ("Foot artillery", "artillery", 4, "artillery", "foot_gun", 0,
                        ("no_melee",)),
    "horse_artillery": ("Light gun", "artillery", 4, "artillery", "light_gun", 0, ("no_melee",)),
    "heavy_artillery": ("Heavy artillery", "artillery", 4, "heavy", "foot_gun", 0, ("no_melee",)),
}
PROFILES = {kind: UnitProfile(kind, label, arm, {
    "hits": figures, "move": move, "weapon": weapon, "quality": quality, "special": special})
    for kind, (label, arm, figures, move, weapon, quality, special) in _TABLE.items()}

# Variable moves: (fixed inches, D6s) and what is added, doubled or taken (the text's table)
MOVE_DICE = {"regular": (6, 1), "irregular": (0, 3), "cavalry": (6, 1), "artillery": (0, 1),
             "heavy": (0, 1), "commander": (6, 1)}
DOUBLED = ("cavalry", "commander")            # (6 + D6) x 2
COLUMN_BONUS_DICE = 1                         # regular infantry starting or ending in column
LIMBERED_BONUS = 6                            # artillery +6 if limbered
ROAD_BONUS_DICE = 1                           # artillery, wagons and heavy guns on a road

# Weapons: close / long range in inches
RANGES = {"musket": (6, 12), "rifle": (12, 24), "light_gun": (12, 36), "foot_gun": (12, 48)}
HIT_ON = 5                                    # 5 or 6 hits, shooting and melee
FIRE_ARC = 45
FIGURES_PER_DIE = 2                           # infantry: a die per two figures; a die a gunner
VISIBILITY_IN_WOODS = 3
COMMAND_RANGE = 12
COMMAND_TEST = 4                              # 4+ to move when out of command
COMMANDER_JOIN = 12                           # Rally men! and Follow me!: ride up to 12"

FORMATIONS = ("line", "column", "skirmish", "limbered")
ARM_FORMATIONS = {"infantry": ("line", "column"), "cavalry": ("line", "column"),
                  "artillery": ("line", "limbered")}
RANKS = {"line": 2, "column": 4, "skirmish": 1, "limbered": 1}
BASE = {"infantry": (0.5, 0.5), "cavalry": (0.75, 1.0), "artillery": (1.5, 1.5)}  # per file

# Morale: D6 + modifiers; 4+ steady, 1-3 retreat a full move in disorder, 0 or less rout
STEADY_FROM = 4
ROUT_AT = 0

BROKEN = ("rough", "fields")                  # broken ground
DIFFICULT = ("woods", "marsh", "town")        # difficult ground
IMPASSABLE = ("lake",)
STREAM_COST = 3

TRAITS = ()

OPTIONS = (
    Option("activation", "initiative", "Roll for initiative each turn (the winner goes first "
           "or second with all units), or draw red and black cards, one activation a card.",
           ("initiative", "cards")),
    Option("players_per_side", 1, "With cards: pieces a side activates on each of its cards "
           "(one per player on the side)."),
    Option("command_control", False, "Optional rule: a unit beyond 12 inches or out of sight "
           "of its commander needs 4+ (+1 elite, -1 militia) to move."),
    Option("long_range_dice", "round_down", "Halving dice at long range: round down or up.",
           ("round_down", "round_up")),
    Option("rout", "removed", "A routed unit leaves the battle, or flees two moves in "
           "disorder.", ("removed", "flees")),
    Option("good_order_fall_back", "half_move", "The text gives no distance for a steady "
           "loser's 'fall back in good order': half an average move (less than the full "
           "move of a retreat in disorder), or a full one. Either stops at the table edge.",
           ("half_move", "full_move")),
    Option("woods_visibility", "through", "'Visibility in woods etc 3\"': sight passes "
           "through up to 3 inches of woods or buildings, or a piece in them is seen only "
           "from within 3 inches (centre to centre).", ("through", "within")),
    Option("first_fire", "regulars", "'+1 ... regular 1st fire': a unit's first volley, for "
           "every regular unit (guns and skirmishers too) or regular foot in ranks only.",
           ("regulars", "regular_infantry")),
    Option("retreat_move", "average", "A fall back or retreat is a move the text does not "
           "roll: the move's average, or rolled like any move (its own dice).",
           ("average", "rolled")),
    Option("counter_charge", True, "Cavalry that has not moved counter-charges a charge."),
    Option("skirmisher_evade", True, "Skirmishers that have not moved retreat before a charge."),
    Option("base_scale", 1.0, "Multiply every base's size (a file of infantry is 0.5 inch)."),
    ARMY_MORALE_OPTION,
)

PHASES = (
    Phase("initiative", "Initiative", frozenset({"ChooseInitiative", "EndPhase"}),
          "The winner of the roll goes first or second with all his units."),
    Phase("act", "Activation", frozenset({"MoveUnit", "ChangeFormation", "Charge", "Fire",
                                          "MoveLeader", "Rally", "FollowMe", "EndPhase"}),
          "Each unit moves, charges or shoots; commanders ride, rally or lead."),
    Phase("end_fire", "End-of-turn shooting", frozenset({"Fire", "EndPhase"}),
          "Units that moved may shoot now."),
    Phase("melee", "Melee", frozenset({"ResolveMelee", "EndPhase"}),
          "Every charge that made contact is fought; the loser tests morale."),
)
