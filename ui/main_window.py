"""The main window: the battlefield in the middle, docks around it, menus, tool bars and
the status bar. Wiring only: no rules here, every change goes through the Document."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QUndoView)

from manager.store.autosave import Autosave

from .battlefield.scene import BattleScene
from .battlefield.view import BattleView
from .clipboard import UnitClipboard
from .dice_dialog import ask_faces
from .docks.log_dock import LogDock
from .docks.oob_dock import OobDock
from .docks.properties_dock import PropertiesDock
from .docks.tableside_dock import TableSideDock
from .docks.turn_dock import TurnDock
from .document import Document
from .files import Files
from .menus import TOOLS, add_action, build_menus, fill_recent_menu
from .settings import AppSettings
from .wording import place

MEASURING = ("select", "ruler")       # tools that change nothing: on during the battle


class MainWindow(QMainWindow):
    def __init__(self, settings: AppSettings | None = None):
        super().__init__()
        self.settings = settings or AppSettings()
        self.doc = None
        self.docks: dict[str, QDockWidget] = {}
        self.last_error = None              # the last error dialog (tests read it)
        self.view = BattleView(None)
        self.setCentralWidget(self.view)
        self.cursor_label, self.zoom_label, self.mode_label = QLabel(), QLabel(), QLabel()
        for w in (self.mode_label, self.cursor_label, self.zoom_label):
            self.statusBar().addPermanentWidget(w)
        self.view.cursor_moved.connect(self._cursor)
        self.view.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z:.1f} px/inch"))
        self.files = Files(self)
        self._record_error = None
        build_menus(self)
        geometry, state = self.settings.window()
        self.first_launch = geometry is None
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:                       # first launch: most of the screen, not Qt's 862x666
            screen = QGuiApplication.primaryScreen().availableGeometry()
            self.resize(int(screen.width() * 0.9), int(screen.height() * 0.9))
            self.move(screen.center() - self.rect().center())
        self._saved_state = state

    # ---- documents -----------------------------------------------------------------------
    def set_document(self, doc: Document) -> None:
        old_state = self.saveState() if self.doc is not None else self._saved_state
        if self.doc is not None:
            for dock in self.docks.values():
                self.removeDockWidget(dock)
                dock.deleteLater()
            self.doc.close_record()
            self.doc.deleteLater()
            self.view.tool = None
            self.scene.deleteLater()
        self.doc = doc
        self.network.document_replaced(doc)  # another battle opened: stop hosting, or leave
        doc.setParent(self)                 # it goes when the window goes
        doc.ask_faces = ask_faces(self)
        doc.confirm = self._confirm
        self.scene = BattleScene(doc)
        self.scene.setParent(self)          # Qt owns it with the window, not Python's GC
        self.view.setScene(self.scene)
        self.clipboard = UnitClipboard(doc)
        self.docks = {}
        for cls, area in ((OobDock, Qt.LeftDockWidgetArea), (PropertiesDock, Qt.LeftDockWidgetArea),
                          (TurnDock, Qt.RightDockWidgetArea), (LogDock, Qt.RightDockWidgetArea)):
            dock = cls(doc, self)
            self.addDockWidget(area, dock)
            self.docks[cls.__name__] = dock
        history = QDockWidget("Undo history", self)
        history.setObjectName("HistoryDock")
        history.setWidget(QUndoView(doc.undo_stack))
        self.addDockWidget(Qt.RightDockWidgetArea, history)
        self.tabifyDockWidget(self.docks["LogDock"], history)
        self.docks["HistoryDock"] = history
        self.docks["LogDock"].raise_()
        table = TableSideDock(doc, self)
        self.addDockWidget(Qt.RightDockWidgetArea, table)
        self.tabifyDockWidget(self.docks["TurnDock"], table)
        self.docks["TableSideDock"] = table
        self.docks["TurnDock"].raise_()
        if old_state is not None:
            self.restoreState(old_state)
        else:                       # no layout remembered: size the docks when shown
            self._size_docks = True
            if self.isVisible():
                self._default_dock_widths()
        self.docks["OobDock"].place_requested.connect(self._place_in)
        self.docks["OobDock"].arrival_requested.connect(self.edit_arrival)
        self.docks["PropertiesDock"].arrival_requested.connect(self.edit_arrival)
        table.arrivals.drop_point = self._scene_at_global
        table.arrivals.marks.connect(self.scene.overlays.show_arrival)
        turn = self.docks["TurnDock"]
        turn.aim.connect(self.scene.overlays.show_aim)
        turn.acted.connect(self.scene.overlays.flash)
        turn._show_odds()                # the aim line for the order already shown
        self.tools = {cls.name: cls(doc, self.scene, self.view) for cls in TOOLS}
        self._tool_options = {n: (t.options() if hasattr(t, "options") else None)
                              for n, t in self.tools.items()}
        # one height for the tool bars whatever the tool's options: a pixel's change
        # would resize the map, and refit it while it is fitted
        high = max((o.sizeHint().height() for o in self._tool_options.values() if o), default=0)
        for bar in (self.tool_bar, self.options_bar):
            bar.setFixedHeight(high + 6)
        doc.message.connect(self._message)
        doc.refused.connect(self._refused)
        doc.changed.connect(self._refresh)
        doc.undo_stack.cleanChanged.connect(self._clean_changed)
        self.undo_action.setEnabled(True)
        self._bind_undo()
        self._dock_menu()
        self.use_tool("select")
        self._refresh()
        self.setWindowModified(False)
        self.view.fit_table()

    def _default_dock_widths(self) -> None:
        """The map gets most of the width: docks a fifth and a quarter of it, within reason."""
        self._size_docks = False
        width = self.width()
        self.resizeDocks([self.docks["OobDock"], self.docks["TurnDock"]],
                         [int(min(300, max(150, width * 0.2))),
                          int(min(340, max(200, width * 0.24)))], Qt.Horizontal)

    def showEvent(self, event):
        super().showEvent(event)
        if getattr(self, "_size_docks", False) and self.doc is not None:
            self._default_dock_widths()

    # ---- files: see ui/files.py --------------------------------------------------------
    def open_path(self, path) -> bool:
        return self.files.open(path)

    def save(self) -> bool:
        return self.files.save()

    def save_as(self) -> bool:
        return self.files.save_as()

    def _write(self, path: Path) -> bool:
        return self.files.write_scenario(path)

    def new_battle(self, dialog=None) -> bool:
        """File > New battle: an empty table under the chosen rules (File > Save as
        scenario names it)."""
        from .new_battle import NewBattleDialog
        dialog = dialog or NewBattleDialog(self)
        if dialog.battle is None and dialog.exec() != NewBattleDialog.Accepted:
            return False
        if not self._ask_to_save():
            return False
        doc = Document(dialog.battle)
        doc.record = Autosave(doc.session, "new-battle")
        self.set_document(doc)
        self.statusBar().showMessage("A new table: add commands in the Order of battle, paint "
                                     "the ground, then File > Save as scenario", 9000)
        return True

    def open_dialog(self) -> None:
        self.files.open_dialog()

    def import_oob(self, files=(), accept=None) -> bool:
        from .oob_import_dialog import import_order_of_battle
        return import_order_of_battle(self, files, accept)

    def show_error(self, title: str, text: str) -> None:
        box = QMessageBox(QMessageBox.Warning, title, text, QMessageBox.Ok, self)
        box.setWindowModality(Qt.WindowModal)
        self.last_error = box
        box.open()

    # ---- menus and tool bars ----------------------------------------------------------------
    def _action(self, menu, text, slot, shortcut=None, tip="", checkable=False) -> QAction:
        return add_action(self, menu, text, slot, shortcut, tip, checkable)

    def _bind_undo(self) -> None:
        stack = self.doc.undo_stack
        for action, can, text in ((self.undo_action, stack.canUndoChanged, stack.undoTextChanged),
                                  (self.redo_action, stack.canRedoChanged, stack.redoTextChanged)):
            can.connect(action.setEnabled)
        self.undo_action.setEnabled(stack.canUndo())
        self.redo_action.setEnabled(stack.canRedo())

    def _dock_menu(self) -> None:
        self.docks_menu.clear()
        for dock in self.docks.values():
            self.docks_menu.addAction(dock.toggleViewAction())

    def refresh_recent(self) -> None:
        fill_recent_menu(self)

    def offer_unnamed(self):
        """At launch: the last game begun from a scenario and never named, offered back."""
        path = self.settings.unnamed()
        if not path or not Path(path).is_file():
            return None
        answer = QMessageBox.question(
            self, "Restore the last battle?",
            f"A battle begun from a scenario was never saved under a name. It was autosaved "
            f"action by action:\n{Path(path).name}\n\nOpen it again?")
        self.settings.set_unnamed("")       # asked once; File > Recent keeps it
        return path if answer == QMessageBox.Yes else None

    # ---- tools and selection ------------------------------------------------------------------
    def use_tool(self, name: str) -> None:
        if self.view.tool is not None:
            self.view.tool.deactivate()
        tool = self.tools[name]
        self.view.tool = tool
        tool.activate()
        self.tool_actions[name].setChecked(True)
        self.options_bar.clear()
        widget = self._tool_options.get(name)
        if widget is not None:
            self.options_bar.addWidget(widget)
        self.statusBar().showMessage(tool.tip, 5000)

    def _sync_tools(self) -> None:
        """During a battle the editing tools are off (their one-letter shortcuts with
        them, so a stray P and a click adds no bridge), unless in correction mode."""
        allowed = self.doc.editing_allowed and self.doc.preview is None
        for name, action in self.tool_actions.items():
            action.setEnabled(name in MEASURING or allowed)
        self.correction_action.setChecked(self.doc.correcting)
        if not allowed and self.view.tool is not None and self.view.tool.name not in MEASURING:
            self.use_tool("select")

    def _place_in(self, cid: str) -> None:
        if not self.tool_actions["place"].isEnabled():
            self._refused("the battle has begun: turn on Edit > Umpire correction to place units")
            return
        self.use_tool("place")
        tool = self.tools["place"]
        tool.command.setCurrentIndex(max(0, tool.command.findData(cid)))

    def edit_arrival(self, ref: str | None = None):
        """Arrives later… for `ref`, or for the one piece selected."""
        from .arrival_dialog import edit_arrival
        if not isinstance(ref, str):
            sel = self.doc.selection
            if len(sel) != 1:
                self._refused("select one command, unit or leader to arrive later")
                return None
            ref = sel[0]
        return edit_arrival(self, ref)

    def _scene_at_global(self, point):
        """Inches on the table under a screen point, or None off the map (drops from docks)."""
        local = self.view.viewport().mapFromGlobal(point)
        if not self.view.viewport().rect().contains(local):
            return None
        p = self.view.mapToScene(local)
        return p.x(), p.y()

    def select_all(self) -> None:
        self.doc.select([u.id for u in self.doc.shown.live_units()])

    def delete_selection(self) -> None:
        self.doc.delete_selection()

    def _correction_mode(self, on: bool) -> None:
        self.doc.correcting = bool(on)
        if on and self.doc.battle.state.started:
            self.statusBar().showMessage("Umpire correction: edits are on, and each is logged as "
                                         "a correction. Turn it off to go back to the game.", 9000)
        self._refresh()

    def _confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.Yes

    def _paste_at(self):
        return getattr(self, "_cursor_pos", None)

    # ---- status -------------------------------------------------------------------------------
    def _cursor(self, x: float, y: float) -> None:
        self._cursor_pos = (x, y)
        g = self.doc.shown.battlefield.grid if self.doc else None
        box = f"   box {place(self.doc.shown, (x, y))}" if g else ""
        self.cursor_label.setText(f'x {x:.1f}"  y {y:.1f}"{box}')

    def _message(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    def _refused(self, text: str) -> None:
        self.statusBar().showMessage("Refused: " + text, 9000)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _refresh(self) -> None:
        b = self.doc.shown
        self.setWindowTitle(f"{self.doc.title}[*] — {b.info.name}{self.doc.network_title} — Berthier")
        st = b.state
        if self.doc.preview is not None:
            mode = f"Viewing entry {self.doc.preview} (the past)"
        elif not st.started:
            mode = "Set-up"
        elif self.doc.correcting:
            mode = "UMPIRE CORRECTION"
        elif st.over:
            mode = "Battle over"
        else:
            mode = f"Turn {st.turn}, {b.sides[st.active].name if st.active in b.sides else st.active}, {st.phase}"
        self.mode_label.setText(mode)
        self.mode_label.setStyleSheet("background:#c05000; color:white; padding:0 6px"
                                      if self.doc.correcting and st.started else "")
        self._sync_tools()
        record = self.doc.record
        if isinstance(record, Autosave) and record.path is not None and not self.doc.is_battle_file:
            if self.settings.unnamed() != str(record.path):
                self.settings.set_unnamed(record.path)    # offered back at the next launch
                self.refresh_recent()
        error = self.doc.record_error
        if error and error != self._record_error:
            self._record_error = error
            self.show_error("This battle is no longer being saved", error)

    def _print_report(self) -> None:
        from .printing import print_html
        html, images = self.files.report()
        print_html(html, self, images)

    def open_campaign(self, path=None) -> bool:
        from .docks.campaign_dock import CampaignDock
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Open campaign", "",
                                                  "Campaigns (*.campaign);;All files (*)")
            if not path:
                return False
        dock = CampaignDock.open(path, self)
        if dock is None:
            return False
        old = self.docks.pop("CampaignDock", None)
        if old is not None:
            self.removeDockWidget(old)
            old.close_campaign()
            old.deleteLater()
        self.addDockWidget(Qt.BottomDockWidgetArea, dock)
        self.docks["CampaignDock"] = dock
        self._dock_menu()
        dock.show()
        dock.raise_()
        return True

    def _ask_to_save(self) -> bool:
        """Before quitting: a scenario edited or a game never named. False: stay."""
        doc = self.doc
        if doc is None or doc.is_battle_file or doc.undo_stack.isClean():
            return True
        started = doc.battle.state.started
        what = ("This battle has no name yet: it is autosaved, but only File > Recent > "
                "Autosaved battles will find it." if started else
                "The scenario has changes that are not saved.")
        answer = QMessageBox.question(self, "Save before closing?", what,
                                      QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
        if answer == QMessageBox.Cancel:
            return False
        if answer == QMessageBox.Save:
            return self.files.save_battle_as() if started else self.save()
        return True

    def closeEvent(self, event):
        if not self._ask_to_save():
            event.ignore()
            return
        self.settings.save_window(self.saveGeometry(), self.saveState())
        if self.doc is not None:
            self.doc.close_record()
        if "CampaignDock" in self.docks:
            self.docks["CampaignDock"].close_campaign()
        self.network.shutdown()
        super().closeEvent(event)
