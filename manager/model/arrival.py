"""A reinforcement still off the table: what arrives, when, and where it comes on.

The units (and the command's leader) it holds are out of the battle's `units`,
`leaders` and hierarchy until the arrival is brought on, so no rule of any ruleset can
count, shoot at or move them before then.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Arrival:
    id: str                       # the command or unit id the scenario set the arrival on
    scope: str                    # "command" (they come together) or "unit"
    side: str
    turn: int                     # the first turn they may come
    roll: int = 0                 # 0: on that turn; else from that turn on a D6 >= roll
    name: str = ""                # where they come on: "the Raigern road"
    entry: tuple = ()             # ((x, y),) a point, or ((x0, y0), (x1, y1)) a stretch; inches
    delay_if_blocked: bool = False
    units: tuple = ()             # ((command id, Unit), ...) in the scenario's order
    leader: tuple = ()            # (command id, Leader): the command's leader, or ()
    due: int = 0                  # the turn they come now: `turn`, pushed on by failed rolls
                                  # and blocked entries (0 until the first look)
    rolled: bool = False          # their roll succeeded (a blocked, delayed arrival keeps it)

    def holds(self, ref: str) -> bool:
        return (ref == self.id or any(u.id == ref for _, u in self.units)
                or bool(self.leader) and self.leader[1].id == ref)

    @property
    def next_turn(self) -> int:
        return max(self.turn, self.due)

    def describe(self) -> str:
        """'arriving turn 3 at the Raigern road' (or 'from turn 3 on a 4+ ...')."""
        where = f" at {self.name}" if self.name else ""
        if self.roll and not self.rolled:
            return f"arriving from turn {self.next_turn} on a {self.roll}+{where}"
        return f"arriving turn {self.next_turn}{where}"
