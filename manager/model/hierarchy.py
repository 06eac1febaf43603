"""The command hierarchy: a networkx DiGraph army -> command -> unit, leaders at nodes.

Immutable like the rest of the model: an edit returns a new Hierarchy, so a snapshot
of the battle can share it. Lookups the rules make every move (a unit's command, a
command's units) are indexed once when the hierarchy is built.
"""
from __future__ import annotations

from typing import Callable, Iterable

import networkx as nx


def army_node(side: str) -> str:
    return f"army:{side}"


def command_node(cid: str) -> str:
    return f"cmd:{cid}"


def unit_node(uid: str) -> str:
    return f"unit:{uid}"


class Hierarchy:
    __slots__ = ("graph", "_command_of", "_units_of", "_commands_of", "_side_of_command",
                 "_leader_at", "_node_of_leader")

    def __init__(self, graph: nx.DiGraph | None = None):
        self.graph = graph if graph is not None else nx.DiGraph()
        self._index()

    def _index(self) -> None:
        g = self.graph
        self._command_of: dict[str, str] = {}
        self._units_of: dict[str, tuple[str, ...]] = {}
        self._commands_of: dict[str, tuple[str, ...]] = {}
        self._side_of_command: dict[str, str] = {}
        self._leader_at: dict[str, str] = {}
        self._node_of_leader: dict[str, tuple[str, str]] = {}
        for node, data in g.nodes(data=True):
            kind = data["kind"]
            if kind == "army":
                side = data["ref"]
                cmds = tuple(g.nodes[c]["ref"] for c in g.successors(node))
                self._commands_of[side] = cmds
                for c in cmds:
                    self._side_of_command[c] = side
            elif kind == "command":
                cid = data["ref"]
                units = tuple(g.nodes[u]["ref"] for u in g.successors(node))
                self._units_of[cid] = units
                for u in units:
                    self._command_of[u] = cid
            leader = data.get("leader")
            if leader:
                self._leader_at[node] = leader
                self._node_of_leader[leader] = (kind, data["ref"])

    # ---- queries -------------------------------------------------------------
    def sides(self) -> tuple[str, ...]:
        return tuple(self._commands_of)

    def command_of(self, uid: str) -> str:
        return self._command_of[uid]

    def find_command(self, uid: str) -> str:
        """The unit's command id, or '' when it belongs to none."""
        return self._command_of.get(uid, "")

    def units_of(self, cid: str) -> tuple[str, ...]:
        return self._units_of.get(cid, ())

    def commands_of(self, side: str) -> tuple[str, ...]:
        return self._commands_of.get(side, ())

    def side_of_command(self, cid: str) -> str:
        return self._side_of_command[cid]

    def leader_of_command(self, cid: str) -> str:
        return self._leader_at.get(command_node(cid), "")

    def general_of(self, side: str) -> str:
        return self._leader_at.get(army_node(side), "")

    def leader_node(self, lid: str) -> tuple[str, str]:
        """('command', id) or ('army', side) for the node a leader commands."""
        return self._node_of_leader[lid]

    def find_leader_node(self, lid: str) -> tuple[str, str]:
        """Like leader_node, but ('', '') for a leader who commands nothing."""
        return self._node_of_leader.get(lid, ("", ""))

    def units_led_by(self, lid: str) -> tuple[str, ...]:
        kind, ref = self._node_of_leader.get(lid, ("", ""))
        if kind == "command":
            return self.units_of(ref)
        if kind == "army":
            return tuple(u for c in self.commands_of(ref) for u in self.units_of(c))
        return ()

    def leader_of_unit(self, uid: str) -> str:
        return self.leader_of_command(self._command_of[uid])

    def units_within(self, lid: str, radius: float, where: Callable[[str], object],
                     leader_at: object, distance: Callable[[object, object], float],
                     among: Iterable[str] | None = None) -> list[str]:
        """The leader's units no farther than `radius` from him, by the ruleset's measure
        (only those `among`, when given: a few of his, in his order)."""
        return [u for u in (self.units_led_by(lid) if among is None else among)
                if distance(leader_at, where(u)) <= radius]

    @staticmethod
    def removed_count(units: Iterable[str], eliminated: Callable[[str], bool]) -> int:
        return sum(1 for u in units if eliminated(u))

    def losses_shake(self, cid: str, eliminated: Callable[[str], bool],
                     fraction: float = 0.5) -> bool:
        """Has the command lost `fraction` of its units (the Shaken threshold)?"""
        units = self.units_of(cid)
        return bool(units) and self.removed_count(units, eliminated) >= fraction * len(units)

    def army_broken(self, side: str, shaken: Iterable[str], rule: str = "all") -> bool:
        """All (or, for large battles, half) of an army's commands Shaken."""
        cmds = [c for c in self.commands_of(side) if self.units_of(c)]
        if not cmds:
            return False
        shaken = shaken if isinstance(shaken, (set, frozenset)) else set(shaken)
        n = sum(1 for c in cmds if c in shaken)         # (a set once, not once a command)
        return n >= len(cmds) if rule == "all" else 2 * n >= len(cmds)

    # ---- edits: each returns a new Hierarchy ------------------------------------
    def _edited(self) -> nx.DiGraph:
        return self.graph.copy()

    def with_command(self, side: str, cid: str, leader: str = "") -> "Hierarchy":
        g = self._edited()
        g.add_node(command_node(cid), kind="command", ref=cid, leader=leader)
        g.add_edge(army_node(side), command_node(cid))
        return Hierarchy(g)

    def with_unit(self, cid: str, uid: str) -> "Hierarchy":
        g = self._edited()
        g.add_node(unit_node(uid), kind="unit", ref=uid)
        g.add_edge(command_node(cid), unit_node(uid))
        return Hierarchy(g)

    def with_units(self, placed, led: tuple[str, str] | None = None) -> "Hierarchy":
        """with_unit for many (command id, unit id) pairs at once, then (command id,
        leader id) `led` as with_command_leader: one copy of the graph and one index for
        a whole arrival, the same graph as those edits one by one."""
        g = self._edited()
        for cid, uid in placed:
            g.add_node(unit_node(uid), kind="unit", ref=uid)
            g.add_edge(command_node(cid), unit_node(uid))
        if led is not None:
            g.nodes[command_node(led[0])]["leader"] = led[1]
        return Hierarchy(g)

    def without_unit(self, uid: str) -> "Hierarchy":
        g = self._edited()
        g.remove_node(unit_node(uid))
        return Hierarchy(g)

    def without_command(self, cid: str) -> "Hierarchy":
        """The command and its units gone (the caller drops the records)."""
        g = self._edited()
        g.remove_nodes_from([unit_node(u) for u in self.units_of(cid)] + [command_node(cid)])
        return Hierarchy(g)

    def with_command_leader(self, cid: str, lid: str) -> "Hierarchy":
        """The command led by `lid` ('' for nobody: a leader still to arrive)."""
        g = self._edited()
        g.nodes[command_node(cid)]["leader"] = lid
        return Hierarchy(g)

    def with_general(self, side: str, lid: str) -> "Hierarchy":
        g = self._edited()
        g.nodes[army_node(side)]["leader"] = lid
        return Hierarchy(g)

    def reassigned(self, uid: str, cid: str) -> "Hierarchy":
        g = self._edited()
        old = command_node(self._command_of[uid])
        g.remove_edge(old, unit_node(uid))
        g.add_edge(command_node(cid), unit_node(uid))
        return Hierarchy(g)

