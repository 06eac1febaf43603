"""D3 Horse and Musket as data: unit types, frontages, moves, ranges, dice, options.

Every number is a line of the rule text; docs/rules/d3.md names the clause each comes
from and every reading made where the text is silent.
"""
from __future__ import annotations

from ..army_morale import ARMY_MORALE_OPTION
from ..base import Option, Phase, UnitProfile

# generic kind -> (label, type); the text has four types of unit
_KINDS = {
    "line_infantry": ("Infantry", "infantry"), "light_infantry": ("Infantry", "infantry"),
    "grenadiers": ("Infantry", "infantry"), "guard_infantry": ("Infantry", "infantry"),
    "militia": ("Infantry", "infantry"), "rifles": ("Skirmishers", "skirmishers"),
    "skirmishers": ("Skirmishers", "skirmishers"),
    "light_cavalry": ("Cavalry", "cavalry"), "heavy_cavalry": ("Cavalry", "cavalry"),
    "guard_cavalry": ("Cavalry", "cavalry"),
    "foot_artillery": ("Artillery", "artillery"), "horse_artillery": ("Artillery", "artillery"),
    "heavy_artillery": ("Artillery", "artillery"),
}
ARM = {"infantry": "infantry", "skirmishers": "infantry", "cavalry": "cavalry",
       "artillery": "artillery"}
MOVE = {"infantry": 6, "artillery": 6, "skirmishers": 9, "cavalry": 12}
GENERAL_MOVE = 12
FRONTAGE = {"infantry": 4.0, "skirmishers": 4.0, "cavalry": 4.0, "artillery": 2.0}
DEPTH = {"infantry": 1.0, "skirmishers": 1.0, "cavalry": 1.5, "artillery": 1.5}
RANGE = {"infantry": 12, "skirmishers": 12, "artillery": 48}
SHOT_MINUS = {"infantry": 0, "skirmishers": 1, "artillery": 1}      # D3, D3-1, D3-1
HITS_TO_ELIMINATE = 9
FIRE_ARC = 45
CHARGE_TURN = 45
CHARGE_BONUS = 1                 # cavalry roll D3 + 1
GENERAL_REROLL_REACH = 12
GENERAL_DANGER = 6
CROSSING_LANDING = 2.0           # a crossing move ends within this of the far bank

TYPES = {kind: t for kind, (_, t) in _KINDS.items()}      # kind -> type (`units.utype`)
PROFILES = {kind: UnitProfile(kind, label, ARM[t], {
    "type": t, "hits": HITS_TO_ELIMINATE, "move": MOVE[t], "frontage": FRONTAGE[t],
    "range": RANGE.get(t, 0)}) for kind, (label, t) in _KINDS.items()}

# Event cards (the comments' variant): drawn on a D6 as a player turn begins
EVENTS = {1: ("confusion", "Confusion: -3 to every move activation this turn", "move", -3),
          2: ("no_ammunition", "No ammunition: -3 to every shooting activation this turn",
              "shoot", -3)}

TRAITS = ()
FORMATIONS = ("line",)

OPTIONS = (
    Option("frontage_scale", 1.0, "Multiply every base's frontage and depth (0.7 fits "
           "units a 3-inch box apart, as on a gridded scenario)."),
    Option("general_reroll", "choose", "A general within 12 inches may re-roll one failed "
           "activation a turn: the player chooses which (RerollActivation, straight after "
           "the failure), or it is spent at once on the first failure, or never.",
           ("choose", "auto", "never")),
    Option("artillery_streams", "never", "Artillery cannot cross streams (the text), or "
           "may cross at a bridge.", ("never", "at_bridges")),
    Option("bridge_crossing", "full_move", "Crossing a river or stream takes a full move "
           "even at a bridge (the text: 'It takes a full move to cross'), or a bridge is "
           "crossed freely.", ("full_move", "free")),
    Option("artillery_deploys", "on_first_shot", "Artillery deploys (and may no longer "
           "move, only pivot) when it first shoots, or never deploys.",
           ("on_first_shot", "never")),
    Option("flank_doubling", "after_modifiers", "A flank or rear charge doubles the hits "
           "after the -1s (D3+1-1 then x2) or before them.",
           ("after_modifiers", "before_modifiers")),
    Option("fire_arc", "any_part", "Within 45 degrees of the front: any part of the "
           "target's base (as range is measured to any part), or its centre.",
           ("any_part", "centre")),
    Option("line_of_sight", "blocked", "The text is silent on sight: other units, woods, "
           "towns and higher hills between block a shot, or nothing does.",
           ("blocked", "none")),
    Option("event_cards", False, "The comments' variant: each player turn draws an event "
           "card (D6: 1 confusion, -3 to move activations; 2 no ammunition, -3 to shooting "
           "activations; 3-6 nothing)."),
    Option("leader_quality", "historical", "Generals have no rating in this text; kept "
           "for other rulesets.", ("historical", "rolled")),
    ARMY_MORALE_OPTION,
)

PHASES = (
    Phase("move", "Movement", frozenset({"MoveUnit", "MoveLeader", "Charge",
                                         "RerollActivation", "EndPhase"}),
          "Each unit that moves tests activation (2 x D6 greater than its hits); cavalry "
          "may charge."),
    Phase("shoot", "Shooting", frozenset({"Fire", "RerollActivation", "EndPhase"}),
          "Units that did not move test activation and shoot."),
    Phase("melee", "Hand-to-hand", frozenset({"ResolveMelee", "EndPhase"}),
          "Each charge is resolved: D3+1 hits."),
)
NEXT_PHASE = {"move": "shoot", "shoot": "melee", "melee": None}
