"""The campaign keeper's panel: the ledger unit by unit, each army's strength across the
battles (QtCharts), replacements, booking the battle on the table, and a printable report.
Everything is read from and written to the campaign file through manager.campaign."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCharts import QCategoryAxis, QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QMargins, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QMessageBox,
                               QPushButton, QSpinBox, QSplitter, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from manager.campaign import Campaign
from manager.campaign.reconstitute import close_battle
from manager.errors import BerthierError
from manager.report_html import campaign_report_html

from ..printing import export_html

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
        self.chart = QChart()
        self.chart.setTitle("Army strength after each battle")
        self.chart.legend().setAlignment(Qt.AlignBottom)
        self.chart_view = QChartView(self.chart)
        self.chart_view.setRenderHint(QPainter.Antialiasing)
        self.chart_view.setMinimumWidth(420)
        self.chart.setMargins(QMargins(4, 4, 4, 4))
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
        self.chart.removeAllSeries()
        for axis in self.chart.axes():
            self.chart.removeAxis(axis)
        history = self.campaign.strength_history()
        stages = max((len(v) for v in history.values()), default=1)
        x_axis = QCategoryAxis()
        x_axis.setLabelsPosition(QCategoryAxis.AxisLabelsPositionOnValue)
        for k in range(stages):
            x_axis.append("muster" if k == 0 else str(k), k)
        x_axis.setTitleText("after battle")
        x_axis.setRange(0, max(1, stages - 1))
        y_axis = QValueAxis()
        y_axis.setLabelFormat("%d")
        top = max((max(v) for v in history.values()), default=1)
        y_axis.setRange(0, max(1, top) * 1.1)
        self.chart.addAxis(x_axis, Qt.AlignBottom)
        self.chart.addAxis(y_axis, Qt.AlignLeft)
        battle = self.window_.doc.battle if self.window_.doc else None
        for sid, values in history.items():
            series = QLineSeries()
            series.setName(s["armies"][sid]["name"])
            for k, v in enumerate(values):
                series.append(k, v)
            if battle is not None and sid in battle.sides:
                series.setPen(QPen(QColor(battle.sides[sid].colour), 2.5))
            series.setPointsVisible(True)
            self.chart.addSeries(series)
            series.attachAxis(x_axis)
            series.attachAxis(y_axis)

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
