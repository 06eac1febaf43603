"""The wire format: every field checked, hostile input refused with a ProtocolError."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manager.net.protocol import (MAX_MESSAGE, ProtocolError, RateLimit, decode, entry_digest,
                                  message)

MOVE = {"action": "MoveUnit", "unit": "guard-1", "to": [3.5, 4.5], "facing": 90,
        "formation": ""}


def test_an_act_is_rebuilt_through_the_action_registry():
    msg = decode(message("act", id=1, index=7, action=MOVE, dice=[6, 1]))
    assert msg["action"].verb == "MoveUnit" and msg["action"].to == (3.5, 4.5)
    assert msg["index"] == 7 and msg["dice"] == [6, 1]


@pytest.mark.parametrize("raw, why", [
    (b"\xff\xfe", "UTF-8"),
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "act"}', "version None"),
    ('{"v": 2, "type": "act"}', "version 2"),
    ('{"v": 1}', "needs a 'type'"),
    ('{"v": 1, "type": "shell"}', "unknown message type"),
    ('{"v": 1, "type": "done", "turn": 1, "side": "a"}', "missing field 'phase'"),
    ('{"v": 1, "type": "done", "turn": -1, "side": "a", "phase": "m"}', "whole number"),
    ('{"v": 1, "type": "done", "turn": 1.5, "side": "a", "phase": "m"}', "whole number"),
    ('{"v": 1, "type": "done", "turn": true, "side": "a", "phase": "m"}', "whole number"),
    ('{"v": 1, "type": "done", "turn": 1, "side": "a", "phase": "m", "x": 1}', "unexpected"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "__import__"}}',
     "unknown action"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "MoveUnit", '
     '"unit": "u", "to": [1, 2], "facing": 0, "exec": "rm -rf /"}}', "unexpected field"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "MoveUnit", '
     '"unit": {"__reduce__": 1}, "to": [1, 2], "facing": 0}}', "holds an object"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": {"action": "PlaceUnit"}}',
     "only the host edits"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": "MoveUnit"}', "an object"),
    ('{"v": 1, "type": "act", "id": 1, "index": 0, "action": {}, "dice": [0]}', "dice faces"),
    ('{"v": 1, "type": "done", "turn": NaN, "side": "a", "phase": "m"}', "not JSON"),
    ('{"v": 1, "type": "hello", "code": "x", "laptop": "l", "commands": [""]}', "names"),
    ('{"v": 1, "type": "hello", "code": "' + "x" * 300 + '", "laptop": "l", "commands": []}',
     "at most 200"),
])
def test_malformed_and_hostile_messages_are_refused_with_the_reason(raw, why):
    with pytest.raises(ProtocolError, match=why):
        decode(raw)


def test_an_editor_action_is_never_taken_from_a_laptop():
    from manager.actions import REGISTRY
    edits = [name for name, cls in REGISTRY.items() if cls.category != "game"]
    assert edits
    with pytest.raises(ProtocolError, match="only the host edits"):
        decode(message("act", id=1, index=0, action={"action": edits[0]}))


def test_deep_nesting_and_oversize_are_refused():
    deep = '{"v": 1, "type": "leave", "x": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(ProtocolError, match="nested|too large"):
        decode(deep)
    with pytest.raises(ProtocolError, match="too large"):
        decode(message("leave", pad="x" * MAX_MESSAGE))
    with pytest.raises(ProtocolError, match="deeper than"):
        decode('{"v": 1, "type": "leave", "x": ' + "[" * 30 + "]" * 30 + "}")


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda kids: st.lists(kids, max_size=4) |
                    st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=20),
       st.sampled_from(["act", "hello", "done", "undo", "claim", "release", "leave", "x"]))
def test_any_json_is_either_a_valid_message_or_a_protocol_error(junk, kind):
    fields = junk if isinstance(junk, dict) else {"action": junk}
    try:
        raw = json.dumps({"v": 1, "type": kind, **fields})
    except ValueError:
        return
    try:
        msg = decode(raw)
    except ProtocolError:
        return
    assert msg["type"] == kind


def test_the_rate_limit_is_a_token_bucket():
    now = [0.0]
    limit = RateLimit(rate=10, burst=5, clock=lambda: now[0])
    assert [limit.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    now[0] += 0.3                                  # three more tokens
    assert [limit.allow() for _ in range(4)] == [True] * 3 + [False]
    assert limit.refused == 3 and limit.run == 1


def test_a_laptop_that_keeps_flooding_is_told_from_one_that_sent_a_burst():
    """100 messages a second against 20 allowed: the refusals pile up in the window even
    though a token refills between them; a burst every ten seconds never does."""
    now = [0.0]
    flood = RateLimit(rate=20, burst=40, clock=lambda: now[0])
    for step in range(1000):                       # ten seconds at 100 a second
        now[0] = step / 100
        flood.allow()
        if flood.flooding(400):
            break
    assert flood.flooding(400) and now[0] < 7      # 40 + 80 a second refused: ~5.5 s
    now[0] = 0.0
    burst = RateLimit(rate=20, burst=40, clock=lambda: now[0])
    for second in range(0, 120, 10):               # 100 at once, every ten seconds
        now[0] = second
        assert [burst.allow() for _ in range(100)].count(False) == 60
        assert not burst.flooding(400)


def test_the_entry_digest_depends_on_action_and_dice():
    e = {"index": 3, "action": MOVE, "rolls": [{"seq": 1, "faces": [4]}], "events": ["x"]}
    same = dict(e, events=["other wording"])
    other = dict(e, rolls=[{"seq": 1, "faces": [5]}])
    assert entry_digest(e) == entry_digest(same) != entry_digest(other)
