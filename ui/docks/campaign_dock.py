"""The campaign keeper's panel: the ledger unit by unit, each army's strength across the
battles (pyqtgraph, MIT: Qt Charts is GPL-3 or commercial only), replacements, booking the battle on the table, and a printable report.
Everything is read from and written to the campaign file through manager.campaign."""
from __future__ import annotations

from pathlib import Path

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QMessageBox,
                               QPushButton, QSpinBox, QSplitter, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from manager.campaign import Campaign
from manager.campaign.reconstitute import close_battle
from manager.errors import BerthierError
from manager.report_html import campaign_report_html

from ..printing import export_html

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
import pyqtgraph as pg  # noqa: E402  (after the binding is named)

COLUMNS = ["Unit", "Start", "Losses", "Returned", "Replacements", "Now"]
KEYS = ["start", "losses", "returns", "replacements", "now"]


class CampaignDock(QDockWidget):
    @classmethod
    def open(cls, path, window):
        try:
            campaign = Campaign.open(path)
        except BerthierError as exc:
            window.show_error("Cannot open this campaign", str(exc))
            return None
        return cls(campaign, window)

    def __init__(self, campaign: Campaign, window):
        super().__init__("Campaign", window)
        self.setObjectName("CampaignDock")
        self.window_ = window
        self.campaign = campaign
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for c in range(1, len(COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        self.chart_view = pg.PlotWidget(background="w")
        self.chart_view.setMinimumWidth(420)
        self.chart = self.chart_view.getPlotItem()
        self.chart.setTitle("Army strength after each battle", color="#202020")
        self.chart.setLabel("bottom", "after battle")
        self.chart.setLabel("left", "strength")
        self.chart.showGrid(x=False, y=True, alpha=0.25)
        self.chart.setMouseEnabled(x=False, y=False)
        self.chart.hideButtons()
        self.legend = self.chart.addLegend(offset=(-10, 10))
        self.curves: list = []          # one per army, in ledger order
        self.book_btn = QPushButton("Book this battle")
        self.book_btn.setToolTip("Carry the open battle's losses into the ledger, roll for men "
                                 "returning and for fallen leaders")
        self.book_btn.clicked.connect(lambda: self.book())
        self.points = QSpinBox()
        self.points.setRange(1, 99)
        self.points.setPrefix("+")
        self.reinforce_btn = QPushButton("Add replacements")
        self.reinforce_btn.setToolTip("Replacements from the depot for the selected unit")
        self.reinforce_btn.clicked.connect(lambda: self.reinforce())
        self.report_btn = QPushButton("Report…")
        self.report_btn.clicked.connect(lambda: self.export_report())
        buttons = QHBoxLayout()
        for w in (self.book_btn, self.points, self.reinforce_btn, self.report_btn):
            buttons.addWidget(w)
        buttons.addStretch(1)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.chart_view)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.title)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)
        self.setWidget(body)
        self.refresh()

    # ---- showing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.campaign.summary()
        self.summary = s
        closed = [b for b in s["battles"] if b["closed_at"]]
        self.title.setText(f"<b>{s['campaign']}</b> — {len(closed)} battle(s) booked; "
                           f"{self.campaign.path.name}")
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        for sid, army in s["armies"].items():
            top = QTreeWidgetItem([army["name"]] + [str(army[k]) for k in KEYS])
            for c in range(len(COLUMNS)):
                top.setFont(c, bold)
                if c:
                    top.setTextAlignment(c, Qt.AlignRight | Qt.AlignVCenter)
            for u in army["units"]:
                item = QTreeWidgetItem([u["name"]] + [str(u[k]) for k in KEYS])
                item.setData(0, Qt.UserRole, u["id"])
                tips = "\n".join(f"battle {n}: -{b['losses']} +{b['returns']} +{b['replacements']}"
                                 if n != "0" else f"muster: +{b['replacements']} replacements"
                                 for n, b in u["battles"].items())
                item.setToolTip(0, tips or "no losses yet")
                if u["status"] == "destroyed":
                    item.setForeground(0, QColor("#a01010"))
                    item.setText(0, f"{u['name']} (destroyed)")
                for c in range(1, len(COLUMNS)):
                    item.setTextAlignment(c, Qt.AlignRight | Qt.AlignVCenter)
                top.addChild(item)
            self.tree.addTopLevelItem(top)
            top.setExpanded(len(s["armies"]) < 3 and len(army["units"]) < 40)
        self._chart(s)

    def _chart(self, s) -> None:
        self.chart.clear()
        self.legend.clear()
        self.curves = []
        history = self.campaign.strength_history()
        stages = max((len(v) for v in history.values()), default=1)
        ticks = [(k, "muster" if k == 0 else str(k)) for k in range(stages)]
        self.chart.getAxis("bottom").setTicks([ticks])
        top = max((max(v) for v in history.values() if v), default=1)
        self.chart.setXRange(0, max(1, stages - 1), padding=0.05)
        self.chart.setYRange(0, max(1, top) * 1.1, padding=0)
        battle = self.window_.doc.battle if self.window_.doc else None
        for n, (sid, values) in enumerate(history.items()):
            colour = (battle.sides[sid].colour if battle is not None and sid in battle.sides
                      else pg.intColor(n).name())
            curve = self.chart.plot(list(range(len(values))), list(values),
                                    pen=pg.mkPen(colour, width=2.5), symbol="o", symbolSize=6,
                                    symbolBrush=colour, name=s["armies"][sid]["name"])
            self.curves.append(curve)

    # ---- doing -------------------------------------------------------------------------------
    def book(self, force: bool | None = None) -> bool:
        doc = self.window_.doc
        record = doc.record if doc.is_battle_file else None
        meta = record.meta if record is not None else {}
        if force is None and not doc.battle.state.over:
            answer = QMessageBox.question(self, "The battle is not over",
                                          "Book the battle as it stands now?")
            force = answer == QMessageBox.Yes
            if not force:
                return False
        try:
            result = close_battle(self.campaign, doc.session, meta, str(doc.path or ""),
                                  force=bool(force))
        except BerthierError as exc:
            self.window_.show_error("Cannot book this battle", str(exc))
            return False
        self.refresh()
        self.window_.statusBar().showMessage(
            f"Battle {result['battle']} booked: {result['ledger_rows']} ledger entries, "
            f"{result['rolls']} rolls for men returning and fallen leaders", 9000)
        return True

    def reinforce(self) -> bool:
        item = self.tree.currentItem()
        uid = item.data(0, Qt.UserRole) if item is not None else None
        if not uid:
            self.window_.statusBar().showMessage("Select a unit in the ledger first", 6000)
            return False
        try:
            self.campaign.reinforce(uid, self.points.value())
        except BerthierError as exc:
            self.window_.show_error("Cannot add replacements", str(exc))
            return False
        self.refresh()
        return True

    def export_report(self, path=None) -> bool:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Campaign report",
                                                  f"{self.campaign.path.stem}-report.pdf",
                                                  "PDF (*.pdf);;Web page (*.html)")
            if not path:
                return False
        try:
            export_html(campaign_report_html(self.campaign.summary()), Path(path))
        except OSError as exc:
            self.window_.show_error("Cannot write the report", f"{path}: {exc}")
            return False
        return True

    def close_campaign(self) -> None:
        if self.campaign is not None:
            self.campaign.close()
            self.campaign = None
