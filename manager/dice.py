"""Dice as a service with two sources, and the record of every roll.

The seeded source is a pure function of (battle seed, roll sequence number), so the
whole dice state is one integer kept in the battle: undo rewinds it, and nobody can
undo to re-roll. The manual source asks the umpire for the faces on the table. The
replay source feeds recorded faces back and checks that they are asked for the same
purpose, so a replay that drifts from its log fails loudly instead of silently.
"""
from __future__ import annotations

import random
import _random
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from .errors import DiceError


@dataclass(frozen=True, slots=True)
class DiceRequest:
    seq: int
    count: int
    sides: int
    purpose: str

    @property
    def expression(self) -> str:
        return f"{self.count}D{self.sides}" if self.count != 1 else f"D{self.sides}"


@dataclass(frozen=True, slots=True)
class DiceRoll:
    seq: int
    purpose: str
    expression: str
    faces: tuple[int, ...]
    source: str = "seeded"

    @property
    def result(self) -> int:
        return sum(self.faces)

    def to_dict(self) -> dict:
        return {"seq": self.seq, "purpose": self.purpose, "expression": self.expression,
                "faces": list(self.faces), "result": self.result, "source": self.source}

    @classmethod
    def from_dict(cls, d: dict) -> "DiceRoll":
        return cls(int(d["seq"]), str(d["purpose"]), str(d["expression"]),
                   tuple(int(f) for f in d["faces"]), str(d.get("source", "seeded")))


def check_faces(request: DiceRequest, faces: Sequence[int]) -> tuple[int, ...]:
    """Refuse faces that dice of this kind cannot show, with a message for the umpire."""
    try:
        faces = tuple(int(f) for f in faces)
    except (TypeError, ValueError):
        raise DiceError(f"{request.purpose}: faces must be whole numbers, got {faces!r}") from None
    if len(faces) != request.count:
        raise DiceError(f"{request.purpose}: {request.expression} needs {request.count} "
                        f"face{'s' if request.count != 1 else ''}, got {len(faces)}")
    bad = [f for f in faces if not 1 <= f <= request.sides]
    if bad:
        raise DiceError(f"{request.purpose}: a D{request.sides} shows 1 to {request.sides}, "
                        f"not {', '.join(map(str, bad))}")
    return faces


class DiceSource(Protocol):
    name: str

    def faces(self, request: DiceRequest) -> tuple[int, ...]: ...


class SeededSource:
    """Software dice: faces depend only on the battle seed and the roll's sequence number."""
    name = "seeded"

    def __init__(self, seed: int):
        self.seed = int(seed)

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        return seeded_faces(self.seed * 1_000_003 + request.seq, request.count, request.sides)


def seeded_faces(seed: int, count: int, sides: int) -> tuple[int, ...]:
    """`count` faces of random.Random(seed).randint(1, sides), as that call gives them:
    the generator seeded by C (Random.__init__ and seed() only check the seed's type in
    Python first) and each face drawn as randint draws it (randrange's width `sides`,
    then getrandbits of its bit length until one falls below it), without the Python
    frames of randint and randrange. Every roll of every battle comes through here."""
    if type(sides) is not int or sides < 1 or type(seed) is not int:
        rng = random.Random(seed)               # what randint would refuse, it refuses
        return tuple(rng.randint(1, sides) for _ in range(count))
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    bits, k = rng.getrandbits, sides.bit_length()
    out = []
    for _ in range(count):
        r = bits(k)
        while r >= sides:
            r = bits(k)
        out.append(1 + r)
    return tuple(out)


_new_random = random.Random.__new__
_seed_random = _random.Random.seed                # the C seeding random.Random.seed ends in


class ManualSource:
    """The umpire types what the dice on the table showed; `ask` returns the faces."""
    name = "manual"

    def __init__(self, ask: Callable[[DiceRequest], Sequence[int]]):
        self.ask = ask

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        return check_faces(request, self.ask(request))


class QueueSource:
    """Manual dice given in advance, in order: for tests, the CLI and table-side entry."""
    name = "manual"

    def __init__(self, faces: Sequence[int] = ()):
        self.pending = list(faces)

    def push(self, *faces: int) -> None:
        self.pending.extend(faces)

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        if len(self.pending) < request.count:
            raise DiceError(f"{request.purpose}: {request.expression} needs {request.count} "
                            f"face(s); only {len(self.pending)} were entered")
        taken, self.pending = self.pending[:request.count], self.pending[request.count:]
        return check_faces(request, taken)


class ReplaySource:
    """Feeds the rolls recorded in a log entry back, checking each is asked for again."""
    name = "replay"

    def __init__(self, rolls: Sequence[DiceRoll]):
        self.rolls = list(rolls)
        self.index = 0

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        if self.index >= len(self.rolls):
            raise DiceError(f"replay asked for an unrecorded roll: {request.purpose}")
        roll = self.rolls[self.index]
        self.index += 1
        self.last_source = roll.source
        if roll.expression != request.expression or roll.seq != request.seq:
            raise DiceError(f"replay out of step at roll {request.seq}: the log has "
                            f"{roll.expression} for {roll.purpose!r}, the rules asked "
                            f"{request.expression} for {request.purpose!r}")
        return check_faces(request, roll.faces)      # a stored face out of range is refused

    def exhausted(self) -> bool:
        return self.index == len(self.rolls)


class Dice:
    """The service rules call. Numbers rolls from the battle's counter and records them."""

    def __init__(self, source: DiceSource, next_seq: int):
        self.source = source
        self.next_seq = next_seq
        self.rolls: list[DiceRoll] = []

    def roll(self, count: int, purpose: str, sides: int = 6) -> DiceRoll:
        if count <= 0:
            raise DiceError(f"{purpose}: nothing to roll ({count} dice)")
        request = DiceRequest(self.next_seq, count, sides, purpose)
        faces = self.source.faces(request)
        # a replayed roll keeps the source it was first rolled with (seeded or manual)
        source = getattr(self.source, "last_source", None) or self.source.name
        roll = DiceRoll(request.seq, purpose, request.expression, tuple(faces), source)
        self.next_seq += 1
        self.rolls.append(roll)
        return roll

    def d6(self, purpose: str) -> int:
        return self.roll(1, purpose).faces[0]
