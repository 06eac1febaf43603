"""The turn runner: turn, phase, what the phase allows and who has still to act; orders
with the engine's exact odds before they are committed; Resolve, Auto and Next phase;
software or table dice; a banner when an army must concede.

It knows no rules: what a phase allows comes from the ruleset's phase table, legal
targets from asking the engine whether each order would be legal, odds from `odds()`.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDockWidget, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from manager.autopilot import Autopilot
from manager.errors import BerthierError
from manager.game_actions import (ChangeFormation, Charge, ChooseInitiative, EndPhase, Fire,
                                  StartBattle)

from ..widgets import fit_rows, scrolled
from ..wording import action_text
from .choices_box import ChoicesBox
from .odds_view import odds_html
from .order_menu import order_menu


def result_text(b) -> str:
    """The result banner: who won and why, or a draw when the turns ran out."""
    st = b.state
    if st.winner in b.sides:
        losers = " and ".join(s.name for k, s in b.sides.items() if k != st.winner)
        return f"{losers} must concede: {b.sides[st.winner].name} wins. {st.reason}"
    return f"The battle is over, undecided: {st.reason}"


def involved(action) -> list[str]:
    """The pieces an order names (to ring them on the map)."""
    ids = [getattr(action, f, "") for f in ("unit", "target", "defender", "leader")]
    for f in ("joiners", "attackers", "defenders"):
        ids += list(getattr(action, f, ()) or ())
    return [i for i in ids if isinstance(i, str) and i]


def result_html(battle, entry) -> str:
    """What an order did: the order in plain words, its events, and the dice."""
    what = "; ".join(escape(e.describe()) for e in entry.events) or "done"
    dice = "; ".join(f"{escape(r.purpose)}: {' '.join(map(str, r.faces))}"
                     + (" (typed)" if r.source == "manual" else "") for r in entry.rolls)
    return (f"<b>{escape(action_text(battle, entry.action))}</b><br>{what}"
            + (f"<br><span style='color:#6a4a10'>Dice — {dice}</span>" if dice else ""))


class TurnDock(QDockWidget):
    aim = Signal(str, str)          # the shooter or charger and the target picked ("" none)
    acted = Signal(list)            # the pieces the last order touched (flash them)

    def __init__(self, doc, parent=None):
        super().__init__("Turn runner", parent)
        self.setObjectName("TurnDock")
        self.doc = doc
        self._seen = len(doc.session.entries)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        self.network = QLabel()         # hosting or joined: the link and who is still acting
        self.network.setWordWrap(True)
        self.network.setTextFormat(Qt.RichText)
        self.network.setStyleSheet("background:#e8f0fa; border:1px solid #8aa8d0; padding:4px")
        self.network.setVisible(False)
        lay.addWidget(self.network)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background:#b01818; color:white; font-weight:bold; padding:6px")
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.help = QLabel()
        self.help.setWordWrap(True)
        self.help.setStyleSheet("color:#505050")
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.RichText)
        self.result.setStyleSheet("background:#fff6d0; border:1px solid #d8c070; padding:4px")
        self.result.setVisible(False)
        lay.addWidget(self.banner)
        lay.addWidget(self.heading)
        lay.addWidget(self.help)
        lay.addWidget(self.result)

        row = QGridLayout()              # two by two: the dock stays narrow beside the map
        self.start_btn = self._button(row, "Start battle", self.start, "Roll for the first side and begin turn 1")
        self.next_btn = self._button(row, "Next phase", self.next_phase, "End this phase (Ctrl+N)")
        self.auto_btn = self._button(row, "Auto phase", self.auto_phase,
                                     "Let the automatic commander play the rest of this phase")
        self.auto_turn_btn = self._button(row, "Auto turn", self.auto_turn,
                                          "The automatic commander plays both sides to the next turn")
        lay.addLayout(row)
        dice_row = QHBoxLayout()
        dice_row.addWidget(QLabel("Dice:"))
        self.dice = QComboBox()
        self.dice.addItem("Software dice (seeded)", False)
        self.dice.addItem("Table dice: type the faces rolled", True)
        self.dice.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.dice.setMinimumContentsLength(14)
        self.dice.currentIndexChanged.connect(self._dice_changed)
        dice_row.addWidget(self.dice, 1)
        lay.addLayout(dice_row)

        lay.addWidget(QLabel("Still to act:"))
        self.to_act = QListWidget()
        self.to_act.setToolTip("Pieces that may still act in this phase: click one to select it")
        self.to_act.itemClicked.connect(lambda i: doc.select([i.data(Qt.UserRole)]))
        lay.addWidget(self.to_act)

        self.orders = QGroupBox("Orders")
        olay = QVBoxLayout(self.orders)
        self.order_title = QLabel()
        self.order_title.setWordWrap(True)
        self.choices = QListWidget()
        self.choices.currentItemChanged.connect(lambda *_: self._show_odds())
        self.joiners_box = QWidget()
        self.joiners_lay = QVBoxLayout(self.joiners_box)
        self.joiners_lay.setContentsMargins(0, 0, 0, 0)
        self.odds = QLabel()
        self.odds.setWordWrap(True)
        self.odds.setTextFormat(Qt.RichText)
        self.formation = QComboBox()
        self.resolve_btn = QPushButton("Resolve")
        self.resolve_btn.setToolTip("Roll through the engine (Ctrl+R)")
        self.resolve_btn.clicked.connect(self.resolve)
        self.choice_box = ChoicesBox(doc)        # the player's choices for this order
        for w in (self.order_title, self.choices, self.joiners_box, self.formation, self.odds,
                  self.choice_box, self.resolve_btn):
            olay.addWidget(w)
        lay.addWidget(self.orders)
        lay.addStretch(1)
        # a long melee or order list scrolls inside the dock instead of growing the window
        self.setWidget(scrolled(body))
        self._menu = None              # the orders panel's OrderMenu
        doc.changed.connect(self.sync)
        doc.selection_changed.connect(lambda *_: self._sync_orders(reselected=True))
        self.sync()

    def _button(self, row, text, slot, tip) -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(slot)
        n = row.count()
        row.addWidget(b, n // 2, n % 2)
        return b

    # ---- the state of play -----------------------------------------------------------------
    def _report(self) -> None:
        """After an order: say what happened here, and ring its pieces on the map."""
        entries = self.doc.session.entries
        if self.doc.preview is not None or len(entries) == self._seen:
            return
        grew = len(entries) > self._seen
        self._seen = len(entries)
        if not grew or not entries:
            self.result.setVisible(False)            # undone: the old result no longer holds
            return
        entry = entries[-1]
        if entry.action.category != "game" or entry.action.verb in ("EndPhase", "StartBattle"):
            return
        self.result.setText(result_html(self.doc.battle, entry))
        self.result.setVisible(True)
        self.acted.emit(involved(entry.action))

    def sync(self) -> None:
        self._report()
        b, rs = self.doc.shown, self.doc.ruleset
        st = b.state
        live = self.doc.preview is None
        self.banner.setVisible(st.over)
        if st.over:
            self.banner.setText(result_text(b))
        if not st.started:
            self.heading.setText(f"<b>{b.info.name}</b><br>Set-up: place the armies, then start the battle.")
            self.help.setText(f"{rs.name}. Turn limit {b.info.turns}.")
        elif st.over:                      # a finished battle: no phase to play any more
            self.heading.setText(f"<b>{b.info.name}</b><br>The battle is over after turn {st.turn}.")
            self.help.setText("The log, the reports and File > Open campaign > Book this battle "
                              "still work; Undo takes back the last action.")
        else:
            phase = rs.phase(st.phase)
            side = b.sides[st.active].name if st.active in b.sides else st.active
            self.heading.setText(f"<b>Turn {st.turn}</b> of {b.info.turns} — <b>{side}</b> — "
                                 f"{phase.label} phase")
            allowed = ", ".join(sorted(a for a in phase.actions if a != "EndPhase"))
            from manager.arrivals import due_arrivals
            from ..wording import arrival_name
            due = [arrival_name(b, a.id) for a in due_arrivals(b, rs)]
            self.help.setText(f"{phase.help}\nAllowed: {allowed}."
                              + (f"\nReinforcements due: {', '.join(due)} (place them in the "
                                 f"Table-side panel)" if due else ""))
        self.start_btn.setVisible(not st.started)
        for btn in (self.next_btn, self.auto_btn, self.auto_turn_btn):
            btn.setEnabled(live and st.started and not st.over)
        self.network.setText(self.doc.network_status)
        self.network.setVisible(bool(self.doc.network_status))
        if self.doc.remote:             # the host runs the phases; a laptop says it is done
            self.next_btn.setText("Done with phase")
            self.next_btn.setToolTip("Tell the host this laptop has finished the phase")
            for btn in (self.auto_btn, self.auto_turn_btn):
                btn.setEnabled(False)
                btn.setToolTip("The automatic commander plays on a host or a headless laptop "
                               "(berthier join --auto), not in a joined window")
        self.start_btn.setEnabled(live)
        self.to_act.clear()
        if st.started and not st.over:
            for pid in rs.to_act(b):
                if not self.doc.mine(pid):      # a joined laptop lists its own pieces
                    continue
                piece = b.units.get(pid) or b.leaders.get(pid)
                item = QListWidgetItem(piece.name if piece else pid)
                item.setData(Qt.UserRole, pid)
                self.to_act.addItem(item)
        fit_rows(self.to_act, 5)
        self._sync_orders()

    # ---- the orders panel: what the selection may do in this phase ---------------------------
    def _sync_orders(self, reselected: bool = False) -> None:
        b, rs, st = self.doc.shown, self.doc.ruleset, self.doc.shown.state
        item = self.choices.currentItem()
        keep = (self._order, item.data(Qt.UserRole)) if item is not None else None
        self.choices.clear()
        self.choice_box.show_for(None)
        self._clear_joiners()
        self.formation.setVisible(False)
        self.odds.setText("")
        self._menu = None
        if not st.started or st.over or self.doc.preview is not None:
            self.orders.setVisible(False)
            self.aim.emit("", "")
            return
        menu = order_menu(self.doc, b, rs, self.doc.selection)
        if menu is None:
            self.order_title.setText("Select one of your pieces on the map or in the list "
                                     "above to give it an order; drag a unit to move it.")
            self.aim.emit("", "")
            self.resolve_btn.setVisible(False)
            self.choices.setVisible(False)       # no order yet: no empty list to puzzle over
            self.orders.setVisible(True)
            return
        self._menu = menu
        self.order_title.setText(menu.title)
        for label, ref in menu.items:
            it = QListWidgetItem(label)
            it.setData(Qt.UserRole, ref)
            self.choices.addItem(it)
        if not menu.items:
            self.choices.addItem(menu.empty)
        if menu.formations:
            self.formation.clear()
            self.formation.addItem("change formation to…", "")
            for f in menu.formations:
                self.formation.addItem(f, f)
            self.formation.setVisible(True)
            self.formation.setCurrentIndex(0)
        self.orders.setVisible(True)
        self.choices.setVisible(True)
        self.resolve_btn.setVisible(True)
        refs = [self.choices.item(i).data(Qt.UserRole) for i in range(self.choices.count())]
        # a piece picked on the map picks its melee; else the same order stays picked (a
        # choice taken for it re-draws the panel); else the first
        row = 0
        if reselected and menu.pick is not None and menu.pick in refs:
            row = refs.index(menu.pick)
        elif keep is not None and keep[0] == self._order and keep[1] in refs:
            row = refs.index(keep[1])
        elif menu.pick is not None and menu.pick in refs:
            row = refs.index(menu.pick)
        self.choices.setCurrentRow(row)
        fit_rows(self.choices, 7)
        self._show_odds()

    @property
    def _order(self):
        """(kind, who) of the orders panel, or None."""
        return (self._menu.kind, self._menu.who) if self._menu is not None else None

    def _clear_joiners(self) -> None:
        while self.joiners_lay.count():
            w = self.joiners_lay.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.joiners = []

    def current_action(self):
        item = self.choices.currentItem()
        if self._menu is None or item is None:
            return None
        joined = tuple(box.property("uid") for box in self.joiners if box.isChecked())
        return self._menu.action(item.data(Qt.UserRole), joined)

    def _show_odds(self) -> None:
        if self._order and self._order[0] == "melee":
            self._offer_joiners()
        action = self.current_action()
        target = getattr(action, "target", "") if isinstance(action, (Fire, Charge)) else ""
        self.aim.emit(getattr(action, "unit", "") if target else "", target)
        if action is None:
            self.odds.setText("")
            self.resolve_btn.setEnabled(False)
            self.choice_box.show_for(None)
            return
        why = self.doc.check(action)
        self.resolve_btn.setEnabled(not why)
        self.choice_box.show_for(None if why else action)
        if isinstance(action, (ChangeFormation, ChooseInitiative)):     # nothing to roll
            self.odds.setText(f"<span style='color:#c01010'>{why}</span>" if why else "")
            return
        try:
            self.odds.setText(odds_html(self.doc.ruleset.odds(self.doc.battle, action)) if not why
                              else f"<span style='color:#c01010'>{why}</span>")
        except BerthierError as exc:
            self.odds.setText(f"<i>{exc}</i>")

    def _offer_joiners(self) -> None:
        item = self.choices.currentItem()
        ref = item.data(Qt.UserRole) if item else None
        current = getattr(self, "_joiners_for", None)
        if ref == current:
            return
        self._clear_joiners()
        self._joiners_for = ref
        m = next((m for m in self.doc.ruleset.melees(self.doc.battle) if m.defender == ref), None)
        for uid in (m.may_join if m else ()):
            box = QCheckBox(f"{self.doc.battle.units[uid].name} joins the defence")
            box.setProperty("uid", uid)
            box.toggled.connect(lambda _v: self._show_odds())
            self.joiners_lay.addWidget(box)
            self.joiners.append(box)

    # ---- commands ------------------------------------------------------------------------------
    def resolve(self) -> None:
        action = self.current_action()
        if self.formation.isVisible() and self.formation.currentData():
            action = ChangeFormation(self._order[1], self.formation.currentData())
        if action is not None:
            self._joiners_for = None
            self.doc.execute(action)

    def start(self) -> None:
        self.doc.execute(StartBattle())
        self._bring_on()

    def next_phase(self) -> None:
        self._joiners_for = None
        self.doc.execute(EndPhase())
        self._bring_on()

    def _bring_on(self) -> None:
        """Reinforcements due at the start of their side's move come on at their entry,
        unless the umpire places them by hand (the Table-side panel)."""
        from manager.arrivals import BringOnArrival, due_arrivals
        if self.doc.arrivals_by_hand:
            return
        for a in due_arrivals(self.doc.battle, self.doc.ruleset):
            if not self.doc.execute(BringOnArrival(a.id)):
                break

    def _auto(self, play) -> None:
        pilot = Autopilot(self.doc.session, sides=set(self.doc.battle.sides), execute=self.doc.run,
                          bring_on=not self.doc.arrivals_by_hand)
        try:
            with self.doc.batch():
                play(pilot)
        except BerthierError as exc:
            self.doc.refused.emit(str(exc))
        self._joiners_for = None

    def auto_phase(self) -> None:
        side = self.doc.battle.state.active
        self._auto(lambda p: (setattr(p, "sides", {side}), p.play_phase()))

    def auto_turn(self) -> None:
        self._auto(lambda p: p.play_turn())

    def _dice_changed(self) -> None:
        self.doc.manual_dice = bool(self.dice.currentData())
