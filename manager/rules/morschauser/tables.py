"""Morschauser Mark 3 as data: the unit table, the missile table, leaders, options, phases.

Every number here is a cell of the rule text's tables; the clause each comes from is
named in docs/rules/morschauser.md.
"""
from __future__ import annotations

from ..base import Option, Phase, UnitProfile

# Unit table: move boxes | hits | melee front | melee other | fire base dice
# Missile table: range boxes | lowest face that hits
#   (field order: move, hits, front, other, dice, range, to_hit)
_TABLE = {
    #  generic kind       label               arm          mv hits fr ot dice rng hit
    "militia":         ("Militia Infantry", "infantry",   2, 4, 2, 1, 2, 4, 5),
    "light_infantry":  ("Light Infantry",   "infantry",   3, 4, 2, 1, 3, 4, 4),
    "rifles":          ("Rifles",           "infantry",   3, 4, 2, 1, 3, 6, 4),
    "skirmishers":     ("Light Infantry",   "infantry",   3, 4, 2, 1, 3, 4, 4),
    "line_infantry":   ("Infantry",         "infantry",   2, 5, 3, 1, 2, 4, 5),
    "grenadiers":      ("Grenadiers",       "infantry",   2, 6, 4, 2, 2, 4, 5),
    "guard_infantry":  ("Guard Infantry",   "infantry",   2, 8, 4, 2, 2, 4, 5),
    "light_cavalry":   ("Light Cavalry",    "cavalry",    5, 4, 3, 1, 1, 3, 6),
    "heavy_cavalry":   ("Heavy Cavalry",    "cavalry",    4, 6, 4, 2, 0, None, None),
    "guard_cavalry":   ("Guard Cavalry",    "cavalry",    4, 8, 5, 3, 0, None, None),
    "foot_artillery":  ("Foot Artillery",   "artillery",  2, 4, 1, 1, 3, 12, 4),
    "horse_artillery": ("Horse Artillery",  "artillery",  4, 4, 1, 1, 2, 12, 4),
    "heavy_artillery": ("Foot Artillery",   "artillery",  2, 4, 1, 1, 3, 12, 4),
}

PROFILES = {
    kind: UnitProfile(kind, label, arm, {
        "move": mv, "hits": hits, "melee_front": fr, "melee_other": ot,
        "fire_dice": dice, "range": rng, "to_hit": hit,
    })
    for kind, (label, arm, mv, hits, fr, ot, dice, rng, hit) in _TABLE.items()
}

# Artillery fires shot out to 12 boxes (4, 5, 6) and grape out to 6 (2 to 6).
GRAPE_RANGE = 6
GRAPE_TO_HIT = 2

LEADER = {"move": 6, "hits": 2, "melee": 2, "radius": 6}
LEADER_HIT_FACES = (2, 3)            # on 2D6, when his box is shot at or in melee

# Rally: D6 + quality modifier; 1-2 fail, 3-6 one hit back, 7+ two.
RALLY_FAIL_BELOW = 3
RALLY_TWO_AT = 7

QUALITY = {1: ("Abysmal", -2), 2: ("Poor", -1), 3: ("Average", 0), 4: ("Average", 0),
           5: ("Good", +1), 6: ("Superior", +2)}

FALL_BACK_BOXES = 2
SHAKEN_RETREAT_BOXES = 4             # 12 inches
FIRE_HITS_FOR_FALL_BACK = 2

FORMATIONS = ("line", "column", "square")
# "Foot Artillery may not fire at all if it moves, other than to change facing"
FOOT_GUNS = ("foot_artillery", "heavy_artillery")
COLUMN_MOVE = 3                      # column raises infantry's base move to 3 boxes
FORMATION_CHANGE_COST = 1

TRAITS = ("napoleon", "wellington", "archduke_charles", "kutusov", "blucher")

OPTIONS = (
    Option("army_morale", "all", "An army concedes when all its commands are Shaken, "
           "or (large battles) half of them.", ("all", "half")),
    Option("leader_quality", "historical", "Leader quality as the scenario gives it, "
           "or rolled on a D6 for every leader at the start.", ("historical", "rolled")),
    Option("formations", False, "Napoleonic extra: line, column and square."),
    Option("rifles", True, "Napoleonic extra: rifles shoot out to 6 boxes."),
    Option("sharpshooters", True, "Napoleonic extra: sharpshooter units hit on 4, 5, 6."),
    Option("national_characteristics", False,
           "Napoleonic extra: Napoleon, Wellington, Archduke Charles, Kutusov, Blücher, Spain."),
    Option("army_composition", False,
           "Napoleonic extra: refuse armies that break their nation's composition rule."),
    Option("terrain_penalties_stack", False,
           "Each terrain condition (uphill, stream, woods, buildings, walls) is its own -1, "
           "instead of one -1 when any applies."),
    Option("defender_front_when", "all_in_front",
           "A defender fights with its Front rating when all its attackers are in its front "
           "boxes, or when any one is.", ("all_in_front", "any_in_front")),
    Option("blocked_fall_back", "stop",
           "Not in the text: a unit whose fall back is blocked (by enemies, ground it may "
           "not enter or the table edge; friends are passed through) simply stops, or takes "
           "a hit for each box it could not move.", ("stop", "hit_per_box")),
    Option("fall_back_way", "slide",
           "Not in the text: a fall back blocked straight behind slips to either diagonal "
           "box, or goes straight back only, as far as it can.", ("slide", "straight")),
    Option("shaken_rear_speed", "full",
           "A Shaken command's units retreat to the rear at full speed (the text's "
           "'except to the rear') or at the usual half speed.", ("full", "half")),
    Option("general_commands", "army",
           "The army's General commands the whole army (he rallies any unit within 6 "
           "boxes, and when he falls all its units move at half speed), or no unit of his "
           "own ('Leaders only affect their Command': he rallies none, his fall slows "
           "none). His national characteristic goes with him either way.",
           ("army", "none")),
    Option("pass_through_friends", True, "Units may move through boxes held by friends."),
    Option("fire_arc", 45, "Half-angle in degrees of the arc a unit may shoot into."),
    Option("line_of_sight", "units_and_terrain",
           "What blocks a shot: units and woods/towns/higher ground between, terrain only, "
           "or nothing.", ("units_and_terrain", "terrain_only", "none")),
    Option("bombardment_turns", 0,
           "The text's opening fragment: for this many turns combat is limited to long-range "
           "artillery fire (beyond grape range) and rallying; no unit enters an enemy zone."),
    Option("marsh", "infantry_only",
           "The text is silent on marsh: only infantry may enter it, or nobody.",
           ("infantry_only", "impassable")),
)

PHASES = (
    Phase("rally", "Rally", frozenset({"Rally", "EndPhase"}),
          "Each leader may rally one unit of his within 6 boxes."),
    Phase("move", "Move and fire", frozenset({"MoveUnit", "MoveLeader", "ChangeFormation",
                                              "Fire", "TableFire", "EndPhase"}),
          "Move units and leaders; a unit fires at the start or the end of its move."),
    Phase("melee", "Melee", frozenset({"ResolveMelee", "TableMelee", "EndPhase"}),
          "Resolve every melee; units facing into an enemy box attack."),
)
NEXT_PHASE = {"rally": "move", "move": "melee", "melee": None}
