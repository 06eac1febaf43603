"""What the selected piece may do in this phase, as the turn runner lists it: a title, the
legal choices (each a label and what it names), and the order each choice makes.

No widgets here: the lists come from asking the engine whether each order would be
legal (`doc.check`), so the dock knows no rules and these lists can be tested alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from manager.game_actions import (ChangeFormation, Charge, ChooseInitiative, Fire, Rally,
                                  ResolveMelee)


@dataclass
class OrderMenu:
    kind: str                         # fire, charge, rally, rally_unit, formation, initiative, melee
    who: str | None                   # the unit or leader giving it (None: the side, a melee)
    title: str
    items: list = field(default_factory=list)      # (label, ref): ref names the choice
    empty: str = ""                   # the line shown when there is no choice
    pick: object = None               # the ref to pick first (a melee of the selection)
    formations: tuple = ()            # formation changes offered beside fire orders

    def action(self, ref, joiners: tuple = ()):
        """The order a choice makes; `joiners` are the defenders ticked to join a melee."""
        if not ref:
            return None
        kind, who = self.kind, self.who
        if isinstance(ref, str) and ref.startswith("charge:"):
            return Charge(who, ref.split(":", 1)[1])
        if kind == "fire":
            return Fire(who, ref)
        if kind == "rally":
            return Rally(who, ref)
        if kind == "charge":
            return Charge(who, ref)
        if kind == "rally_unit":
            return Rally("" if ref == "-" else ref, who)
        if kind == "formation":
            return ChangeFormation(who, ref)
        if kind == "initiative":
            return ChooseInitiative(ref)
        return ResolveMelee(ref, tuple(joiners))


def order_menu(doc, b, rs, selection: list) -> OrderMenu | None:
    """The orders the phase allows the selection (None: nothing of the active side is
    selected that could act, or the phase takes no order)."""
    st = b.state
    allowed = rs.phase(st.phase).actions
    sel = selection[0] if len(selection) == 1 else None
    unit = b.units.get(sel) if sel else None
    leader = b.leaders.get(sel) if sel else None
    ours = unit is not None and unit.side == st.active
    if "ChooseInitiative" in allowed:
        return _initiative(doc, b)
    if "ResolveMelee" in allowed and (rs.melees(b) or not {"Fire", "Charge"} & allowed):
        return _melees(b, rs, selection)
    if "Fire" in allowed and ours:
        menu = _fire(doc, b, unit, "ChangeFormation" in allowed)
        if "Charge" in allowed:              # rulesets where a unit shoots or charges
            _add_charges(doc, b, unit, menu)
        return menu
    if "Rally" in allowed and leader is not None and leader.side == st.active:
        return _rally(doc, b, leader)
    if "Charge" in allowed and ours:
        return _targets(doc, b, unit, "charge", "charge", Charge,
                        f"(no enemy {unit.name} may charge: drag it to move)")
    if "Rally" in allowed and ours:
        return _unit_rally(doc, b, unit)
    if "ChangeFormation" in allowed and ours:
        return _formations(doc, unit)
    return None


def _targets(doc, b, unit, kind: str, verb: str, action_cls, empty: str = "") -> OrderMenu:
    """Orders against an enemy unit (a charge, say): the legal targets."""
    menu = OrderMenu(kind, unit.id, f"<b>{unit.name}</b>: {verb}",
                     empty=empty or f"(no enemy {unit.name} may {verb})")
    for t in b.live_units(b.enemy_of(unit.side)):
        if not doc.check(action_cls(unit.id, t.id)):
            menu.items.append((f"{t.name} ({t.hits}/{t.max_hits})", t.id))
    return menu


def _fire(doc, b, unit, formations: bool) -> OrderMenu:
    menu = _targets(doc, b, unit, "fire", "fire at", Fire, "(no target in range, arc and sight)")
    if formations and len(doc.ruleset.formations) > 1 and unit.moved == 0:
        menu.formations = tuple(f for f in doc.ruleset.formations if f != unit.formation
                                and not doc.check(ChangeFormation(unit.id, f)))
    return menu


def _add_charges(doc, b, unit, menu: OrderMenu) -> None:
    """Charge targets added to a fire list: the ref says which order."""
    for t in b.live_units(b.enemy_of(unit.side)):
        if not doc.check(Charge(unit.id, t.id)):
            menu.items.append((f"charge {t.name} ({t.hits}/{t.max_hits})", f"charge:{t.id}"))
    menu.title = f"<b>{unit.name}</b>: fire at, or charge"
    menu.empty = "(no target in range, arc and sight, and none it may charge)"


def _unit_rally(doc, b, unit) -> OrderMenu:
    """Rulesets where each unit checks to rally: with or without a general's influence."""
    menu = OrderMenu("rally_unit", unit.id, f"<b>{unit.name}</b>: rally check",
                     empty=f"({unit.name} has no rally check to take)")
    if not doc.check(Rally("", unit.id)):
        menu.items.append(("by its own officers", "-"))
        for l in b.live_leaders(unit.side):
            if not doc.check(Rally(l.id, unit.id)):
                menu.items.append((f"with {l.name}'s influence (quality {l.quality})", l.id))
    return menu


def _formations(doc, unit) -> OrderMenu:
    menu = OrderMenu("formation", unit.id,
                     f"<b>{unit.name}</b>: change formation (or drag it to move)",
                     empty="(no formation change possible now)")
    for f in doc.ruleset.formations:
        if f != unit.formation and not doc.check(ChangeFormation(unit.id, f)):
            menu.items.append((f.replace("_", " "), f))
    return menu


def _initiative(doc, b) -> OrderMenu:
    """The winner of the initiative chooses to go first or second (Next phase keeps
    the order as it stands)."""
    st = b.state
    chooser = b.sides[st.active].name if st.active in b.sides else "The winner"
    now = " then ".join(b.sides[s].name for s in st.order if s in b.sides)
    menu = OrderMenu("initiative", None,
                     f"<b>Initiative</b>: {chooser} chooses who goes first (now: {now}); "
                     f"Resolve to choose, Next phase to go on",
                     empty="(the order is fixed this turn)")
    for sid, side in b.sides.items():
        if not doc.check(ChooseInitiative(sid)):
            first = "go first" if sid == st.active else "go second"
            menu.items.append((f"{chooser}: {first} ({side.name} moves first)", sid))
    return menu


def _melees(b, rs, selection: list) -> OrderMenu:
    menu = OrderMenu("melee", None,
                     "<b>Melees to resolve</b> (pick one; tick defenders who join)",
                     empty="(no melee this phase)")
    for m in rs.melees(b):
        d = b.units.get(m.defender) or b.leaders.get(m.defender)
        names = ", ".join(b.units[a].name for a in m.attackers)
        menu.items.append((f"{names} → {d.name}", m.defender))
        if m.defender in selection or set(m.attackers) & set(selection):
            menu.pick = m.defender
    return menu


def _rally(doc, b, leader) -> OrderMenu:
    menu = OrderMenu("rally", leader.id, f"<b>{leader.name}</b>: rally",
                     empty="(no unit of his within reach needs rallying)")
    for u in b.live_units(leader.side):
        if not doc.check(Rally(leader.id, u.id)):      # the rules say who
            menu.items.append((f"{u.name} ({u.hits}/{u.max_hits})", u.id))
    return menu
