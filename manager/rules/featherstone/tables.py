"""The Featherstone-like rules as data: units, moves, ranges, artillery, morale, options.

Every number here is a cell of the rule text's tables; docs/rules/featherstone.md names
the clause each comes from and every reading made where the text is unclear.
"""
from __future__ import annotations

from dataclasses import replace

from ..army_morale import ARMY_MORALE_OPTION
from ..base import Option, Phase, UnitProfile

CREW = 4                         # a battery's gunners (the text's crew rules speak of 3-4)

# generic kind: label, arm, figures (crew for a battery), move key, weapon, grade, save,
# and the special rules that kind brings
_TABLE = {
    "line_infantry":   ("Line infantry",      "infantry", 24, "infantry", "musket", 1, ()),
    "light_infantry":  ("Light infantry",     "infantry", 24, "infantry", "musket", 1, ("light",)),
    "grenadiers":      ("Grenadiers",         "infantry", 24, "infantry", "musket", 2, ("elite",)),
    "guard_infantry":  ("Guard infantry",     "infantry", 24, "infantry", "musket", 2, ("elite",)),
    "militia":         ("Militia",            "infantry", 24, "infantry", "musket", 0, ()),
    "rifles":          ("Rifles",             "infantry", 24, "infantry", "rifle", 1, ("light",)),
    "skirmishers":     ("Skirmish infantry",  "infantry", 24, "infantry", "musket", 1,
                        ("light", "skirmish")),
    "light_cavalry":   ("Light horse",        "cavalry", 12, "light_horse", "", 1, ("light_cav",)),
    "heavy_cavalry":   ("Heavy horse",        "cavalry", 12, "heavy_horse", "", 1, ("heavy_cav",)),
    "guard_cavalry":   ("Guard heavy horse",  "cavalry", 12, "heavy_horse", "", 2, ("heavy_cav",)),
    "foot_artillery":  ("Field battery",      "artillery", CREW, "field_artillery", "field", 1, ()),
    "horse_artillery": ("Horse battery",      "artillery", CREW, "horse_artillery", "field", 1, ()),
    "heavy_artillery": ("Heavy battery",      "artillery", CREW, "heavy_artillery", "heavy", 1, ()),
}

PROFILES = {
    kind: UnitProfile(kind, label, arm, {
        "hits": figures, "move": move, "weapon": weapon, "grade": grade, "special": special,
    })
    for kind, (label, arm, figures, move, weapon, grade, special) in _TABLE.items()
}

# Move rates in inches, by type and formation (the text's table)
MOVE = {"infantry": {"line": 6, "column": 9, "extended": 9, "march_column": 12, "square": 0},
        "heavy_horse": {"line": 12, "column": 12, "march_column": 15},     # march +3
        "light_horse": {"line": 15, "column": 15, "march_column": 18},
        "heavy_artillery": {"line": 6}, "field_artillery": {"line": 9},
        "horse_artillery": {"line": 12}}
GENERAL_MOVE = 15               # not in the text: generals ride as light horse
MARCH_COLUMN_ROAD_BONUS = 3      # march column, entirely by road
LINEAR_OBSTACLE_COST = 3         # walls, hedges, fences, streams (and fords)
DIFFICULT_AREAS = ("woods", "town", "marsh", "rough")     # half speed
IMPASSABLE_AREAS = ("lake",)

# Formations: how many figure ranks (stands deep) each has. Infantry stands carry four
# figures in a rank, cavalry stands three; a battery is one base.
FORMATIONS = ("line", "column", "march_column", "square", "extended")
ARM_FORMATIONS = {"infantry": ("line", "column", "march_column", "square", "extended"),
                  "cavalry": ("line", "column", "march_column"),
                  "artillery": ("line",)}
RANKS = {"infantry": {"line": 2, "column": 3, "march_column": 6, "square": 2, "extended": 1},
         "cavalry": {"line": 1, "column": 2, "march_column": 4}}
STAND_FIGURES = {"infantry": 4, "cavalry": 3}
STAND_SIZE = {"infantry": (1.0, 0.5), "cavalry": (0.75, 1.0), "artillery": (1.5, 1.5)}
FIRING_RANKS = 2                 # "2 ranks of infantry may fire"
MELEE_RANKS = {"infantry": 3, "cavalry": 2}

# Small arms: range limits (inches) for short (4), medium (3) and long (2)
SMALL_ARMS = {"musket": ((2, 4), (4, 3), (8, 2)), "rifle": ((4, 4), (8, 3), (16, 2))}
MELEE_TARGET = 4
FIGURES_PER_DIE = 5              # 1-2 left over ignored, 3-4 roll another die

# Artillery: band limits (inches) and the to-hit face (0 = automatic)
ARTILLERY_BANDS = ("canister", "short", "medium", "long", "extreme")
ARTILLERY_TO_HIT = {"canister": 0, "short": 2, "medium": 3, "long": 4, "extreme": 5}
ARTILLERY_RANGES = {"heavy": (10, 20, 30, 40, 50), "field": (8, 16, 24, 32, 40)}
CLOSE_CANISTER = 2               # canister damage on 2 dice at this range or less
DAMAGE_BONUS = {"column": 1, "square": 2, "march_column": 2, "flank": 2}
SHOTS_PER_BATTERY = 10

# Counter-battery: 2D6 -> (men hit, gun destroyed); "in open" rows differ under cover
COUNTER_BATTERY = {8: ((1, False), (0, False)), 9: ((1, False), (1, False)),
                   10: ((2, False), (2, False)), 11: ((0, True), (3, False)),
                   12: ((0, True), (0, True))}      # {total: (in the open, in cover)}

# Saving rolls: the lowest face that saves
SAVE_FORMED = 5
SAVE_LIGHT_OR_CREW = 4           # skirmish infantry and gunners, against shooting only
SAVE_BUILDINGS = 4               # farm house, wall, hedge
SAVE_FORTIFIED = 3
SAVE_ARMOURED = 4                # cuirassiers and life guards
SAVE_MELEE = 5

# Morale: D6 + modifiers, read at 0..7 in one of three columns
MORALE_MIN, MORALE_MAX = 0, 7
RALLY = {0: "disperse", 1: "rout", 2: "fall_back", 3: "no_rally", 4: "rally_hold",
         5: "rally_half", 6: "rally_full", 7: "rally_charge"}
CHARGED = {0: "break", 1: "fall_back", 2: "fall_back", 3: "fall_back", 4: "waver",
           5: "stand", 6: "stand_first_fire", 7: "counter"}
LOST_MELEE = {0: "disperse", 1: "rout", 2: "rout", 3: "fall_back", 4: "fall_back",
              5: "fall_back", 6: "fall_back", 7: "fall_back"}
GENERAL_NEAR = 4                 # inches: "General within 4 inches of the unit"
NEAR_MOD = {1: -1, 2: -1, 3: 0, 4: 0, 5: 1, 6: 1}            # by leader quality
ATTACHED_MOD = {1: -2, 2: -1, 3: 0, 4: 0, 5: 1, 6: 2}
QUALITY_LABEL = {1: "Terrible", 2: "Poor", 3: "Average", 4: "Average", 5: "Good",
                 6: "Excellent"}
SAFE_DISTANCE = 8                # inches: influence out of harm's way, recall range
SHELTER_REACH = 2                # crews and generals shelter with a friend this close
EVADE_CLEAR = 2                  # evading skirmishers stay more than 2 inches away

TRAITS = ()                      # no national characteristics in this text

OPTIONS = (
    Option("leader_quality", "historical", "Generals' ratings as the scenario gives them, "
           "or rolled on a D6 for every general at the start.", ("historical", "rolled")),
    Option("general_influence", "chosen", "A general's morale modifier: chosen by the player "
           "(up to +/-1 within 4 inches, +/-2 attached; full help unless he says less), as "
           "the design notes have it, or fixed by the general's 1-6 rating.",
           ("chosen", "rating")),
    Option("stand_scale", 1.0, "Multiply every stand's width and depth (1.0: infantry "
           "stands 1 x 0.5 inch, cavalry 0.75 x 1, a battery 1.5 x 1.5)."),
    Option("forward_arc", 45, "Half-angle in degrees of the forward moves: a full-rate "
           "move goes straight within this angle of the unit's facing."),
    Option("extended_order", "light_only", "Which infantry may form extended order: light "
           "infantry, rifles and skirmishers only, or any.", ("light_only", "all")),
    Option("rally_canister_penalty", "canister", "The rally -1 applies within canister "
           "range of enemy guns (the rules section) or within close canister range (the "
           "summary sheet).", ("canister", "close_canister")),
    Option("lost_melee_two", "rout", "Lost Melee column at 2: the table's blank cell read "
           "as the row above (rout) or the row below (fall back).", ("rout", "fall_back")),
    Option("morale_table", "withdrawal", "How the flattened morale table's blank cells are "
           "read: Charged 4 wavers in disorder and Lost Melee 3-7 fall back a move in "
           "disorder (the 'orderly withdrawal' the text promises a losing guard), or Charged 4 "
           "wavers without disorder and Lost Melee 4-7 stand ground in disorder (the cells "
           "read left to right along each row).", ("withdrawal", "stand_ground")),
    Option("charger_check", "charged_column", "A charger that takes casualties from the "
           "defenders' fire checks on the Charged column, or does not check.",
           ("charged_column", "none")),
    Option("seven_against_cavalry", "square", "Infantry rolling 7 when charged by cavalry "
           "forms square, or stands and fires first.", ("square", "stand_and_fire")),
    Option("melee_disorder", "halve", "A disordered unit halves its melee hits (round up): "
           "'the procedure to resolve melee is the same as that of shooting', where "
           "disordered troops halve their hits (halve); or the melee paragraph's own steps, "
           "which do not repeat the halving, are the whole procedure (full).",
           ("halve", "full")),
    Option("charged_reread", "score", "A unit due its rally check that is charged rolls once "
           "on the Rally column and, if it stands, 'use the same roll' on the Charged "
           "column: the same score, the Rally column's -1 included (score), or the same "
           "die with the Charged column's own modifiers, the -1 being 'Rally only' (die).",
           ("score", "die")),
    Option("rally_seven", "charge_step", "Rally 7, 'Immediately charge enemy if within 1 "
           "charge move': the unit must charge in the charging units' step that follows the "
           "rally (charge_step: the sequence of play moves charges there), or charges at "
           "once, in the rally step (at_once).", ("charge_step", "at_once")),
    Option("gun_move_fire", "both", "Guns fire if they moved no more than half AND turned "
           "45 degrees or less (both limits), or if either holds (a gun that moved a full "
           "move straight ahead may still fire).", ("both", "either")),
    Option("evade", "clear", "Skirmishers evading a charge go as far as keeps them more "
           "than 2 inches beyond the charger's reach, up to a full move (clear), or always "
           "a full move (full).", ("clear", "full")),
    Option("pursuit", True, "Victorious units pursue (infantry 1D6 inches, cavalry the "
           "rest of their move + 1D6, or 2D6 if impetuous)."),
    Option("support_fire", True, "Units that did not move and can see the fight fire in "
           "support of a melee at half strength."),
    Option("unit_officers", False, "The design notes' optional unit commanders: hit on "
           "1-2 when the unit takes 6 hits; the unit then checks morale at -1."),
    Option("traits_from_names", True, "Read lancers (lancer, uhlan) and armoured cavalry "
           "(cuirassier, carabinier, life guard) from unit names when a scenario does not "
           "give traits."),
    # not in this text, which ends on the clock ("10-12 turns"); so off unless asked
    replace(ARMY_MORALE_OPTION, default="off"),
    Option("pass_through_friends", True, "Units may move through friendly units."),
)

PHASES = (
    Phase("initiative", "Initiative", frozenset({"ChooseInitiative", "EndPhase"}),
          "The high roller chooses who goes first in each step."),
    Phase("rally", "Rally", frozenset({"Rally", "CommitGeneral", "EndPhase"}),
          "Disordered units check morale to rally; a general may add his influence."),
    Phase("generals", "Move generals", frozenset({"MoveLeader", "CommitGeneral",
                                                  "CounterCharge", "EndPhase"}),
          "Generals ride; one who ends on a unit's base is attached to it."),
    Phase("charges", "Charges", frozenset({"Charge", "CommitGeneral", "CounterCharge",
                                           "EndPhase"}),
          "Declare and move charges; the charged unit checks morale at once."),
    Phase("moves", "Other moves", frozenset({"MoveUnit", "ChangeFormation", "SoundRecall",
                                             "HoldGround", "CommitGeneral", "CounterCharge",
                                             "EndPhase"}),
          "Move and re-form the units that did not charge."),
    Phase("fire_first", "Stationary fire", frozenset({"Fire", "CommitGeneral", "EndPhase"}),
          "Units that did not move shoot first, simultaneously."),
    Phase("fire", "Moving fire", frozenset({"Fire", "CommitGeneral", "EndPhase"}),
          "Units that moved shoot, simultaneously."),
    Phase("melee", "Melee", frozenset({"ResolveMelee", "DeclineReroll", "CommitGeneral",
                                          "EndPhase"}),
          "Resolve every charge that reached its target."),
)
# steps each side plays in turn (first player, then second); the rest are played once
PER_SIDE = ("rally", "generals", "charges", "moves", "fire_first", "fire")
STEPS = ("rally", "generals", "charges", "moves", "fire_first", "fire", "melee")
