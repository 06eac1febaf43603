"""Dice: seeded and reproducible, manual with refusals, replay in step."""
import pytest

from manager.dice import Dice, DiceRequest, ManualSource, QueueSource, ReplaySource, SeededSource
from manager.errors import DiceError


def test_seeded_faces_depend_only_on_seed_and_sequence():
    a = Dice(SeededSource(42), 1)
    first = [a.roll(3, "x").faces for _ in range(5)]
    b = Dice(SeededSource(42), 3)
    assert b.roll(3, "y").faces == first[2], "roll 3 is the same whatever came before"
    other = Dice(SeededSource(43), 1)
    assert [other.roll(3, "x").faces for _ in range(5)] != first, "another seed, other dice"
    assert all(1 <= f <= 6 for faces in first for f in faces)


def test_every_roll_is_recorded_with_its_purpose():
    d = Dice(QueueSource([2, 5, 6]), 7)
    r = d.roll(3, "fire: 2nd Line at Grenadiers")
    assert (r.seq, r.expression, r.faces, r.result, r.source) == (7, "3D6", (2, 5, 6), 13, "manual")
    assert d.next_seq == 8 and d.rolls == [r]


@pytest.mark.parametrize("faces,message", [
    ([1, 2], "needs 3 faces, got 2"), ([1, 2, 7], "not 7"), ([0, 2, 3], "not 0"),
    (["a", 2, 3], "whole numbers"),
])
def test_manual_faces_that_dice_cannot_show_are_refused(faces, message):
    src = ManualSource(lambda req: faces)
    with pytest.raises(DiceError, match=message):
        src.faces(DiceRequest(1, 3, 6, "fire"))


def test_replay_refuses_a_roll_out_of_step():
    d = Dice(QueueSource([4]), 1)
    rec = d.roll(1, "rally")
    replay = Dice(ReplaySource([rec]), 1)
    with pytest.raises(DiceError, match="out of step"):
        replay.roll(2, "fire")
