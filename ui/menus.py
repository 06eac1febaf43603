"""The main window's menus and tool bars, built once; each entry calls the window, its
docks or its tools (no logic here). `self` is the MainWindow."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QToolBar

from .battlefield.paint_tools import BrushTool, PlaceTool, PointTool, PolylineTool
from .battlefield.ruler import RulerTool
from .battlefield.tools import SelectTool
from .files import autosaved_battles
from .library_menu import LibraryMenu

TOOLS = (SelectTool, RulerTool, PlaceTool, BrushTool, PolylineTool, PointTool)


def add_action(self, menu, text, slot, shortcut=None, tip="", checkable=False) -> QAction:
    """A menu entry owned by the window `self`: shortcuts (one or a tuple), status tip."""
    a = QAction(text, self)
    if shortcut:
        a.setShortcuts([QKeySequence(s) for s in (shortcut if isinstance(shortcut, tuple) else (shortcut,))])
    a.setStatusTip(tip)
    a.setCheckable(checkable)
    a.triggered.connect(slot)
    menu.addAction(a)
    return a


def build_menus(self) -> None:
    """The menu bar, the tools bar and the tool options bar of the main window `self`."""
    mb = self.menuBar()
    f = mb.addMenu("&File")
    add_action(self, f, "&New battle…", lambda: self.new_battle(), QKeySequence.New,
               "An empty table: rules, size, grid, the two sides and their home edges")
    add_action(self, f, "&Open…", self.open_dialog, QKeySequence.Open,
               "Open a battle (.berthier) or a scenario (.toml)")
    self.recent_menu = f.addMenu("Open &recent")
    add_action(self, f, "&Save", self.save, QKeySequence.Save)
    add_action(self, f, "Save battle &as…", lambda: self.files.save_battle_as(), QKeySequence.SaveAs,
               "The whole game, log and dice, saved action by action from now on")
    add_action(self, f, "Save as &scenario…", self.save_as, None,
               "Positions and strengths as they stand, as a scenario to share")
    f.addSeparator()
    add_action(self, f, "After-action &report…", lambda: self.files.export_report(), None,
               "Write the report of this battle as PDF or HTML")
    add_action(self, f, "&Print report…", self._print_report, "Ctrl+P")
    add_action(self, f, "Roster s&heets…", lambda: self.files.export_rosters(), None,
               "A sheet per command to print: units with tally boxes, leader, Shaken at")
    add_action(self, f, "&Import order of battle…", lambda: self.import_oob(), None,
               "Read orders of battle as people write them and add their armies")
    add_action(self, f, "Open &campaign…", lambda: self.open_campaign(), None,
               "Show a campaign's ledger and book this battle into it")
    f.addSeparator()
    from .network import Network
    self.network = Network(self, f)
    f.addSeparator()
    add_action(self, f, "&Quit", self.close, QKeySequence.Quit)
    e = mb.addMenu("&Edit")
    self.undo_action = add_action(self, e, "&Undo", lambda: self.doc.undo_stack.undo(), QKeySequence.Undo)
    self.redo_action = add_action(self, e, "&Redo", lambda: self.doc.undo_stack.redo(),
                                  ("Ctrl+Shift+Z", "Ctrl+Y"))
    e.addSeparator()
    add_action(self, e, "&Copy", lambda: self.clipboard.copy(), QKeySequence.Copy)
    add_action(self, e, "&Paste", lambda: self.clipboard.paste(self._paste_at()), QKeySequence.Paste)
    add_action(self, e, "&Delete", self.delete_selection, (QKeySequence.Delete, "Backspace"))
    add_action(self, e, "Select &all units", self.select_all, QKeySequence.SelectAll)
    add_action(self, e, "Arrives &later…", self.edit_arrival, "Ctrl+Shift+L",
               "The selected command, unit or leader comes on during the battle: "
               "turn, die roll, entry")
    e.addSeparator()
    self.library = LibraryMenu(self)
    self.library.build(e)
    e.addSeparator()
    self.correction_action = add_action(
        self, e, "Umpire &correction mode", self._correction_mode, "Ctrl+Shift+U",
        "During the battle: edit the table (place, paint, delete, drag a piece anywhere); "
        "each edit is logged as an umpire correction", True)
    v = mb.addMenu("&View")
    add_action(self, v, "Zoom &in", lambda: self.view.zoom_by(1.25), (QKeySequence.ZoomIn, "Ctrl+="))
    add_action(self, v, "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.ZoomOut)
    add_action(self, v, "&Fit the table", self.view.fit_table, "Ctrl+0")
    self.docks_menu = v.addMenu("&Panels")
    t = mb.addMenu("&Tools")
    self.tool_bar = QToolBar("Tools")
    self.tool_bar.setObjectName("ToolsBar")
    self.addToolBar(self.tool_bar)
    self.tool_group = QActionGroup(self)
    self.tool_actions = {}
    for cls in TOOLS:
        a = add_action(self, t, cls.label, lambda _c=False, n=cls.name: self.use_tool(n), cls.shortcut,
                       cls.tip, True)
        a.setToolTip(f"{cls.label} ({cls.shortcut}): {cls.tip}")
        self.tool_group.addAction(a)
        self.tool_bar.addAction(a)
        self.tool_actions[cls.name] = a
    self.options_bar = QToolBar("Tool options")
    self.options_bar.setObjectName("ToolOptionsBar")
    self.addToolBar(self.options_bar)
    g = mb.addMenu("&Game")
    add_action(self, g, "&Start the battle", lambda: self.docks["TurnDock"].start())
    add_action(self, g, "&Resolve the order", lambda: self.docks["TurnDock"].resolve(), "Ctrl+R")
    add_action(self, g, "&Next phase", lambda: self.docks["TurnDock"].next_phase(), "Ctrl+N")
    add_action(self, g, "&Auto: play this phase", lambda: self.docks["TurnDock"].auto_phase(), "Ctrl+Shift+A")
    add_action(self, g, "Turn &left", lambda: self.tools["select"].turn_selected(-self.tools["select"].turn_step), "Q")
    add_action(self, g, "Turn ri&ght", lambda: self.tools["select"].turn_selected(self.tools["select"].turn_step), "E")
    fill_recent_menu(self)


def fill_recent_menu(self) -> None:
    """File > Open recent: the recent files, then battles autosaved but never named."""
    self.recent_menu.clear()
    for path in self.settings.recent():
        self.recent_menu.addAction(Path(path).name, lambda p=path: self.open_path(p)).setStatusTip(path)
    autosaved = autosaved_battles()
    if autosaved:
        self.recent_menu.addSeparator()
        sub = self.recent_menu.addMenu("&Autosaved battles (never named)")
        for path in autosaved:
            when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %H:%M")
            stem = path.stem.rsplit("-", 2)[0]
            sub.addAction(f"{stem}, last action {when}",
                          lambda p=str(path): self.open_path(p)).setStatusTip(str(path))
    self.recent_menu.setEnabled(bool(self.settings.recent() or autosaved))
