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
        "end_fire": "end_fire", "end_of_turn_fire": "end_fire", "end_of_move_shooting": "end_fire",
        "end_of_turn_shooting": "end_fire", "melee": "melee", "hand_to_hand": "melee",
    },
    "featherstone": {
        "initiative": "initiative", "rally": "rally", "generals": "generals",
        "move_generals": "generals", "charge": "charges", "charges": "charges",
        "move": "moves", "moves": "moves", "movement": "moves", "other_moves": "moves",
        "fire_first": "fire_first", "stationary_fire": "fire_first", "fire": "fire",
        "firing": "fire", "moving_fire": "fire", "shooting": "fire", "melee": "melee",
        "hand_to_hand": "melee", "combat": "fire_first", "move_charging_units": "charges",
        "move_other_units": "moves",
    },
    "harman": {
        "artillery": "artillery", "artillery_fire": "artillery", "initiative": "initiative",
        "move": "move", "movement": "move", "fire": "move", "close_combat": "move",
        "melee": "move", "rally": "move",
    },
}

# The phase a step's action is played in, where one text phase covers several engine
# phases (Featherstone's "combat": stationary fire, moving fire, melee): the runner steps
# on to it, for the acting side, before the step. A callable gets the acting unit.
STEP_PHASES = {
    "featherstone": {
        "fire": lambda unit: "fire" if unit is not None and unit.moved else "fire_first",
        "melee": "melee", "charge": "charges", "move": "moves", "change_formation": "moves",
        "move_leader": "generals", "rally": "rally",
    },
}

# Marks a case's `state` may give by the text's words, as the ruleset keeps them:
# key -> (mark, how its value is made from the case's value and the turn)
STATE_MARKS = {
    "featherstone": {
        "fired_last_turn": ("fired_turn", lambda v, turn: turn - 1 if v else None),
        "shots_fired": ("shots", lambda v, turn: int(v)),
        "impetuous_last_turn": ("impetuous", lambda v, turn: turn - 1 if v else None),
    },
}

# A step's `choice` (what the text leaves to the player) as the ruleset plays it:
# (verb, choice) -> ("mark", unit key, {mark: value}) set before the step, or
# ("field", {action field: value or "winners"}) on the step's action.
CHOICES = {
    "featherstone": {
        ("charge", "stand"): ("mark", "target", {"stand_ground": True}),
        ("charge", "evade"): ("mark", "target", {"stand_ground": None}),
        ("melee", "pursue"): ("field", {"pursue": None}),
        ("melee", "hold"): ("field", {"pursue": ()}),
        # the engine shelters crews and generals, and counter-charges on a 7, whenever the
        # text allows: these choices need nothing more
        ("charge", "shelter"): ("mark", "target", {}),
        # foot answering a 7 from foot: the ruleset's CounterCharge on the charged unit
        ("charge", "counter_charge"): ("before", "CounterCharge", "target"),
        ("move", "recall"): ("action", "SoundRecall"),
    },
}

# Expectations by the text's words, read off the ruleset's marks: key -> (mark, value
# that means true)
EXPECT_MARKS = {"featherstone": {"counter_charged": ("reaction", "counter")}}

# Rulesets where the charged unit's volley at its charger is a step of its own (the
# stationary fire before the melee: Featherstone's first fire and support fire), not a
# shot the engine takes inside the charge (Quick-play's reaction volley).
FIRE_AS_STEP = {"featherstone"}

# A step's fields when the case makes no choice: what a player who says nothing does
# (Featherstone's infantry "may" pursue: a case that does not choose "pursue" does not).
DEFAULT_FIELDS = {"featherstone": {"melee": {"pursue": ()}}}



def _featherstone_morale(battle, unit, column, dice, events):
    """A test on the Lost Melee column played alone (the text's table, without the melee
    that called for it): the loser faces the nearest enemy."""
    from manager.rules.featherstone.melee import lost_melee
    from manager.rules.featherstone.morale import apply_rally, check
    from manager.rules.featherstone.nearby import nearest_enemy
    if column in ("lost_melee", "lost melee"):
        lost_melee(battle, unit, nearest_enemy(battle, unit), dice, events)
    elif column == "rally":
        _, result, _ = check(battle, unit, "rally", dice, events)
        apply_rally(battle, unit, result, dice, events)
    else:
        raise ValueError(f"the runner plays the {column!r} column only through a charge")


def _featherstone_step_begins(battle):
    """The case's marks are the situation as its step begins: where a fire step has
    already noted each unit's figures and disorder (simultaneous fire), note them again."""
    from manager.model.forces import mark
    for u in battle.live_units():
        if mark(u, "strength") is not None:
            battle.mark_unit(u.id, strength=u.hits,
                             was_disordered=True if u.disordered else None)


# What the events say when a unit routs, as a case's `routed` reads it: Featherstone's
# "A unit routes or breaks facing away from the enemy" (Charged 0: "Break 2 moves").
ROUT_WORDS = {"featherstone": r"(rout|breaks)"}


# After the case's `state` marks are set: what the ruleset notes as a step begins.
AFTER_STATE = {"featherstone": _featherstone_step_begins}


# A `morale` step no other step resolves: how the ruleset plays it alone.
MORALE = {"featherstone": _featherstone_morale}


def _featherstone_melee(battle, attackers, defender):
    """A melee step between units already in contact, with no charge this turn: the
    engine fights melees that charges bring, so the attackers are marked as charging."""
    for a in attackers:
        battle.mark_unit(a, charging=defender,
                         charge_strength=battle.units[a].hits)
    battle.mark_unit(defender, reaction="stand")


# A melee step where the engine has no melee yet (units set up in contact).
MELEE_SETUP = {"featherstone": _featherstone_melee}

# Rulesets whose text's phases are the whole turn's, both sides in turn ("winner chooses to
# go 1st or 2nd with all units"): an `end_phase` ends the phase for both sides, and a step
# with a piece of the side still to come in the same phase goes on to that side's part.
SHARED_PHASES = {"quickplay"}

# the text's formation words where the engine names the formation otherwise
FORMATIONS = {
    "harman": {"unlimbered": "line"},          # guns unlimbered stand in the engine's line
}


def engine_formation(ruleset, name: str) -> str:
    return FORMATIONS.get(ruleset.id, {}).get(name, name) if name else name


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

# rulesets whose formation change is part of a move ("Cost 1 box move penalty to change
# formation"): a change_formation step followed by the same unit's move is one move
FORMATION_IN_MOVE = {"morschauser"}


def first_player(battle) -> str:
    """The side that goes first this turn: the winner's choice where the ruleset records it
    per step (Featherstone's `first.<step>` marks), else the battle's side order."""
    marks = dict(battle.state.marks)
    for key in ("first.moves", "first.rally"):
        if marks.get(key):
            return marks[key]
    return battle.state.order[0]


def initiative_winner(battle) -> str:
    """The side that won this turn's initiative (the one that chose), as the ruleset
    records it; "" if it keeps no record."""
    marks = dict(battle.state.marks)
    streak = marks.get("streak")                 # harman: (winner, turns in a row)
    if streak:
        return streak[0]
    return marks.get("initiative", "") or ""
