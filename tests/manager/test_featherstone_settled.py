"""Issue 17, twelfth session: Featherstone's settle (Shaken commands, army morale) skips
settle_army when a call that changed nothing was made with the very same inputs; it
must do what the plain settle_army does at every call, in play and on the edges (a
command reaching half its units gone, the army conceding, the same count of units gone
but other units)."""
from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from play_checks import ROOT
from manager.autopilot import Autopilot
from manager.rules.army_morale import settle_army
from manager.rules.featherstone import losses, settled
from manager.session import Session


def austerlitz(turns: int = 3, **options):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=turns))
    if options:
        b = s.battle
        b.set_info(replace(b.info, options={**b.info.options, **options}))
    ap = Autopilot(s)
    ap.step()                                        # the battle starts
    return s, ap


def outcome(battle, events) -> tuple:
    st = battle.state
    return ([type(e).__name__ + repr(vars(e)) for e in events], st.shaken, st.over,
            st.winner, st.reason)


def plain(battle, rule) -> tuple:
    c = battle.copy()
    events: list = []
    settle_army(c, events, rule)
    return outcome(c, events)


def settle_checked(battle) -> tuple:
    """losses.settle on the battle, and the plain settle_army on a copy taken before:
    (the settle's outcome, the plain one's)."""
    rule = battle.option("army_morale")
    want = plain(battle, rule)
    events: list = []
    losses.settle(battle, events)
    return outcome(battle, events), want


def test_settle_is_the_plain_settle_army_in_play(monkeypatch):
    """Every settle of 4 Austerlitz turns (army morale on: half the commands) against
    the plain settle_army on a copy: the same events and turn state; most are skipped."""
    calls, ran = [], []
    real_kept, real_army = settled.settle_kept, settled.settle_army

    def spy(battle, events, rule):
        want = plain(battle, rule)
        n = len(events)
        real_kept(battle, events, rule)
        calls.append((outcome(battle, events[n:]), want))

    monkeypatch.setattr(losses, "settle_kept", spy)
    monkeypatch.setattr(settled, "settle_army", lambda *a: (ran.append(1), real_army(*a)))
    s, ap = austerlitz(4, army_morale="half_commands")
    while not s.battle.state.over and s.battle.state.turn <= 4 and ap.step():
        pass
    assert len(calls) > 100
    assert all(got == want for got, want in calls)
    assert len(ran) < len(calls) / 3                 # the skip is taken


def command_sizes(battle) -> dict:
    h = battle.hierarchy
    return {c: list(h.units_of(c)) for side in battle.sides for c in h.commands_of(side)
            if h.units_of(c)}


def test_a_command_reaching_half_gone_is_shaken_after_quiet_calls():
    s, _ = austerlitz()
    b = s.battle
    assert settle_checked(b)[0] == settle_checked(b)[1]     # quiet, noted
    cid, units = min(command_sizes(b).items(), key=lambda kv: len(kv[1]))
    for uid in units[:(len(units) + 1) // 2]:
        b.update_unit(uid, eliminated=True)
    got, want = settle_checked(b)
    assert got == want and cid in got[1] and got[0]          # Shaken, with its event
    got, want = settle_checked(b)
    assert got == want and not got[0]                        # then quiet again


def test_the_same_count_gone_but_other_units():
    """One command's units gone below half (quiet, noted), then put back and as many of
    a smaller command's gone, reaching half: the count gone is the same, the answer not."""
    s, _ = austerlitz()
    b = s.battle
    sizes = sorted(command_sizes(b).items(), key=lambda kv: len(kv[1]))
    small = sizes[0]
    k = (len(small[1]) + 1) // 2
    big = next(kv for kv in sizes if len(kv[1]) > 2 * k)
    settle_checked(b)                           # (the view of units gone is made here)
    for uid in big[1][:k]:
        b.update_unit(uid, eliminated=True)
    got, want = settle_checked(b)
    assert got == want and not got[0]
    for uid in big[1][:k]:
        b.update_unit(uid, eliminated=False)
    for uid in small[1][:k]:
        b.update_unit(uid, eliminated=True)
    got, want = settle_checked(b)
    assert got == want and small[0] in got[1]


@pytest.mark.parametrize("rule", ["half_commands", "all_commands", "off"])
def test_the_army_concedes_as_the_plain_rule_says(rule):
    """Commands of one side gone one by one, a settle after each (with quiet repeats):
    the same Shaken commands, and the army's concession (or none, with the rule off)."""
    s, _ = austerlitz(army_morale=rule)
    b = s.battle
    side = next(iter(b.sides))
    h = b.hierarchy
    for cid in h.commands_of(side):
        for uid in h.units_of(cid):
            b.update_unit(uid, eliminated=True)
        for _ in range(2):
            got, want = settle_checked(b)
            assert got == want
        if b.state.over:
            break
    assert b.state.over == (rule != "off")


def test_a_copy_never_reads_another_battles_quiet_call():
    """The store is shared with trial copies: a copy's change after the battle's quiet
    call is its own (its view is another), and the battle's next call is its own too."""
    s, _ = austerlitz()
    b = s.battle
    settle_checked(b)
    c = b.copy()
    cid, units = min(command_sizes(c).items(), key=lambda kv: len(kv[1]))
    for uid in units:
        c.update_unit(uid, eliminated=True)
    got, want = settle_checked(c)
    assert got == want and cid in got[1]
    got, want = settle_checked(b)
    assert got == want and cid not in got[1]


def test_a_copys_quiet_call_with_the_same_stamp_is_not_the_battles():
    """A copy's quiet call noted (k units of a large command gone: its view's stamp k),
    then the battle's own with k units of the smallest command gone (its stamp k too),
    which shakes it: the views differ, so the battle's call is not skipped."""
    s, _ = austerlitz()
    b = s.battle
    sizes = sorted(command_sizes(b).items(), key=lambda kv: len(kv[1]))
    small = sizes[0]
    k = (len(small[1]) + 1) // 2
    big = next(kv for kv in sizes if len(kv[1]) > 2 * k)
    settle_checked(b)
    c = b.copy()
    for uid in big[1][:k]:
        c.update_unit(uid, eliminated=True)
    got, want = settle_checked(c)
    assert got == want and not got[0]
    for uid in small[1][:k]:
        b.update_unit(uid, eliminated=True)
    got, want = settle_checked(b)
    assert got == want and small[0] in got[1]
