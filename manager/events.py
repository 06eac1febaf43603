"""Past-tense events the engine emits, and a plain bus the UI and CLI subscribe to."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Callable


@dataclass(frozen=True)
class Event:
    def describe(self) -> str:
        return self.__class__.__name__

    def to_dict(self) -> dict:
        d = asdict(self)
        d["event"] = self.__class__.__name__
        return d


def _event(name: str, template: str, **annotations):
    """Declare an event class: its fields and the sentence the log shows for it."""
    def describe(self) -> str:
        return template.format(**{f.name: getattr(self, f.name) for f in fields(self)})
    cls = type(name, (Event,), {"__annotations__": annotations, "describe": describe})
    return dataclass(frozen=True)(cls)


# rulesets declare their own events the same way
declare_event = _event

BattleStarted = _event("BattleStarted", "The battle begins; {first} moves first", first=str)
LeaderQualityRolled = _event("LeaderQualityRolled", "{leader} is rated {quality} ({label})",
                             leader=str, quality=int, label=str)
TurnBegan = _event("TurnBegan", "Turn {turn}", turn=int)
PhaseBegan = _event("PhaseBegan", "{side}: {phase} phase", side=str, phase=str)
UnitMoved = _event("UnitMoved", "{unit} moves to {to} facing {facing}",
                   unit=str, to=tuple, facing=int, cost=float)
LeaderMoved = _event("LeaderMoved", "{leader} rides to {to}", leader=str, to=tuple)
FormationChanged = _event("FormationChanged", "{unit} forms {formation}", unit=str, formation=str)
UnitFired = _event("UnitFired", "{unit} fires at {target}: {hits} hit(s)",
                   unit=str, target=str, dice=int, hits=int)
HitsTaken = _event("HitsTaken", "{unit} takes {hits} hit(s), {left} left",
                   unit=str, hits=int, left=int, uid=str)
UnitEliminated = _event("UnitEliminated", "{unit} is eliminated", unit=str, uid=str)
UnitPlaced = _event("UnitPlaced", "{unit} is placed at {at}", unit=str, at=tuple)
UnitFellBack = _event("UnitFellBack", "{unit} falls back to {to}", unit=str, to=tuple, short=int)
FallBackOrdered = _event("FallBackOrdered", "{unit} falls back {boxes} boxes: move it on the table",
                         unit=str, boxes=int)
UnitRetreated = _event("UnitRetreated", "{unit} retreats to {to}", unit=str, to=tuple)
MeleeResolved = _event("MeleeResolved",
                       "Melee at {defender}: attackers {attacker_hits}, defenders {defender_hits}; {outcome}",
                       defender=str, attackers=tuple, defenders=tuple, attacker_hits=int,
                       defender_hits=int, outcome=str)
UnitRallied = _event("UnitRallied", "{leader} rallies {unit}: +{regained} hit(s)",
                     leader=str, unit=str, regained=int)
LeaderHit = _event("LeaderHit", "{leader} is hit ({left} left)", leader=str, left=int)
LeaderFell = _event("LeaderFell", "{leader} falls; his units move at half speed", leader=str)
CommandShaken = _event("CommandShaken", "{command} is Shaken", command=str)
ArmyConceded = _event("ArmyConceded", "{side} must concede: {reason}", side=str, reason=str)
BattleEnded = _event("BattleEnded", "The battle ends: {reason}", winner=object, reason=str)
ScenarioEdited = _event("ScenarioEdited", "{what}", what=str)


class EventBus:
    """Subscribers get every event of every executed, undone or redone action."""

    def __init__(self):
        self._subscribers: list[Callable] = []

    def subscribe(self, callback: Callable) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def emit(self, kind: str, payload) -> None:
        for callback in list(self._subscribers):
            callback(kind, payload)
