"""Several laptops in the app (issue 18), claims: a joined window claims more commands and
gives some up; a side nobody holds waits, and the turn runner says so.

Both windows run in one process on the app's own event loop (qasync), the host on loopback.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from conftest import at, drag
from joined import run, until, plain, join_through_the_dialog, tick, file_menu_action


def test_a_joined_window_claims_more_commands_and_gives_some_up(open_window, qtbot, loop,
                                                                 tmp_path):
    from manager.net.laptop import Laptop
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    host = host_win.network.host
    hdock = host_win.docks["TurnDock"]
    qtbot.mouseClick(hdock.start_btn, Qt.LeftButton)
    qtbot.mouseClick(hdock.next_btn, Qt.LeftButton)           # blue's move
    hb = host_win.doc.battle
    other = Laptop(host.address, host.code, ["r1"], name="Sector B")
    run(loop, other.start())                                  # another laptop holds r1

    lap_win = open_window()
    claim = file_menu_action(lap_win, "Claim commands…")
    assert not claim.isEnabled()                              # not joined yet
    join_through_the_dialog(loop, qtbot, lap_win, host.address, host.code, "Sector A", ["b1"])
    ldock = lap_win.docks["TurnDock"]
    assert claim.isEnabled() and "Acting for: 1st Brigade" in plain(ldock.network)
    # the Cavalry is not this laptop's: its drag is refused here
    drag(qtbot, lap_win.view.viewport(), at(lap_win, 13.5, 37.5), at(lap_win, 19.5, 37.5))
    assert "Cavalry" in lap_win.statusBar().currentMessage()

    # File > Claim commands…: the same checkboxes, its own ticked, the others' named
    claim.trigger()
    dialog = lap_win.network.claim_box
    assert dialog.checks["b1"].isChecked() and not dialog.checks["b2"].isChecked()
    assert dialog.checks["r1"].text() == "Red Brigade (with Sector B)"
    apply = dialog.buttons.button(QDialogButtonBox.Ok)
    assert not apply.isEnabled()                              # nothing changed yet
    tick(qtbot, dialog.checks["b2"])
    tick(qtbot, dialog.checks["r1"])
    dialog.grab().save(str(tmp_path / "claim-dialog.png"))
    qtbot.mouseClick(apply, Qt.LeftButton)
    run(loop, until(lambda: "Refused" in dialog.status.text(), "the host's refusal"))
    assert "Sector B" in dialog.status.text() and dialog.isVisible()
    dialog.grab().save(str(tmp_path / "claim-refused.png"))
    assert sorted(host.claims) == ["b1", "r1"]                # nothing taken on a refusal
    tick(qtbot, dialog.checks["r1"])      # leave r1 to Sector B
    qtbot.mouseClick(apply, Qt.LeftButton)
    run(loop, until(lambda: not dialog.isVisible(), "the claim granted"))
    seat = host.claims["b2"]
    assert host.claims["b1"] == seat and host.claims["r1"] != seat
    assert "Acting for: 1st Brigade, Cavalry" in plain(ldock.network)
    drag(qtbot, lap_win.view.viewport(), at(lap_win, 13.5, 37.5), at(lap_win, 19.5, 37.5))
    run(loop, until(lambda: hb.units["b2-hc"].pos[0] == 19.5, "the Cavalry's move at the host"))

    # give the 1st Brigade up: unticked, applied, released at the host
    claim.trigger()
    dialog = lap_win.network.claim_box
    assert dialog.checks["b1"].isChecked() and dialog.checks["b2"].isChecked()
    tick(qtbot, dialog.checks["b1"])
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    run(loop, until(lambda: not dialog.isVisible(), "the release"))
    assert "b1" not in host.claims and host.claims["b2"] == seat
    assert sorted(lap_win.network.laptop.commands) == ["b2"]
    assert "Acting for: Cavalry" in plain(ldock.network)
    head = len(host_win.doc.session.entries)
    drag(qtbot, lap_win.view.viewport(), at(lap_win, 16.5, 22.5), at(lap_win, 19.5, 22.5))
    assert "1st Brigade" in lap_win.statusBar().currentMessage()
    assert len(host_win.doc.session.entries) == head          # refused before it travelled
    run(loop, other.close())


def test_the_turn_runner_says_when_nobody_holds_the_side_to_move():
    from ui.network import acting_text
    info = {"turn": 1, "side": "british", "phase": "act", "over": False,
            "unheld": "British (Stuart)", "waiting": [], "done": ["all-French"]}
    assert acting_text(info).startswith("Nobody holds British (Stuart): waiting for a laptop")
    held = dict(info, unheld="", waiting=["Sector B"], done=[])
    assert acting_text(held) == "Still acting: Sector B"


def test_a_side_nobody_holds_waits_and_the_joined_turn_runner_says_so(open_window, qtbot, loop,
                                                                     tmp_path):
    host_win = open_window()
    run(loop, host_win.network.start_host(bind="127.0.0.1"))
    hd = host_win.network.dialog
    address, code = hd.fields["address"].text(), hd.fields["code"].text()
    hdock = host_win.docks["TurnDock"]
    qtbot.mouseClick(hdock.start_btn, Qt.LeftButton)
    hb = host_win.doc.battle
    lap_win = open_window()
    join_through_the_dialog(loop, qtbot, lap_win, address, code, "Blue table", ["b1", "b2"])
    ldock = lap_win.docks["TurnDock"]
    # the laptop says it is done with each of Blue's phases until Red is to move
    while hb.state.active == "blue":
        key = (hb.state.turn, hb.state.phase)
        qtbot.mouseClick(ldock.next_btn, Qt.LeftButton)
        run(loop, until(lambda: (hb.state.turn, hb.state.phase) != key or hb.state.active != "blue",
                        "the host to end Blue's phase"))
    red_phase = (hb.state.turn, hb.state.phase, hb.state.active)
    run(loop, until(lambda: "Nobody holds Red Army" in plain(ldock.network),
                    "the joined turn runner to say Red is unheld"))
    qtbot.mouseClick(ldock.next_btn, Qt.LeftButton)    # Blue's "done" cannot end Red's phase
    run(loop, until(lambda: host_win.network.acting.get("done"), "the host to hear done"))
    assert (hb.state.turn, hb.state.phase, hb.state.active) == red_phase
    lap_win.grab().save(str(tmp_path / "unheld.png"))
    qtbot.mouseClick(hdock.next_btn, Qt.LeftButton)    # the host's umpire ends it
    assert (hb.state.turn, hb.state.phase, hb.state.active) != red_phase
    run(loop, lap_win.network.stop())
    run(loop, host_win.network.stop())
