"""The order-of-battle library from the app: save the selected command or its army, and
set a saved one down at the middle of the view, facing away from the side's home edge.
Setting down is one undo step of ordinary editor actions, refused whole with the reason."""
from __future__ import annotations

from PySide6.QtWidgets import QInputDialog

from manager.errors import BerthierError
from manager.store.oob_library import OobLibrary

FACING = {"west": 90, "east": 270, "north": 180, "south": 0}


class LibraryMenu:
    def __init__(self, window):
        self.w = window

    def build(self, menu) -> None:
        menu.addSection("Order-of-battle library")
        self.w._action(menu, "Save command to library", lambda: self.save("command"), None,
                       "Keep the selected unit's command for other scenarios")
        self.w._action(menu, "Save army to library", lambda: self.save("army"), None,
                       "Keep the selected unit's whole army for other scenarios")
        self.w._action(menu, "Add from library…", lambda: self.add(), None,
                       "Set a saved command or army down in the middle of the view")

    def _selected_command(self) -> str | None:
        b = self.w.doc.battle
        for pid in self.w.doc.selection:
            if pid in b.commands:
                return pid
            if pid in b.units:
                return b.hierarchy.command_of(pid)
        return None

    def _open(self):
        try:
            return OobLibrary()
        except BerthierError as exc:
            self.w.show_error("The library cannot be opened", str(exc))
            return None

    def save(self, what: str, name: str | None = None) -> str | None:
        cid = self._selected_command()
        if cid is None:
            self.w.statusBar().showMessage("Select a unit or a command first", 6000)
            return None
        b = self.w.doc.battle
        lib = self._open()
        if lib is None:
            return None
        try:
            saved = (lib.save_command(b, cid, name) if what == "command"
                     else lib.save_army(b, b.commands[cid].side, name))
        except BerthierError as exc:
            self.w.show_error("Cannot save to the library", str(exc))
            return None
        finally:
            lib.close()
        self.w.statusBar().showMessage(f"{saved} saved to the library", 6000)
        return saved

    def add(self, name: str | None = None, side: str | None = None) -> bool:
        lib = self._open()
        if lib is None:
            return False
        try:
            if name is None:
                names = [e["name"] for e in lib.entries()]
                if not names:
                    self.w.statusBar().showMessage("The library is empty: save a command first", 6000)
                    return False
                name, ok = QInputDialog.getItem(self.w, "Add from library", "Command or army:",
                                                names, 0, False)
                if not ok:
                    return False
            doc = self.w.doc
            b = doc.battle
            cid = self._selected_command()
            side = side or (b.commands[cid].side if cid else next(iter(b.sides)))
            view = self.w.view
            centre = view.mapToScene(view.viewport().rect().center())
            actions = lib.actions_to_add(name, b, side, (centre.x(), centre.y()),
                                         FACING.get(b.sides[side].home_edge, 0))
        except BerthierError as exc:
            self.w.show_error("Cannot add from the library", str(exc))
            return False
        finally:
            lib.close()
        return doc.execute_all(actions, f"Add {name} from the library", whole=True)
