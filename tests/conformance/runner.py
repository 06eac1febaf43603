"""Run conformance cases: situations written from the rule texts, played with typed dice.

The format is docs/conformance.md. A case builds its battle (casebuild), is stepped on
to the text's phase with software dice (nothing before `start` is the case's business),
then plays its steps with the dice it gives through the engine's manual source: a step
that leaves dice unused, or asks for more than the case gave, fails. Every failure reads
as a finding: the case, its clause, what the text says and what the engine did.
"""
from __future__ import annotations

import re

from manager import game_actions as ga
from manager.dice import SeededSource
from manager.errors import DiceError, IllegalAction
from manager.session import Session

from .casebuild import BOX, CaseError, build_battle, facing_of, is_grid, point_of
from .cases import (ADVANCE_LIMIT, RULESETS, Case, CaseDice, Finding, case_files, load_cases,
                    load_clauses)
from .expect import Expectations
from .steps import StepKinds, initiative_faces
from .tables import (AFTER_STATE, FIRE_AS_STEP, FORMATION_IN_MOVE, MELEE_SETUP, MORALE,
                     SHARED_PHASES, STATE_MARKS, engine_formation, engine_phase)

__all__ = ["RULESETS", "Case", "Finding", "case_files", "load_cases", "load_clauses", "run_case"]


class Runner(StepKinds, Expectations):
    def __init__(self, case: Case):
        self.case = case
        self.data = case.data
        self.events: list = []
        self._acted: set = set()          # (turn, phase, side) where a step of the case acted

    # a failure message reads as a finding
    def fail(self, engine_did: str, step: int | None = None):
        d = self.data
        where = f" (step {step + 1}: {self._step_text(step)})" if step is not None else ""
        lines = [f"{self.case.test_id}{where}",
                 f"  clause: {d.get('clause', '?')}" + (f" [{d['section']}]" if d.get("section") else ""),
                 f"  the text says: {d.get('says', '?')}"]
        if d.get("reading"):
            lines.append(f"  reading: {d['reading']}")
        lines.append(f"  the engine: {engine_did}")
        if self.events:
            lines.append("  events: " + "; ".join(self.events[-12:]))
        raise Finding("\n".join(lines))

    def _step_text(self, i):
        s = self.steps[i]
        return ", ".join(f"{k}={v}" for k, v in s.items() if k != "expect" and k[0] != "_")

    def run(self) -> None:
        try:
            self.battle = build_battle(self.case.ruleset, self.data)
        except CaseError as exc:
            self.fail(f"the case cannot be set up: {exc}")
        self.session = Session(self.battle, SeededSource(1))
        self.ruleset = self.session.ruleset
        self.steps = [dict(s) for s in self.data.get("steps", [])]
        self._merge_dice()
        start = self.data.get("start", {})
        try:
            self.phase = engine_phase(self.ruleset, start.get("phase", self.ruleset.phases[0].name))
        except ValueError as exc:
            self.fail(f"the case cannot be set up: {exc}")
        first = self.steps[0] if self.steps else {}
        names = [p.name for p in self.ruleset.phases]
        # the first throw comes with the start where the text rolls once for the game
        # (Morschauser) or rolls first each turn; after earlier phases otherwise (Harman)
        rolls_at_start = "initiative" not in names or names[0] == "initiative"
        if first.get("action") == "initiative" and start.get("turn", 1) == 1 and rolls_at_start:
            self._start_with_roll(first)
            self.steps[0] = {**first, "_done": True}
        else:
            self._exec(ga.StartBattle(), SeededSource(1), None, "start the battle")
        if first.get("action") == "initiative" and self.phase == "initiative" \
                and not rolls_at_start:
            # the roll comes after earlier phases (Harman: after the artillery): the
            # case's first step throws it as the battle reaches it
            self._advance(start.get("side", "blue"), self.ruleset.phases[0].name,
                          int(start.get("turn", 1)))
        else:
            self._advance(start.get("side", "blue"), self.phase, int(start.get("turn", 1)))
        self._set_state()
        for i, step in enumerate(self.steps):
            self._step(i, step)
            if "expect" in step:
                self._expect(step["expect"], i)
        if "expect" in self.data:
            self._expect(self.data["expect"], None)

    def _merge_dice(self) -> None:
        """`morale` steps the engine resolves inside the step before them give their dice
        to it; `activate` steps give theirs to the same unit's next action."""
        for i, s in enumerate(self.steps):
            if s.get("action") == "morale" and s.get("dice") is not None:
                if i == 0:
                    continue
                j = i - 1                            # past steps merged into another
                while j > 0 and self.steps[j].get("_merged"):
                    j -= 1
                prev = self.steps[j]
                mine = s["dice"]
                if isinstance(prev.get("dice"), dict) and not isinstance(mine, dict):
                    unit = self.battle.units.get(s.get("unit", ""))    # the tester's side
                    mine = {unit.side if unit else "": mine}
                prev["dice"] = _join(prev.get("dice"), mine)
                s["_merged"] = True
            if s.get("action") == "fire" and i > 0 and s.get("expect_refused") is None \
                    and (self.ruleset.id not in FIRE_AS_STEP
                         or self.steps[i - 1].get("choice") == "shelter"):
                # (a sheltering battery's one shot is part of the charge that finds it)
                prev = self.steps[i - 1]             # the charged unit's reaction volley:
                if prev.get("action") == "charge" and prev.get("target") == s.get("unit") \
                        and prev.get("unit") == s.get("target") and not prev.get("_merged"):
                    prev["dice"] = _join(prev.get("dice"), s.get("dice"))   # shot in the charge
                    s["_merged"] = True
            if s.get("action") == "activate" and i + 1 < len(self.steps):
                nxt = self.steps[i + 1]
                if nxt.get("unit") == s.get("unit") and nxt.get("action") in (
                        "move", "fire", "charge", "change_formation"):
                    nxt["dice"] = _join(s.get("dice"), nxt.get("dice"))
                    nxt["_activation"] = True
                    s["_merged"] = True
            if (s.get("action") == "change_formation" and i + 1 < len(self.steps)
                    and self.ruleset.id in FORMATION_IN_MOVE):
                nxt = self.steps[i + 1]              # a formation change as part of a move
                if nxt.get("action") == "move" and nxt.get("unit") == s.get("unit") \
                        and not s.get("expect_refused") and not nxt.get("formation"):
                    nxt["formation"] = s["formation"]
                    s["_merged"] = True
            if s.get("action") == "activate" and not s.get("_merged"):
                s["_activation"] = True              # alone: a move in place, tested

    def _start_with_roll(self, step) -> None:
        self.battle.set_info(_with_first(self.battle.info, "roll"))
        self.session = Session(self.battle, SeededSource(1))
        self._exec(ga.StartBattle(), CaseDice(initiative_faces(step), self.battle), 0,
                   "start the battle with the initiative roll")
        if step.get("first") and "ChooseInitiative" in self.ruleset.phase(
                self.battle.state.phase).actions:
            self._exec(ga.ChooseInitiative(step["first"]), CaseDice([], self.battle), 0,
                       "choose who goes first")
        elif step.get("first") and self.battle.state.active != step["first"]:
            self.fail(f"{self.battle.state.active} goes first after the roll, not "
                      f"{step['first']}", 0)         # (the high roller simply goes first)

    def _exec(self, action, source, step, what):
        try:
            events = self.session.execute(action, source)
        except IllegalAction as exc:
            self.fail(f"refused to {what}: {exc}", step)
        except DiceError as exc:
            self.fail(f"{exc} (while trying to {what})", step)
        self.events += [e.describe() for e in events]
        return events

    def _advance(self, side: str, phase: str, turn: int) -> None:
        st = self.battle.state
        for _ in range(ADVANCE_LIMIT):
            st = self.battle.state
            if (st.phase, st.turn) == (phase, turn) and (st.active == side or phase == "initiative"):
                return                       # (an initiative phase is the winner's)
            if st.over:
                break
            self._exec(ga.EndPhase(), SeededSource(7), None,
                       f"step on to {side}'s {phase} phase of turn {turn}")
        self.fail(f"the battle never reached {side}'s {phase} phase of turn {turn} "
                  f"(stopped at {st.active}'s {st.phase}, turn {st.turn}"
                  f"{', over: ' + st.reason if st.over else ''})")

    def _set_state(self) -> None:
        """This turn's marks the case gives (moved, fired, disordered, ...)."""
        for u in self.data.get("units", []):
            top = self.ruleset.profile(u["kind"]).get("hits", 1)
            if u.get("lost") and int(u["lost"]) >= top:     # nothing left, still standing
                self.battle.update_unit(u["id"], hits=0)
            for key, value in (u.get("state") or {}).items():
                if key == "moved":
                    self.battle.update_unit(u["id"], moved=(2 if value is True else int(value)))
                elif key in ("fired", "disordered", "fell_back"):
                    self.battle.update_unit(u["id"], **{key: bool(value)})
                elif key == "fire_hits":
                    self.battle.update_unit(u["id"], fire_hits=int(value))
                elif key in STATE_MARKS.get(self.ruleset.id, {}):
                    name, make = STATE_MARKS[self.ruleset.id][key]
                    self.battle.mark_unit(u["id"], **{name: make(value, self.battle.state.turn)})
                else:
                    self.battle.mark_unit(u["id"], **{key: value})
        if self.ruleset.id in AFTER_STATE:
            AFTER_STATE[self.ruleset.id](self.battle)
        for l in self.data.get("leaders", []):
            if l.get("lost"):
                lead = self.battle.leaders[l["id"]]
                self.battle.update_leader(l["id"], hits=lead.max_hits - int(l["lost"]))
        self.session._snapshots = {0: self.battle.snapshot()}

    # ---- one step ------------------------------------------------------------------------
    def _step(self, i: int, step: dict) -> None:
        verb = step.get("action")
        if step.get("_done") or step.get("_merged") or verb in ("umpire",):
            return
        if verb in ("end_phase", "end_turn", "initiative"):
            return self._flow(i, step, verb)
        if verb == "morale":                         # nothing merged it: nothing to do
            if step.get("dice") and self.ruleset.id in MORALE:
                return self._morale_alone(i, step)
            if step.get("dice"):
                self.fail("the runner cannot play a morale test on its own (no step "
                          "before it to resolve it)", i)
            return
        self._step_phase(i, step)
        self._choice(i, step)
        charged = any(s.get("action") == "charge" and s.get("unit") in (step.get("attackers")
                                                                       or ()) for s in self.steps[:i])
        if verb == "melee" and self.ruleset.id in MELEE_SETUP and step.get("defenders") and \
                not charged and \
                not any(m.defender == step["defenders"][0] for m in self.ruleset.melees(self.battle)):
            MELEE_SETUP[self.ruleset.id](self.battle, list(step.get("attackers") or ()),
                                         step["defenders"][0])
        self._to_side_of(step, i)
        action = self._action(i, step)
        if verb == "charge" and step.get("leader") and step.get("influence") is not None:
            self._commit_general(i, step)
        if verb == "melee" and step.get("expect_refused") is None:
            self._engage(i, step, action)
            if step.get("reroll") == []:
                self._decline_rerolls(i, step)
        refused = step.get("expect_refused")
        if refused is not None:
            words = [w for w in re.split(r"\W+", str(refused).lower()) if w]
            try:
                self.session.check(action)
            except IllegalAction as exc:
                reason = str(exc).lower()
                missing = [w for w in words if w not in reason]
                if missing:
                    self.fail(f"refused, but the reason {str(exc)!r} does not say "
                              f"{' '.join(missing)!r}", i)
                return
            if step.get("_activation"):
                return self._failed_activation(i, step, action, words)
            self.fail(f"allowed {action.describe()}, which the text forbids "
                      f"(expected a refusal: {refused!r})", i)
        source = CaseDice(step.get("dice"), self.battle)
        st = self.battle.state
        self._acted.add((st.turn, st.phase, st.active))
        self._exec(action, source, i, action.describe())
        self._reroll_with_left(i, step, source)
        if source.left():
            self.fail(f"left dice unused: {source.left()} (it asked for: "
                      f"{'; '.join(source.asked) or 'no dice'})", i)

    def _reroll_with_left(self, i, step, source) -> list:
        """An activation step's dice are the test, then the general's re-roll if one is
        taken: where the engine leaves the re-roll to the player (d3 `general_reroll =
        choose`) and the step gives a die more, the first general able to re-rolls."""
        if not (step.get("_activation") and source.left() and step.get("unit")):
            return []
        from manager.actions import action_from_dict
        unit = self.battle.units.get(step["unit"])
        for lid in sorted(l.id for l in self.battle.live_leaders(unit.side)):
            try:
                act = action_from_dict({"action": "RerollActivation", "leader": lid,
                                        "unit": unit.id})
                self.session.check(act)
            except (IllegalAction, KeyError, ValueError, TypeError):
                continue
            return self._exec(act, source, i, act.describe())
        return []

    def _to_side_of(self, step, i) -> None:
        """In a text whose phases are both sides' in turn, a step with a piece of the side
        whose part of this phase is still to come goes on to that part."""
        st = self.battle.state
        if self.ruleset.id not in SHARED_PHASES:
            return
        if st.phase == "initiative":                 # the order chosen: the units act
            self._exec(ga.EndPhase(), CaseDice([], self.battle), i, "begin the turn's actions")
            st = self.battle.state
        # only once the first side has acted in this phase: before, the step is its own
        # (a refusal for the side that goes second, say)
        if len(st.order) < 2 or st.active != st.order[0] or \
                (st.turn, st.phase, st.active) not in self._acted:
            return
        piece = (self.battle.units.get(step.get("unit", "")) or
                 self.battle.leaders.get(step.get("leader", "")))
        if piece is not None and piece.side == st.order[1]:
            phase = st.phase
            self._exec(ga.EndPhase(), CaseDice([], self.battle), i,
                       f"go on to {piece.side}'s part of the {phase} phase")
            if (self.battle.state.phase, self.battle.state.active) != (phase, piece.side):
                self.fail(f"the {phase} phase has no part for {piece.side} after "
                          f"{st.active}'s", i)

    def _where(self, value, what):
        if isinstance(value, dict):
            return point_of(self.ruleset, value, what)
        if is_grid(self.ruleset):
            return ((value[0] + 0.5) * BOX, (value[1] + 0.5) * BOX)
        return (float(value[0]), float(value[1]))

    def _action(self, i: int, s: dict):
        verb = s.get("action")
        if s.get("_action"):                          # a ruleset's own action (a choice)
            from manager.actions import action_from_dict
            return action_from_dict({"action": s["_action"], "unit": s["unit"]})
        try:
            if verb == "move":
                u = self._unit(s["unit"], i)
                facing = facing_of(s["facing"], "move") if "facing" in s else u.facing
                return ga.MoveUnit(u.id, self._where(s["to"], "move"), facing,
                                   engine_formation(self.ruleset, s.get("formation", "")))
            if verb == "change_formation":
                return ga.ChangeFormation(s["unit"], engine_formation(self.ruleset,
                                                                      s["formation"]))
            if verb == "fire":
                return ga.Fire(s["unit"], s["target"])
            if verb == "charge":
                return ga.Charge(s["unit"], s["target"])
            if verb == "melee":
                defenders = list(s.get("defenders") or [])
                if not defenders:
                    self.fail("a melee step needs defenders", i)
                return ga.ResolveMelee(defenders[0], tuple(s.get("joiners") or ()),
                                       **s.get("_fields", {}))
            if verb == "rally":
                return ga.Rally(s.get("leader") or "", s["unit"], s.get("influence"))
            if verb == "move_leader":
                return ga.MoveLeader(s["leader"], self._where(s["to"], "move_leader"))
            if verb == "reroll":                     # a general's chosen re-roll (d3)
                from manager.actions import action_from_dict
                return action_from_dict({"action": "RerollActivation", "leader": s["leader"],
                                         "unit": s["unit"]})
            if verb == "follow_me":                   # a commander joins to lead (quickplay)
                from manager.actions import action_from_dict
                return action_from_dict({"action": "FollowMe", "leader": s["leader"],
                                         "unit": s["unit"]})
            if verb == "activate":                    # activation alone: a move in place
                u = self._unit(s["unit"], i)
                return ga.MoveUnit(u.id, u.pos, u.facing)
        except KeyError as exc:
            self.fail(f"the case's {verb} step lacks {exc}", i)
        self.fail(f"the runner has no step {verb!r}", i)

    def _unit(self, uid, i):
        u = self.battle.units.get(uid)
        if u is None:
            self.fail(f"there is no unit {uid!r} in the case", i)
        return u

    # ---- expectations ------------------------------------------------------------------

def _join(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) or isinstance(b, dict):
        a = a if isinstance(a, dict) else {"": a}
        b = b if isinstance(b, dict) else {"": b}
        out = {k: list(v) for k, v in a.items()}
        for k, v in b.items():
            out[k] = out.get(k, []) + list(v)
        return out
    return list(a) + list(b)


def _with_first(info, first):
    from dataclasses import replace
    return replace(info, first_side=first)


def run_case(case: Case) -> None:
    Runner(case).run()

