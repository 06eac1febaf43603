"""The turn runner's order lists (ui/docks/order_menu.py): every choice offered is legal,
every legal order is offered, and in a melee phase the melee of the selected piece is
the one picked, in the list and in the dock on the map's click."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from conftest import at
from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.game_actions import Charge, Fire, ResolveMelee
from manager.scenario_io import load_scenario
from manager.session import Session
from ui.docks.order_menu import order_menu

AUSTERLITZ = "scenarios/austerlitz.toml"


class _Doc:
    """What order_menu asks of the open document: the ruleset and `check`."""
    def __init__(self, session):
        self.session, self.ruleset = session, session.ruleset

    def check(self, action) -> str:
        try:
            self.session.check(action)
            return ""
        except IllegalAction as exc:
            return str(exc)


def _play_until(session, pilot, wanted, steps=4000):
    for _ in range(steps):
        if wanted(session.battle):
            return
        pilot.step()
    pytest.fail("the position looked for never came")


def _melees_at_least(rs, n):
    return lambda b: (b.state.started and "ResolveMelee" in rs.phase(b.state.phase).actions
                      and len(rs.melees(b)) >= n)


@pytest.fixture(scope="module")
def austerlitz():
    s = Session(load_scenario(AUSTERLITZ, "morschauser"))
    return s, Autopilot(s)


def test_fire_and_charge_lists_are_exactly_the_legal_orders(austerlitz):
    s, pilot = austerlitz
    rs = s.ruleset
    _play_until(s, pilot, lambda b: b.state.turn >= 2 and "Fire" in rs.phase(b.state.phase).actions
                and any(_Doc(s).check(Fire(u.id, e.id)) == ""
                        for u in b.live_units(b.state.active)
                        for e in b.live_units(b.enemy_of(u.side))))
    b, doc = s.battle, _Doc(s)
    allowed = rs.phase(b.state.phase).actions
    looked = 0
    for u in b.live_units(b.state.active):
        menu = order_menu(doc, b, rs, [u.id])
        assert menu is not None and menu.kind == "fire" and menu.who == u.id
        offered = {ref for _, ref in menu.items}
        for e in b.live_units(b.enemy_of(u.side)):
            assert (e.id in offered) == (doc.check(Fire(u.id, e.id)) == "")
            if "Charge" in allowed:
                assert (f"charge:{e.id}" in offered) == (doc.check(Charge(u.id, e.id)) == "")
        for _, ref in menu.items:
            assert doc.check(menu.action(ref)) == ""
        looked += bool(offered)
    assert looked                       # some unit had a target: the lists were not all empty


def test_the_melee_of_the_selected_piece_is_picked(austerlitz):
    s, pilot = austerlitz
    rs = s.ruleset
    _play_until(s, pilot, _melees_at_least(rs, 2))
    b, doc = s.battle, _Doc(s)
    melees = rs.melees(b)
    for m in melees:
        for piece in (m.defender, m.attackers[0]):
            menu = order_menu(doc, b, rs, [piece])
            assert menu.kind == "melee" and menu.pick == m.defender
            assert [ref for _, ref in menu.items] == [x.defender for x in melees]
            assert menu.action(m.defender, ()) == ResolveMelee(m.defender, ())
    assert order_menu(doc, b, rs, []).pick is None


def test_clicking_a_piece_in_a_melee_picks_its_melee_in_the_dock(open_window, qtbot):
    w = open_window("scenarios/austerlitz.toml")
    dock, doc = w.docks["TurnDock"], w.doc
    qtbot.mouseClick(dock.start_btn, Qt.LeftButton)
    assert doc.battle.state.started
    pilot = Autopilot(doc.session, sides=set(doc.battle.sides), execute=doc.run)
    with doc.batch():
        _play_until(doc.session, pilot, _melees_at_least(doc.ruleset, 2))
    melees = doc.ruleset.melees(doc.battle)
    last = melees[-1]                   # not the first row: picking it is not the default
    u = doc.battle.units[last.attackers[0]]
    w.view.centerOn(u.x, u.y)
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert doc.selection == [u.id]
    assert dock.choices.currentItem().data(Qt.UserRole) == last.defender
    assert dock.current_action() == ResolveMelee(last.defender, ())
