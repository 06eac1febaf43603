"""Plans: orders that fire on a condition, not only on a turn.

A command's `orders` may carry a `plan`: later orders, each with a `when`. At the start
of its side's move (the ruleset's `arrival_phase`), a step whose condition holds is
made the command's orders by `FollowPlan`, an action through the Session like any
other, so the change is in the log ("4th Corps: the Pratzen is clear of the Allies:
attack") and the automatic commander reads nothing but the battle. Steps are taken in
order: once one fires, those before it are dropped.

Conditions (all keys given must hold):
  turn = N                        from turn N on
  area = [[c0, r0], [c1, r1]]     a rectangle (boxes on a grid, inches otherwise), with
    clear_of = "side"             no more than `at_most` (default 0) of that side's units in it
    enemy_within = D              an enemy unit within D (boxes / inches) of it
  enemy_within = D, of = "cmd"    an enemy unit within D of any unit of that command
  shaken = "cmd"                  that command is Shaken
  arrived = "cmd"                 that command has come on the table
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from .actions import Action, need, register
from .events import _event
from .model.forces import evolve

PlanFollowed = _event("PlanFollowed", "{command}: {why}: {kind}", command=str, why=str, kind=str)

WHEN_KEYS = ("turn", "area", "clear_of", "at_most", "enemy_within", "of", "shaken", "arrived")
STEP_KEYS = ("when", "kind", "objective", "release_turn", "facing", "engage")


def _scale(battle) -> float:
    return battle.battlefield.grid or 1.0


def _rect(battle, area) -> tuple:
    g = battle.battlefield.grid
    (c0, r0), (c1, r1) = area
    if g:                           # boxes, both corners included
        return (min(c0, c1) * g, min(r0, r1) * g, (max(c0, c1) + 1) * g, (max(r0, r1) + 1) * g)
    return (min(c0, c1), min(r0, r1), max(c0, c1), max(r0, r1))


def _inside(rect, pos) -> bool:
    return rect[0] <= pos[0] <= rect[2] and rect[1] <= pos[1] <= rect[3]


def _to_rect(rect, pos) -> float:
    dx = max(rect[0] - pos[0], 0, pos[0] - rect[2])
    dy = max(rect[1] - pos[1], 0, pos[1] - rect[3])
    return math.hypot(dx, dy)


def why_holds(battle, side: str, when: dict) -> str:
    """Why the condition holds now (a few words for the log), or '' when it does not."""
    st, h = battle.state, battle.hierarchy
    said = []
    named = [when[k] for k in ("shaken", "arrived", "of") if k in when]
    if any(c not in battle.commands for c in named) or (
            "clear_of" in when and when["clear_of"] not in battle.sides):
        return ""                   # a plan carried into another battle (the library)
    if "turn" in when:
        if st.turn < when["turn"]:
            return ""
        said.append(f"turn {when['turn']}")
    if "shaken" in when:
        if when["shaken"] not in st.shaken:
            return ""
        said.append(f"{battle.commands[when['shaken']].name} is Shaken")
    if "arrived" in when:
        if not h.units_of(when["arrived"]):
            return ""
        said.append(f"{battle.commands[when['arrived']].name} has arrived")
    scale = _scale(battle)
    if "area" in when:
        rect = _rect(battle, when["area"])
        if "clear_of" in when:
            n = sum(1 for u in battle.live_units(when["clear_of"]) if _inside(rect, u.pos))
            if n > when.get("at_most", 0):
                return ""
            said.append(f"the ground is clear of the {battle.sides[when['clear_of']].name}")
        if "enemy_within" in when:
            reach = when["enemy_within"] * scale
            if not any(_to_rect(rect, e.pos) <= reach for e in battle.live_units()
                       if e.side != side):
                return ""
            said.append("the enemy is close")
    elif "enemy_within" in when:
        reach = when["enemy_within"] * scale
        own = [battle.units[u].pos for u in h.units_of(when["of"])
               if not battle.units[u].eliminated]
        foes = [e.pos for e in battle.live_units() if e.side != side]
        if not any(math.dist(p, q) <= reach for p in own for q in foes):
            return ""
        said.append(f"the enemy is close to {battle.commands[when['of']].name}")
    return ", ".join(said) or "as planned"


def ready_step(battle, cid: str) -> tuple[int, str]:
    """(index of the first plan step whose condition holds, why), or (-1, '')."""
    cmd = battle.commands[cid]
    for i, step in enumerate((cmd.orders or {}).get("plan", ())):
        why = why_holds(battle, cmd.side, step.get("when", {}))
        if why:
            return i, why
    return -1, ""


def plans_due(battle, ruleset) -> list[str]:
    """Commands of the side to move whose plan has a step ready, at the start of its move."""
    st = battle.state
    if not st.started or st.over or st.phase != ruleset.arrival_phase:
        return []
    return [c for c in battle.hierarchy.commands_of(st.active)
            if (battle.commands[c].orders or {}).get("plan") and c not in st.shaken
            and ready_step(battle, c)[0] >= 0]


@register
@dataclass(frozen=True)
class FollowPlan(Action):
    """Make the command's next ready plan step its orders (the commander's decision)."""
    category: ClassVar[str] = "game"
    command: str

    def validate(self, battle, ruleset) -> None:
        need(battle.state.started, "the battle has not started: start it first")
        need(self.command in battle.commands, f"there is no command {self.command!r}")
        cmd = battle.commands[self.command]
        need(battle.state.active == cmd.side, f"{cmd.name} takes its orders in its own turn")
        need(ready_step(battle, self.command)[0] >= 0,
             f"{cmd.name}: no step of its plan is ready")

    def apply(self, battle, ruleset, dice) -> list:
        cmd = battle.commands[self.command]
        i, why = ready_step(battle, self.command)
        plan = list(cmd.orders["plan"])
        step = {k: v for k, v in plan[i].items() if k != "when"}
        if plan[i + 1:]:
            step["plan"] = plan[i + 1:]
        battle.put_command(evolve(cmd, orders=step))
        return [PlanFollowed(cmd.name, why, step.get("kind", "attack"))]


def check_plan(plan, sides, commands, fail) -> None:
    """The ids a plan names exist; `fail(where, problem)` reports the first that does not."""
    for i, step in enumerate(plan):
        when = step.get("when", {})
        if "clear_of" in when and when["clear_of"] not in sides:
            fail(f"plan[{i}].when.clear_of", f"expected a side id ({', '.join(sides)})")
        for key in ("of", "shaken", "arrived"):
            if key in when and when[key] not in commands:
                fail(f"plan[{i}].when.{key}", f"expected a command id, got {when[key]!r}")
        if "clear_of" in when and "area" not in when:
            fail(f"plan[{i}].when.clear_of", "needs an area = [[c0, r0], [c1, r1]]")
        if "enemy_within" in when and "area" not in when and "of" not in when:
            fail(f"plan[{i}].when.enemy_within", "needs an area or of = \"command id\"")
