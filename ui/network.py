"""File > Host this battle and File > Join battle: the window's side of a shared battle.

The engine's Host and Laptop (manager.net, asyncio) run on the app's own event loop
(qasync, see app.event_loop); this controller starts them, binds their events to the
window, and keeps the lines the title bar, the turn runner and the log show about the
link: hosting where and to whom, or joined to whom and in what state, who is still
acting in the phase, and the host's refusals with their reasons.
"""
from __future__ import annotations

import asyncio
import socket
from html import escape

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from manager.errors import BerthierError

from .net_dialogs import ClaimDialog, HostDialog, JoinDialog
from .wording import action_text

STATE_WORDS = {"joined": "connected", "connecting": "connecting", "reconnecting": "reconnecting",
               "refused": "refused", "closed": "disconnected", "disconnected": "disconnected"}


def acting_text(info: dict) -> str:
    """'Still acting: Sector A, Sector B · done: Sector C' from the host's acting message."""
    if not info or info.get("over"):
        return ""
    waiting, done = info.get("waiting", []), info.get("done", [])
    if info.get("unheld") and not waiting:
        return (f"Nobody holds {info['unheld']}: waiting for a laptop to claim it "
                f"(or the host's umpire to end the phase)")
    text = "Still acting: " + (", ".join(waiting) if waiting else "nobody (the phase ends)")
    return text + (f" · done: {', '.join(done)}" if done else "")


class Network(QObject):
    def __init__(self, window, menu):
        super().__init__(window)
        self.window = window
        self.host = self.advertiser = self.laptop = self.dialog = self.claim_box = None
        self.acting: dict = {}
        self.refusals: list[str] = []
        self.announced = ""
        self._tasks: set = set()
        self._unsubscribe = None
        self._loop = None                 # the app's loop, once a network task has run on it
        self.host_action = window._action(menu, "&Host this battle…", self.host_battle, None,
                                          "Let other laptops join this battle on the local "
                                          "network; players' phones get a page of the map")
        self.join_action = window._action(menu, "&Join battle…", self.join_battle, None,
                                          "Follow a battle hosted on another laptop and act "
                                          "for some of its commands")
        self.stop_action = window._action(menu, "Stop hosting", lambda: self.spawn(self.stop()),
                                          None, "Close the hosted battle to the laptops, or "
                                          "leave the battle this window follows")
        self.claim_action = window._action(menu, "&Claim commands…", self.claim_dialog, None,
                                           "Claim more commands of the hosted battle for this "
                                           "laptop, or give some up")
        self.claim_action.setEnabled(False)
        self.stop_action.setEnabled(False)

    def spawn(self, coro):
        self._loop = asyncio.get_event_loop() if self._loop is None else self._loop
        task = asyncio.ensure_future(coro, loop=self._loop)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---- what the window shows ----------------------------------------------------------
    def title_note(self) -> str:
        if self.host is not None:
            n = sum(1 for s in self.host.seats.values() if s.connected)
            return f" — hosting on {self.host.address} ({n} laptop{'s' if n != 1 else ''})"
        return ""

    def status_html(self) -> str:
        """Lines for the turn runner and the log: the link, who acts, the last refusal."""
        lines = []
        doc = self.window.doc
        b = doc.battle if doc is not None else None

        def names(cids):
            return ", ".join(b.commands[c].name if b and c in b.commands else c
                             for c in sorted(cids)) or "no commands"

        if self.host is not None:
            lines.append(f"<b>Hosting</b> on {escape(self.host.address)}, code "
                         f"<b>{escape(self.host.code)}</b>")
            for seat in self.host.seats.values():
                state = "connected" if seat.connected else "dropped"
                lines.append(f"{escape(seat.name)}: {escape(names(seat.commands))} ({state})")
        elif self.laptop is not None:
            state = STATE_WORDS.get(self.laptop.state, self.laptop.state)
            colour = {"connected": "#1b6e1b", "refused": "#b01818"}.get(state, "#b06000")
            lines.append(f"<b>Joined</b> to {escape(getattr(doc, 'host_label', '?'))} as "
                         f"{escape(self.laptop.name)}: <b style='color:{colour}'>{state}</b>"
                         + (f" ({escape(self._detail)})" if self._detail else ""))
            lines.append("Acting for: " + escape(names(self.laptop.commands)))
        else:
            return ""
        if acting_text(self.acting):
            lines.append(escape(acting_text(self.acting)))
        if self.refusals:
            lines.append(f"<span style='color:#b01818'>Refused: {escape(self.refusals[-1])}</span>")
        return "<br>".join(lines)

    def _changed(self) -> None:
        self.stop_action.setEnabled(self.host is not None or self.laptop is not None)
        self.claim_action.setEnabled(self.joined())
        self.stop_action.setText("Leave the hosted battle" if self.laptop is not None
                                 else "Stop hosting")
        doc = self.window.doc
        if doc is not None:
            doc.network_status = self.status_html()
            doc.network_line = doc.network_status.split("<br>", 1)[0]
            doc.network_title = self.title_note()
            doc.changed.emit()

    # ---- hosting ---------------------------------------------------------------------------
    def host_battle(self) -> None:
        if self.host is not None:
            self._show_host_dialog()
            return
        if self.laptop is not None:
            self.window.show_error("Cannot host", "This window follows a battle hosted "
                                   "elsewhere; open a battle of your own to host it.")
            return
        if self.window.doc is None:
            return
        self.spawn(self.start_host())

    async def start_host(self, port: int = 0, bind: str | None = None) -> None:
        from manager.net.host import Host
        doc = self.window.doc
        host = Host(doc.session, port=port, bind=bind)
        try:
            await host.start()
        except (OSError, BerthierError) as exc:
            self.window.show_error("Cannot host this battle", str(exc))
            return
        self.host = host
        host.add_listener(self._host_event)
        self._unsubscribe = doc.session.bus.subscribe(self._host_log)
        self.announced = "Announcing this battle on the local network…"
        self._changed()
        self._show_host_dialog()
        from manager.net.discovery import HostAnnouncement
        announcement = HostAnnouncement(host, doc.ruleset.name)
        self.announced = await announcement.start()              # zeroconf probes ~2 s
        if self.host is not host:         # hosting stopped while zeroconf was probing
            await announcement.close()
            return
        self.advertiser = announcement if announcement.advertiser is not None else None
        if isinstance(self.dialog, HostDialog):
            self.dialog.announced.setText(self.announced)

    def _host_log(self, kind: str, entry) -> None:
        """An entry the host's session made for a laptop (an order, a phase the laptops
        ended): an undo step here like the umpire's own, and the window redrawn."""
        doc = self.window.doc
        if kind == "executed" and doc is not None and not doc.running and doc.session.entries \
                and doc.session.entries[-1] is entry:
            from .document import ActionCommand
            text = action_text(doc.battle, entry.action)
            doc.undo_stack.push(ActionCommand(doc, entry.index, entry.index + 1,
                                              f"{text} (from a laptop)"))
            doc.model_changed()

    def _show_host_dialog(self) -> None:
        h = self.host
        self.dialog = HostDialog(self.window, h.address, h.code, h.players_url, self.announced)
        self.dialog.show()

    def _host_event(self, kind: str, **d) -> None:
        if kind == "acting":
            self.acting = d
        elif kind == "refused":
            self.refusals.append(f"{d.get('laptop', '?')}: {d.get('reason', '')}")
            self.window.statusBar().showMessage(f"Refused {self.refusals[-1]}", 9000)
        elif kind in ("joined", "left"):
            self.window.statusBar().showMessage(f"{d.get('laptop')} {kind}", 6000)
        elif kind == "undo_asked":
            answer = QMessageBox.question(
                self.window, "A laptop asks to undo",
                f"{d.get('laptop')} asks to take the log back to entry {d.get('to')}"
                + (f": {d['why']}" if d.get("why") else "") + ". Allow it?")
            if answer == QMessageBox.Yes and self.window.doc is not None:
                self.window.doc.undo_to(int(d["to"]))   # through the undo stack, so redo works
            self.host.answer_undo(d["ask"], answer == QMessageBox.Yes, "the host's umpire said no")
        self._changed()

    def document_replaced(self, doc) -> None:
        """The window shows another battle: the hosted or joined one is let go."""
        hosting = self.host is not None and doc.session is not self.host.session
        joined = self.laptop is not None and getattr(doc, "laptop", None) is not self.laptop \
            and getattr(self.dialog, "isVisible", lambda: False)() is False
        if hosting or joined:
            self.shutdown()

    def shutdown(self) -> None:
        """The window closes: stop hosting or leave, on the loop if it still runs."""
        if self.host is None and self.laptop is None:
            return
        if self._loop is None or self._loop.is_closed():
            return                        # no loop left to say goodbye on: sockets just close
        self.spawn(self.stop())           # runs as soon as the loop does

    async def stop(self) -> None:
        """Stop hosting or leave the host (the window closes or opens another battle)."""
        host, ad, laptop = self.host, self.advertiser, self.laptop
        self.host = self.advertiser = self.laptop = None
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        if ad is not None:
            await ad.close()
        if host is not None:
            await host.stop()
        if laptop is not None:
            await laptop.close(leave=True)
        self.acting, self._detail = {}, ""
        try:
            self._changed()
        except RuntimeError:              # the window is already gone (closed with the app)
            pass

    # ---- joining ---------------------------------------------------------------------------
    _detail = ""

    def join_battle(self) -> None:
        if self.host is not None or self.laptop is not None:
            self.window.show_error("Cannot join", "This window is already "
                                   + ("hosting" if self.host else "joined to") + " a battle.")
            return
        self.dialog = dialog = JoinDialog(self.window, socket.gethostname().split(".")[0])
        dialog.connect_requested.connect(lambda a, c, n: self.spawn(self.connect(a, c, n)))
        dialog.join_requested.connect(lambda cmds: self.spawn(self.claim(cmds)))
        dialog.finished.connect(lambda result: self.spawn(self._dialog_closed(result)))
        self.spawn(self._watch(dialog))
        dialog.show()

    async def _watch(self, dialog) -> None:
        from manager.net.discovery import Watcher
        self._watcher = Watcher(on_change=dialog.show_hosts)
        try:
            await self._watcher.start()
        except Exception as exc:                 # no multicast here: typing the address works
            dialog.discovery_failed(str(exc))
            self._watcher = None

    async def _dialog_closed(self, result) -> None:
        watcher, self._watcher = getattr(self, "_watcher", None), None
        if watcher is not None:
            await watcher.close()
        if not result and self.laptop is not None and self.window.doc is not None \
                and getattr(self.window.doc, "laptop", None) is not self.laptop:
            laptop, self.laptop = self.laptop, None   # connected but never joined: let go
            await laptop.close(leave=True)

    async def connect(self, address: str, code: str, name: str) -> bool:
        """Step one: connect claiming nothing, receive the battle, offer its commands."""
        from manager.net.laptop import JoinRefused, Laptop
        dialog = self.dialog
        try:
            laptop = Laptop(address, code, [], name=name)
            await laptop.start()
        except (JoinRefused, BerthierError, OSError) as exc:
            dialog.show_status(f"Refused: {exc}", error=True)
            return False
        self.laptop = laptop
        taken = {}
        for seat in laptop.acting_info.get("laptops", []):
            for cid in seat.get("commands", []):
                taken[cid] = seat.get("name", "?")
        dialog.offer_commands(laptop.session.battle, taken)
        return True

    async def claim(self, commands: list[str]) -> bool:
        """Step two: claim the commands ticked; the window then follows the host."""
        from .joined_document import JoinedDocument
        laptop = self.laptop
        try:
            await claim_commands(laptop, commands)
        except BerthierError as exc:
            self.dialog.show_status(f"Refused: {exc}", error=True)
            return False
        doc = JoinedDocument(laptop, f"{laptop.host}:{laptop.port}")
        laptop.add_listener(self._laptop_event)
        self.window.set_document(doc)
        self._changed()
        self.dialog.accept()
        return True

    def joined(self) -> bool:
        return self.laptop is not None and getattr(self.window.doc, "laptop", None) is self.laptop

    # ---- claiming more commands (or fewer) once joined ------------------------------------
    def claim_dialog(self) -> None:
        if not self.joined():
            return
        laptop, mine = self.laptop, set(self.laptop.commands)
        taken = {cid: seat.get("name", "?") for seat in laptop.acting_info.get("laptops", [])
                 for cid in seat.get("commands", []) if cid not in mine}
        self.claim_box = dialog = ClaimDialog(self.window, laptop.session.battle, mine, taken)
        dialog.apply_requested.connect(lambda c, r: self.spawn(self.change_claims(c, r)))
        dialog.show()

    async def change_claims(self, claim: list[str], release: list[str]) -> bool:
        """Release first (nothing is lost if the claim is then refused), then claim; the
        dialog stays open with the host's reason when it says no."""
        dialog, laptop = self.claim_box, self.laptop
        try:
            if release:
                await asyncio.wait_for(laptop.release(release), 10)
            if claim:
                await claim_commands(laptop, claim)
        except (BerthierError, asyncio.TimeoutError) as exc:
            dialog.show_status(f"Refused: {exc or 'the host did not answer'}", error=True)
            dialog.held = set(laptop.commands)
            self._changed()
            return False
        self._changed()
        dialog.accept()
        return True

    def _laptop_event(self, kind: str, **d) -> None:
        if kind == "state":
            self._detail = d.get("detail", "") if d.get("state") != "joined" else ""
        elif kind == "acting":
            self.acting = d
        elif kind == "reset":                 # the host sent the battle anew: follow it
            from .joined_document import JoinedDocument
            self.window.set_document(JoinedDocument(self.laptop, self.window.doc.host_label))
        elif kind == "refused":
            self.refusals.append(d.get("reason", ""))
        elif kind in ("error", "notice"):
            self.window.statusBar().showMessage(d.get("reason") or d.get("text", ""), 9000)
        self._changed()


async def claim_commands(laptop, commands: list[str], timeout: float = 10.0) -> None:
    """Ask the host for these commands; BerthierError with its reason if it says no."""
    try:
        await laptop.claim(commands, timeout)
    except asyncio.TimeoutError:
        raise BerthierError(f"the host did not answer the claim in {timeout:g} s") from None
