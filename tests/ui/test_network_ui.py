"""Several laptops in the app (issue 18): one window hosts its battle, another joins it
through File > Join battle and acts for its commands; a move made on the joined map
arrives at the host, and the host's refusals come back with their reasons.

Both windows run in one process on the app's own event loop (qasync), the host on
loopback, exactly as two laptops' windows would, with the network between them."""
from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QPushButton

from manager.game_actions import MoveUnit
from manager.net.host import Host

from conftest import DATA, DiceTyper, at, choose, drag
from joined import run, until, plain, join_through_the_dialog, log_item


def test_a_joined_window_acts_through_the_host(open_window, qtbot, loop, tmp_path, questions):
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    net = host_win.network
    assert net.host is not None, host_win.last_error and host_win.last_error.text()
    hd = net.dialog
    address, code = hd.fields["address"].text(), hd.fields["code"].text()
    assert address.startswith("127.0.0.1:") and len(code) == 6
    assert hd.fields["url"].text().startswith(f"http://{address}/")
    qtbot.mouseClick(hd.findChild(QPushButton, "copy_code"), Qt.LeftButton)
    assert QGuiApplication.clipboard().text() == code
    assert hd.findChild(QPushButton, "copy_code").text() == "Copied"
    assert f"hosting on {address}" in host_win.windowTitle()

    hdock = host_win.docks["TurnDock"]
    qtbot.mouseClick(hdock.start_btn, Qt.LeftButton)          # the host's umpire starts
    qtbot.mouseClick(hdock.next_btn, Qt.LeftButton)           # blue's move
    hb = host_win.doc.battle
    assert (hb.state.phase, hb.state.active) == ("move", "blue")

    lap_win = open_window()
    hd.grab().save(str(tmp_path / "host-dialog.png"))
    join_through_the_dialog(loop, qtbot, lap_win, address, code, "Sector A", ["b1"], tmp_path)
    doc = lap_win.doc
    run(loop, until(lambda: doc.battle.fingerprint() == hb.fingerprint(), "the same battle"))
    assert f"joined to {address} (connected)" in lap_win.windowTitle()
    assert lap_win.network.stop_action.text() == "Leave the hosted battle"
    ldock = lap_win.docks["TurnDock"]
    assert not ldock.network.isHidden()
    assert "Acting for: 1st Brigade" in plain(ldock.network)
    assert f"Joined to {address} as Sector A: connected" == plain(lap_win.docks["LogDock"].network)
    assert ldock.next_btn.text() == "Done with phase" and not ldock.auto_btn.isEnabled()
    # still to act here: the 1st Brigade's four units, not the Cavalry the host keeps
    listed = {ldock.to_act.item(i).data(Qt.UserRole) for i in range(ldock.to_act.count())}
    assert listed == {"b1-inf1", "b1-inf2", "b1-lt", "b1-art"}
    assert hdock.to_act.count() == 6
    # the host's turn runner says who is still acting in this phase
    run(loop, until(lambda: "Still acting: Sector A" in plain(hdock.network),
                    "the host to show Sector A still acting"))
    assert "Sector A: 1st Brigade (connected)" in plain(hdock.network)

    # a move dragged on the joined map arrives at the host, and comes back folded
    drag(qtbot, lap_win.view.viewport(), at(lap_win, 16.5, 19.5), at(lap_win, 22.5, 19.5))
    run(loop, until(lambda: hb.units["b1-inf1"].pos == (22.5, 19.5), "the move at the host"))
    assert host_win.doc.session.entries[-1].action.verb == "MoveUnit"
    assert host_win.scene.units["b1-inf1"].pos().x() == 22.5     # the host's map redrawn
    stack = host_win.doc.undo_stack
    assert stack.text(stack.count() - 1) == "1st Line moves to H-7 (from a laptop)"
    run(loop, until(lambda: doc.battle.units["b1-inf1"].pos == (22.5, 19.5), "the fold"))
    assert lap_win.scene.units["b1-inf1"].pos().x() == 22.5

    # a volley with the table's dice: typed on the laptop where the order is made, the
    # faces travel with the order and the host rolls nothing
    ldock.dice.setCurrentIndex(ldock.dice.findData(True))
    qtbot.mouseClick(lap_win.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(lap_win, 13.5, 28.5))
    assert lap_win.doc.selection == ["b1-art"]
    choose(qtbot, ldock.choices, "r1-inf2")
    before = hb.units["r1-inf2"].hits
    typer = DiceTyper(qtbot, [5, 5, 2])
    qtbot.mouseClick(ldock.resolve_btn, Qt.LeftButton)
    typer.stop()
    assert typer.asked == [("fire: Foot Battery at Red Line 2", (5, 5, 2))]
    run(loop, until(lambda: hb.units["r1-inf2"].hits == before - 2, "the volley at the host"))
    roll = host_win.doc.session.entries[-1].rolls[0]
    assert (roll.faces, roll.source) == ((5, 5, 2), "manual")
    run(loop, until(lambda: doc.battle.units["r1-inf2"].hits == before - 2, "the volley folded"))
    ldock.dice.setCurrentIndex(ldock.dice.findData(False))

    # a unit of a command this laptop did not claim: refused here, before anything travels
    head = len(host_win.doc.session.entries)
    drag(qtbot, lap_win.view.viewport(), at(lap_win, 13.5, 37.5), at(lap_win, 19.5, 37.5))
    assert "Cavalry" in lap_win.statusBar().currentMessage()
    assert lap_win.statusBar().currentMessage().startswith("Refused")
    assert len(host_win.doc.session.entries) == head

    # the host's umpire moves a unit while the laptop's order for it is on its way:
    # the host refuses the laptop's order, and the laptop's umpire sees why
    host_win.doc.execute(MoveUnit("b1-inf2", (19.5, 22.5), 90))
    assert lap_win.doc.execute(MoveUnit("b1-inf2", (22.5, 22.5), 90))   # against its old head
    assert lap_win.doc.sent == ["2nd Line moves to H-8"]
    run(loop, until(lambda: lap_win.network.refusals, "the host's refusal"))
    assert hb.units["b1-inf2"].pos == (19.5, 22.5)
    assert "Refused: 2nd Line moved before your order arrived" in plain(ldock.network)
    assert "the host refused" in lap_win.statusBar().currentMessage()
    assert "Refused: Sector A: 2nd Line moved before your order arrived" in plain(hdock.network)
    run(loop, until(lambda: doc.battle.fingerprint() == hb.fingerprint(), "the re-sync"))

    # undo is the host's: the laptop asks from its log, the host's umpire agrees
    questions.answers = [QMessageBox.Yes]
    ldog = lap_win.docks["LogDock"]
    assert ldog.undo_btn.text() == "Ask host to undo to here"
    ldog.tree.setCurrentItem(log_item(ldog, 4))
    qtbot.mouseClick(ldog.undo_btn, Qt.LeftButton)
    run(loop, until(lambda: len(host_win.doc.session.entries) == 4, "the host's undo"))
    assert questions[-1][0] == "A laptop asks to undo"
    run(loop, until(lambda: len(doc.session.entries) == 4, "the laptop to follow the undo"))
    assert hb.units["b1-inf2"].pos == doc.battle.units["b1-inf2"].pos == (16.5, 22.5)
    assert host_win.doc.undo_stack.index() == 4 and host_win.doc.undo_stack.canRedo()

    # the laptop says it is done: the host ends the phase when every acting laptop has
    qtbot.mouseClick(ldock.next_btn, Qt.LeftButton)
    run(loop, until(lambda: hb.state.phase == "melee", "the host to end the phase"))
    run(loop, until(lambda: doc.battle.state.phase == "melee", "the laptop to follow"))

    lap_win.grab().save(str(tmp_path / "joined.png"))
    host_win.grab().save(str(tmp_path / "hosting.png"))

    # the host goes away (a crash, a closed lid): the joined window says it is
    # reconnecting, and is connected again when a host comes back on the same port
    run(loop, net.host.stop())
    run(loop, until(lambda: "(reconnecting)" in lap_win.windowTitle(), "reconnecting shown"))
    assert "reconnecting" in plain(ldock.network)
    back = Host(host_win.doc.session, code=code, bind="127.0.0.1",
                port=int(address.rsplit(":", 1)[1]))
    run(loop, back.start())
    run(loop, until(lambda: "(connected)" in lap_win.windowTitle(), "connected again"))
    assert lap_win.doc.battle.fingerprint() == hb.fingerprint()

    # opening another battle in the joined window leaves the host
    assert lap_win.open_path(DATA / "skirmish.toml")
    assert not lap_win.doc.remote and "joined" not in lap_win.windowTitle()
    run(loop, until(lambda: lap_win.network.laptop is None and not any(
        s.connected for s in back.seats.values()), "the laptop to leave"))
    run(loop, back.stop())
    run(loop, net.stop())


def test_a_wrong_code_is_refused_with_the_reason(open_window, qtbot, loop):
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    address = host_win.network.dialog.fields["address"].text()
    lap_win = open_window()
    lap_win.network.join_action.trigger()
    dialog = lap_win.network.dialog
    qtbot.keyClicks(dialog.address, address)
    qtbot.keyClicks(dialog.code, "WRONG1")
    qtbot.mouseClick(dialog.connect_btn, Qt.LeftButton)
    run(loop, until(lambda: "Refused" in dialog.status.text(), "the refusal"))
    assert "wrong join code" in dialog.status.text()
    assert dialog.connect_btn.isEnabled() and not lap_win.doc.remote
    dialog.reject()
    stop = host_win.network.stop_action                   # File > Stop hosting
    assert stop.isEnabled() and stop.text() == "Stop hosting"
    stop.trigger()
    run(loop, until(lambda: not stop.isEnabled(), "hosting to stop"))
    assert host_win.network.host is None and "hosting" not in host_win.windowTitle()


def test_the_app_runs_qt_and_asyncio_on_one_loop(qapp):
    """`berthier` runs Qt's event loop as asyncio's (qasync): a coroutine scheduled from
    a Qt timer runs inside the app, and quitting the app ends the loop with exit code 0."""
    import qasync

    from ui.app import run_loop
    seen = {}

    async def probe():
        await asyncio.sleep(0.01)
        seen["loop"] = asyncio.get_running_loop()
        qapp.quit()

    QTimer.singleShot(0, lambda: asyncio.ensure_future(probe()))
    QTimer.singleShot(20000, qapp.quit)                    # a hung loop fails, not hangs
    assert run_loop(qapp) == 0
    assert isinstance(seen.get("loop"), qasync.QEventLoop), "the coroutine never ran"


def test_the_join_dialog_lists_hosts_found_on_the_network(open_window, qtbot, loop):
    from manager.net.discovery import multicast_works
    reason = multicast_works("127.0.0.1")
    if reason is not None:
        pytest.skip(f"discovery needs multicast to come back on this machine: {reason}")
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    address = host_win.network.dialog.fields["address"].text()
    run(loop, until(lambda: host_win.network.advertiser is not None, "the announcement"))
    assert "Announced on the local network" in host_win.network.dialog.announced.text()
    lap_win = open_window()
    lap_win.network.join_action.trigger()
    dialog = lap_win.network.dialog
    found = lambda: [dialog.hosts.item(i) for i in range(dialog.hosts.count())   # noqa: E731
                     if dialog.hosts.item(i).data(Qt.UserRole) == address]
    run(loop, until(found, "the host in the Join dialog's list"))
    item = found()[0]
    assert "Skirmish at the Mill" in item.text() and "Morschauser" in item.text()
    assert "not started" in item.text()
    qtbot.mouseClick(host_win.docks["TurnDock"].start_btn, Qt.LeftButton)  # the turn moves:
    run(loop, until(lambda: found() and "turn 1" in found()[0].text(), "the new turn listed"))
    item = found()[0]
    dialog.hosts.setCurrentItem(item)
    assert dialog.address.text() == address
    dialog.reject()
    run(loop, until(lambda: lap_win.network._watcher is None, "the browser to stop"))
    run(loop, host_win.network.stop())


def test_a_joined_window_shows_a_refused_rejoin_with_the_reason(open_window, qtbot, loop):
    """The host comes back with another code (restarted without its battle file): the
    laptop's rejoin is refused, and the window says so, with the host's reason."""
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    address = host_win.network.dialog.fields["address"].text()
    code = host_win.network.dialog.fields["code"].text()
    lap_win = open_window()
    join_through_the_dialog(loop, qtbot, lap_win, address, code, "Sector B", ["r1"])
    run(loop, host_win.network.stop())
    run(loop, until(lambda: "(reconnecting)" in lap_win.windowTitle(), "reconnecting shown"))
    other = Host(host_win.doc.session, code="ZZZZZZ", bind="127.0.0.1",
                 port=int(address.rsplit(":", 1)[1]))
    run(loop, other.start())
    try:
        run(loop, until(lambda: "(refused)" in lap_win.windowTitle(), "the refusal shown"))
        ldock = lap_win.docks["TurnDock"]
        assert "refused (wrong join code)" in plain(ldock.network)
        assert not lap_win.doc.execute(MoveUnit("r1-inf1", (39.5, 19.5), 270))
        assert "not connected to the host (refused)" in lap_win.statusBar().currentMessage()
    finally:
        run(loop, lap_win.network.stop())
        run(loop, other.stop())
