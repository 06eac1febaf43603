"""What the runner needs to know of each ruleset's text: its phase names and its turn.

Case writers use the text's own phase names (`fire`, `charge`, `hand_to_hand`, ...);
each ruleset maps them to the engine's phases here. The engine's own names are always
accepted too. `turn` says what the text calls a turn: a player turn (one side's go,
Morschauser and D3) or a game turn (both sides, the others).
"""
from __future__ import annotations

PHASES = {
    "morschauser": {
        "rally": "rally", "move": "move", "movement": "move", "fire": "move",
        "move_and_fire": "move", "shooting": "move", "melee": "melee", "close_combat": "melee",
    },
    "d3": {
        "move": "move", "movement": "move", "charge": "move", "shoot": "shoot",
        "shooting": "shoot", "fire": "shoot", "melee": "melee", "hand_to_hand": "melee",
        "hand-to-hand": "melee", "close_combat": "melee",
    },
    "quickplay": {
        "initiative": "initiative", "act": "act", "activation": "act", "move": "act",
        "movement": "act", "fire": "act", "shooting": "act", "charge": "act", "rally": "act",
        "end_fire": "end_fire", "end_of_turn_fire": "end_fire",
        "end_of_turn_shooting": "end_fire", "melee": "melee", "hand_to_hand": "melee",
    },
    "featherstone": {
        "initiative": "initiative", "rally": "rally", "generals": "generals",
        "move_generals": "generals", "charge": "charges", "charges": "charges",
        "move": "moves", "moves": "moves", "movement": "moves", "other_moves": "moves",
        "fire_first": "fire_first", "stationary_fire": "fire_first", "fire": "fire",
        "firing": "fire", "moving_fire": "fire", "shooting": "fire", "melee": "melee",
        "hand_to_hand": "melee",
    },
    "harman": {
        "artillery": "artillery", "artillery_fire": "artillery", "initiative": "initiative",
        "move": "move", "movement": "move", "fire": "move", "close_combat": "move",
        "melee": "move", "rally": "move",
    },
}

# "player": a turn is one side's go; "game": both sides' (the initiative rulesets)
TURN = {"morschauser": "player", "d3": "player", "quickplay": "game",
        "featherstone": "game", "harman": "game"}


def engine_phase(ruleset, name: str) -> str:
    """The engine's phase for a text's phase name, or ValueError naming the choices."""
    engine = [p.name for p in ruleset.phases]
    if name in engine:
        return name
    table = PHASES.get(ruleset.id, {})
    key = name.lower().replace(" ", "_")
    if key in table:
        return table[key]
    raise ValueError(f"unknown phase {name!r} for {ruleset.id}; the runner knows "
                     f"{', '.join(sorted(set(table) | set(engine)))}")
