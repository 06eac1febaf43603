"""Issue 17, eighth session: a move's plan remembered for the battle version
(`moves.planned`), which the check of a move and then its resolution ask in turn, is
the plan computed afresh."""
from __future__ import annotations

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager.errors import IllegalAction
from manager.rules.featherstone import moves

FS = "featherstone"


def outcome(f):
    try:
        return f()
    except IllegalAction as e:
        return ("refused", str(e))


def test_planned_moves_are_the_plans_in_play(monkeypatch):
    """Every plan asked in 3 Austerlitz turns (the commander's checks of its trial moves,
    the session's check, the resolution): the plan computed afresh, or its refusal; and
    most resolutions find the check's plan kept."""
    asked, real = [], moves.planned

    def both(battle, unit, to, facing, formation=""):
        got = outcome(lambda: real(battle, unit, to, facing, formation))
        assert got == outcome(lambda: moves.plan(battle, unit, to, facing, formation))
        asked.append(got)
        return real(battle, unit, to, facing, formation)
    monkeypatch.setattr(moves, "planned", both)
    computed, plan = [], moves.plan

    def counting(*args):
        computed.append(args)
        return plan(*args)
    monkeypatch.setattr(moves, "plan", counting)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    kept = len(asked) - (len(computed) - len(asked))      # the tests' own plans asked
    assert len(asked) > 200 and kept > 100, (len(asked), kept)


def test_a_plan_is_kept_for_its_own_move_only():
    """The same unit and version: another end, facing or formation is planned afresh,
    and a change of the battle forgets every plan."""
    b = build_table([piece("a", "blue", "line_infantry", (20, 20)),
                     piece("e", "red", "line_infantry", (20, 5))], FS, width=60, height=40)
    u = b.units["a"]
    asks = [((20, 24), 0, ""), ((20, 24), 90, ""), ((20, 26), 0, ""), ((20, 24), 0, "column"),
            ((20, 20), 180, "")]
    for to, facing, form in asks:
        assert outcome(lambda: moves.planned(b, u, to, facing, form)) == \
            outcome(lambda: moves.plan(b, u, to, facing, form))
    assert moves.planned(b, u, (20, 24), 90) != moves.planned(b, u, (20, 24), 0)
    b.mark_unit("a", allow=0.5)                 # a new version, a new record
    v = b.units["a"]
    assert moves.planned(b, v, (20, 24), 0) == moves.plan(b, v, (20, 24), 0)
