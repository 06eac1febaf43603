"""Opening and saving: scenarios (TOML), battles (.berthier, recorded as they are played)
and after-action reports (HTML or PDF). Any failure is a dialog naming the file; the open
battle and the file on disk stay as they were.

A battle file records every action the moment it is taken, so "Save" on a battle only
says so. A game begun from a scenario is autosaved to the data folder from its first
action, until the umpire names a battle file with "Save battle as…".
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from manager.errors import BerthierError
from manager.report_html import battle_report_html, roster_html
from manager.scenario_io import load_scenario, save_scenario
from manager.store import create_battle, open_battle
from manager.store.autosave import Autosave
from manager.store.lock import FileLocked

from .app import is_shipped
from .document import Document
from .printing import MAP, export_html, table_image, with_map

BATTLE = ".berthier"


class Files:
    def __init__(self, window):
        self.w = window

    # ---- open ---------------------------------------------------------------------------
    def open(self, path) -> bool:
        path = Path(path)
        doc = self.w.doc
        if (doc is not None and doc.is_battle_file and doc.path is not None
                and doc.path.resolve() == path.resolve()):
            self.w.statusBar().showMessage(f"{path.name} is the battle open here", 6000)
            return True
        locked = None
        try:
            if path.suffix.lower() == BATTLE:
                try:
                    record = open_battle(path)
                except FileLocked as exc:
                    # one writer per battle: the second opener may look, not record
                    locked = str(exc)
                    record = open_battle(path, read_only=True)
                doc = Document(None, path, session=record.session, record=record)
            else:
                battle = load_scenario(path)
                doc = Document(battle, path)
                doc.record = Autosave(doc.session, path.stem)
        except BerthierError as exc:
            self.w.show_error("Cannot open this file", str(exc))
            return False
        except OSError as exc:
            self.w.show_error("Cannot open this file", f"{path}: {exc.strerror or exc}")
            return False
        self.w.set_document(doc)
        self.w.settings.add_recent(path)
        self.w.refresh_recent()
        record = doc.record
        if locked:
            self.w.show_error("Opened read-only", f"{locked}.\n\nIt is open here read-only: "
                              f"you can look through it and print its report, but nothing "
                              f"done in this window is saved to it.")
        if getattr(record, "notice", None):
            self.w.statusBar().showMessage(record.notice, 15000)
        if getattr(record, "backup", None):
            self.w.statusBar().showMessage(f"{path.name} was made by an older Berthier and has "
                                           f"been upgraded; the original is kept as "
                                           f"{Path(record.backup).name}", 15000)
        if getattr(record, "drift", None):
            self.w.show_error("This battle replays differently", (
                f"{path.name}: {len(record.drift)} logged action(s), the first at entry "
                f"{record.drift[0] + 1}, give different results under this version of Berthier. "
                f"The dice and orders are the same; the rules have changed since."))
        return True

    def open_dialog(self) -> None:
        doc = self.w.doc
        start = str(doc.path.parent) if doc and doc.path else ""
        path, _ = QFileDialog.getOpenFileName(
            self.w, "Open a battle or scenario", start,
            "Battles and scenarios (*.berthier *.toml);;Battles (*.berthier);;"
            "Scenarios (*.toml);;All files (*)")
        if path:
            self.open(path)

    # ---- save ---------------------------------------------------------------------------
    def save(self) -> bool:
        doc = self.w.doc
        if doc.is_battle_file:
            self.w.statusBar().showMessage(f"{doc.path.name}: every action is saved as it is "
                                           f"taken", 6000)
            return True
        if doc.path is None or doc.path.suffix.lower() != ".toml" or is_shipped(doc.path):
            return self.save_as()
        return self.write_scenario(doc.path)

    def save_as(self) -> bool:
        doc = self.w.doc
        start = doc.path.with_suffix(".toml") if doc.path else Path("battle.toml")
        if is_shipped(start):       # never offer the installed file itself
            start = Path.home() / f"{start.stem}-mine.toml"
            self.w.statusBar().showMessage(f"{doc.path.name} is shipped with Berthier and is "
                                           f"read-only: save your version under a new name", 9000)
        path, _ = QFileDialog.getSaveFileName(self.w, "Save scenario", str(start),
                                              "Scenarios (*.toml)")
        return bool(path) and self.write_scenario(Path(path))

    def write_scenario(self, path: Path) -> bool:
        doc = self.w.doc
        if is_shipped(path):
            self.w.show_error("Cannot save over a shipped scenario",
                              f"{Path(path).name} is installed with Berthier and is read-only. "
                              f"Save your version under another name.")
            return False
        try:
            save_scenario(doc.battle, path)
        except OSError as exc:
            self.w.show_error("Cannot save", f"{path}: {exc.strerror or exc}")
            return False
        if not doc.is_battle_file:
            doc.path = path
        doc.undo_stack.setClean()
        self.w.settings.add_recent(path)
        self.w.refresh_recent()
        self.w._refresh()
        note = " (positions and strengths as they stand)" if doc.battle.state.started else ""
        self.w.statusBar().showMessage(f"Saved {path.name}{note}", 6000)
        return True

    def save_battle_as(self, path=None) -> bool:
        """Write the whole battle, log and all, to a battle file and record there from now on."""
        doc = self.w.doc
        if path is None:
            start = doc.path.with_suffix(BATTLE) if doc.path else Path("battle" + BATTLE)
            if is_shipped(start):
                start = Path.home() / start.name
            chosen, _ = QFileDialog.getSaveFileName(self.w, "Save battle", str(start),
                                                    "Battles (*.berthier)")
            if not chosen:
                return False
            path = chosen
        path = Path(path)
        if path.suffix.lower() != BATTLE:
            path = path.with_name(path.name + BATTLE)
        if doc.path is not None and path.resolve() == doc.path.resolve() and doc.is_battle_file:
            return self.save()
        try:
            record = create_battle(path, doc.session, replace=True)   # the dialog asked
        except BerthierError as exc:
            self.w.show_error("Cannot save", str(exc))
            return False
        old = doc.record
        doc.record = record
        if old is not None:
            old.close()
            if isinstance(old, Autosave) and old.path is not None:
                old.path.unlink(missing_ok=True)      # the named file now holds it all
                if self.w.settings.unnamed() == str(old.path):
                    self.w.settings.set_unnamed("")
        doc.path = path
        doc.undo_stack.setClean()
        self.w.settings.add_recent(path)
        self.w.refresh_recent()
        self.w._refresh()
        self.w.statusBar().showMessage(f"Saved {path.name}: from now on every action is "
                                       f"saved as it is taken", 8000)
        return True

    # ---- reports --------------------------------------------------------------------------
    def export_report(self, path=None) -> bool:
        doc = self.w.doc
        if path is None:
            stem = doc.path.stem if doc.path else "battle"
            chosen, _ = QFileDialog.getSaveFileName(self.w, "After-action report",
                                                    f"{stem}-report.pdf",
                                                    "PDF (*.pdf);;Web page (*.html)")
            if not chosen:
                return False
            path = chosen
        html, images = self.report()
        return self._export(html, images, path, "report")

    def report(self) -> tuple[str, dict]:
        """The after-action report with a map of the final positions."""
        doc = self.w.doc
        return (with_map(battle_report_html(doc.session)),
                {MAP: table_image(self.w.scene)})

    def export_rosters(self, path=None) -> bool:
        """A sheet per command for the players: units with tally boxes, the leader, the
        command's Shaken threshold."""
        doc = self.w.doc
        if path is None:
            stem = doc.path.stem if doc.path else "battle"
            chosen, _ = QFileDialog.getSaveFileName(self.w, "Roster sheets", f"{stem}-rosters.pdf",
                                                    "PDF (*.pdf);;Web page (*.html)")
            if not chosen:
                return False
            path = chosen
        return self._export(roster_html(doc.battle, doc.battle.info.name), {}, path, "rosters")

    def _export(self, html, images, path, what) -> bool:
        try:
            export_html(html, Path(path), images)
        except OSError as exc:
            self.w.show_error(f"Cannot write the {what}", f"{path}: {exc.strerror or exc}")
            return False
        self.w.statusBar().showMessage(f"Wrote {Path(path).name}", 6000)
        return True


def autosaved_battles(limit: int = 10) -> list[Path]:
    """The newest autosaved battles, newest first (File > Recent lists them)."""
    from manager.store.autosave import autosave_dir
    folder = autosave_dir()
    if not folder.is_dir():
        return []
    files = sorted(folder.glob("*.berthier"), key=lambda p: p.stat().st_mtime, reverse=True)
    return files[:limit]
