"""What the rules read off a unit: figures, ranks, grade, traits, footprint, marks.

Per-turn facts live in the unit's ruleset marks (see `mark`): `used` (fraction of the
move spent), `allow` (what the rally let it move: 0, 0.5, 1), `turned` (degrees
turned), `charging` (target id), `reaction` (its answer to a charge), `impetuous`
(the turn cavalry last charged), `shots` (rounds fired), `fired_turn`, `sheltered`,
`strength` and `was_disordered` (figures and disorder when the current fire step
began: shooting is simultaneous),
`faces` (square faces that have fired), `checked` (turn of its last rally check),
`must_charge`, `officer_lost`, `no_influence` (a general who fled an overrun).
Who stands near whom (near units and bases, gaps, attached generals) is `nearby`.
"""
from __future__ import annotations

import math
from functools import lru_cache

from ... import spatial
from .. import common
from ...footprint import Footprint
from ...model.forces import mark
from .tables import (ARM_FORMATIONS, FIRING_RANKS, FIGURES_PER_DIE, MELEE_RANKS, MOVE,
                     PROFILES, RANKS, STAND_FIGURES, STAND_SIZE)

ARMOURED_WORDS = ("cuirassier", "carabinier", "life guard", "lifeguard", "garde du corps")
LANCER_WORDS = ("lancer", "uhlan", "ulan")


def profile(unit):
    return PROFILES[unit.kind]


def arm(unit) -> str:
    return PROFILES[unit.kind].arm


def special(unit) -> tuple:
    return PROFILES[unit.kind]["special"]


def traits(battle, unit) -> frozenset:
    """The unit's traits as the scenario gives them, or as its name tells (an option)."""
    found = set(unit.traits)
    if not found and battle.option("traits_from_names") and arm(unit) == "cavalry":
        name = unit.name.lower()
        if any(w in name for w in ARMOURED_WORDS):
            found.add("armoured")
        if any(w in name for w in LANCER_WORDS):
            found.add("lancers")
    return frozenset(found)


def grade(battle, unit) -> int:
    """Morale grade: +2 guards and elite (and veterans), +1 regulars, 0 militia/conscripts."""
    t = set(unit.traits)
    if "veteran" in t:
        return 2
    if "conscript" in t:
        return 0
    return PROFILES[unit.kind]["grade"]


def is_skirmish(unit) -> bool:
    """Skirmish infantry: the skirmisher kind, or any infantry in extended order."""
    return "skirmish" in special(unit) or (arm(unit) == "infantry" and unit.formation == "extended")


def is_heavy_cav(unit) -> bool:
    return "heavy_cav" in special(unit)


def is_light_cav(unit) -> bool:
    return "light_cav" in special(unit)


def formations_for(battle, unit) -> tuple:
    allowed = ARM_FORMATIONS[arm(unit)]
    if arm(unit) == "infantry" and battle.option("extended_order") == "light_only" \
            and "light" not in special(unit):
        allowed = tuple(f for f in allowed if f != "extended")
    return allowed


# ---- figures in ranks -------------------------------------------------------------------
def ranks(unit) -> int:
    return RANKS.get(arm(unit), {}).get(unit.formation, 1)


def files(unit, figures: int | None = None) -> int:
    f = unit.hits if figures is None else figures
    return math.ceil(f / ranks(unit)) if f > 0 else 0


def firing_figures(unit, figures: int | None = None) -> int:
    """Figures that shoot: two ranks; a square shoots a quarter of its figures per face."""
    f = unit.hits if figures is None else figures
    if unit.formation == "square":
        return f // 4
    return min(f, files(unit, f) * FIRING_RANKS)


def melee_figures(unit, figures: int | None = None) -> int:
    """Figures that fight: three ranks of infantry, two of cavalry; a square fights with half."""
    f = unit.hits if figures is None else figures
    if arm(unit) == "artillery":
        return f                                   # the crew
    if unit.formation == "square":
        return f // 2
    return min(f, files(unit, f) * MELEE_RANKS[arm(unit)])


def dice_for(figures: int) -> int:
    """One die per 5 figures; 1-2 left over are ignored, 3-4 roll one more."""
    return figures // FIGURES_PER_DIE + (1 if figures % FIGURES_PER_DIE >= 3 else 0)


# ---- moving ----------------------------------------------------------------------------
def move_rate(unit, formation: str | None = None) -> float:
    rates = MOVE[profile(unit)["move"]]
    return float(rates.get(formation or unit.formation, rates.get("line", 0)))


def move_budget(unit, rate: float, reforming: bool = False) -> float:
    """Inches of move at `rate` the check of a move allows (re-forming uses half first)."""
    return rate * mark(unit, "allow", 1) * (1 - (mark(unit, "used", 0.0) +
                                                 (0.5 if reforming else 0)))


def allowance(unit) -> float:
    """Inches the unit may still move this turn (its rally result can cut it)."""
    full = move_rate(unit) * mark(unit, "allow", 1)
    return max(full * (1 - mark(unit, "used", 0.0)), 0.0)


def crew(unit) -> int:
    return unit.hits if arm(unit) == "artillery" else 0


# ---- on the table ----------------------------------------------------------------------
BASES = "featherstone.footprints"        # spatial.own_base's memo of the units' own bases
_NONE: dict = {}


def footprint(battle, unit, x=None, y=None, facing=None, formation=None) -> Footprint:
    """The base: stands wide by stands deep for the formation, at the stand sizes scaled."""
    if x is None and y is None and facing is None and formation is None:
        # spatial.own_base's hit read here: a frame and six arguments less on ~68,000
        # asks in 8 turns (1.4% of turns 2+3's instructions today)
        hit = battle._kept.get(BASES, _NONE).get(unit.id)
        if hit is not None and hit[0] is unit and hit[1] is battle.info:
            return hit[2]
        return spatial.own_base(battle, BASES, unit,
                                _footprint, battle, unit, None, None, None, None)
    return _footprint(battle, unit, x, y, facing, formation)


def _footprint(battle, unit, x, y, facing, formation) -> Footprint:
    front, depth = _base_size(unit.kind, unit.max_hits, formation or unit.formation,
                              battle.option("stand_scale", 1.0))
    return Footprint(unit.x if x is None else x, unit.y if y is None else y,
                     unit.facing if facing is None else facing, front, depth)


@lru_cache(maxsize=4096)
def _base_size(kind: str, max_hits: int, form: str, stand_scale) -> tuple:
    """(frontage, depth) of a base: a function of these alone, kept (the trial bases of
    moves and charges, ~6,000 in 8 turns, are of a few kinds and formations)."""
    scale = float(stand_scale or 1.0)
    a = PROFILES[kind].arm
    w, d = STAND_SIZE[a]
    if a == "artillery":
        front, depth = w, d
    else:
        stands = math.ceil(max_hits / STAND_FIGURES[a])
        deep = RANKS[a].get(form, 1)
        if form == "square":
            side = max(w * 1.5, d * 2 * 2)
            front, depth = side, side
        else:
            deep = min(deep, stands)
            front, depth = math.ceil(stands / deep) * w, deep * d
    return front * scale, depth * scale


def engaged(battle, unit) -> bool:
    """In a melee still to fight: a charger in contact, or a unit charged and contacted."""
    ids = battle.peek("featherstone.engaged")       # asked ~80,000 times a battle: one
    return unit.id in (ids if ids is not None else engaged_ids(battle))  # frame when kept


def engaged_ids(battle) -> frozenset:
    """The ids `engaged` is true of, kept for the battle version (a caller asking of
    many units tests them against this set, without a call per unit)."""
    ids = battle.peek("featherstone.engaged")
    if ids is None:                                 # (no closure built when it is there)
        ids = battle.cached("featherstone.engaged", lambda: _engaged_ids(battle))
    return ids


def _engaged_ids(battle) -> frozenset:
    # the chargers view is kept from the change journal: no scan of every unit's marks
    # in each battle version (it was ~2.5% of a turn)
    chargers = common.chargers(battle)
    return frozenset((*chargers, *chargers.values()))
