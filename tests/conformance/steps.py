"""The runner's steps of particular kinds: a general committed, rerolls declined, an
engagement, a failed activation, morale alone, a step of a phase, a player's choice, the
flow of a phase and the initiative left to the engine."""
from __future__ import annotations

from manager import game_actions as ga
from manager.errors import DiceError, IllegalAction
from manager.model.forces import mark

from .cases import ADVANCE_LIMIT, CaseDice
from .tables import (CHOICES, DEFAULT_FIELDS, FIRE_AS_STEP, MORALE, SHARED_PHASES, STEP_PHASES,
                     TURN)


class StepKinds:
    """Mixed into Runner: each method plays one kind of step."""

    def _commit_general(self, i, step) -> None:
        """A charge step naming the charged side's general and his influence: the ruleset's
        CommitGeneral for the charged unit, before the charge."""
        from manager.actions import action_from_dict
        uid = step.get("target")
        act = action_from_dict({"action": "CommitGeneral", "leader": step["leader"],
                                "unit": uid, "influence": int(step["influence"])})
        self._exec(act, CaseDice([], self.battle), i, act.describe())

    def _decline_rerolls(self, i, step) -> None:
        """`reroll = []`: the owners of elite units in the melee decline their re-roll
        (the ruleset's DeclineReroll, where it has one)."""
        from manager.actions import action_from_dict
        for uid in [*(step.get("attackers") or ()), *(step.get("defenders") or ())]:
            try:
                act = action_from_dict({"action": "DeclineReroll", "unit": uid})
                self.session.check(act)
            except (IllegalAction, KeyError, ValueError, TypeError):
                continue
            self._exec(act, CaseDice([], self.battle), i, act.describe())

    def _engage(self, i, step, action) -> None:
        """A case that starts with its charger already in contact (no charge step before the
        melee) has no charge for the engine to find: its attackers are marked `charging`
        the first defender, as the inch rulesets mark a charge that reached its target."""
        try:
            self.session.check(action)
            return
        except IllegalAction as exc:
            if "no melee" not in str(exc):
                return
        charged = {s.get("unit") for s in self.steps[:i] if s.get("action") == "charge"}
        for a in step.get("attackers") or ():
            if a in self.battle.units and a not in charged and not mark(self.battle.units[a], "charging"):
                self.battle.mark_unit(a, charging=action.defender)

    def _failed_activation(self, i, step, action, words) -> None:
        """An `activate` step's dice on an order the case expects refused: the engine
        takes the test with the order (the order is legal, the dice stop it), so the
        order is played and must end in an outcome naming the reason (a failed test)."""
        source = CaseDice(step.get("dice"), self.battle)
        uid = step.get("unit", "")
        old = self.battle.units[uid].pos if uid in self.battle.units else None
        new = [e.describe() for e in self._exec(action, source, i, action.describe())]
        new += [e.describe() for e in self._reroll_with_left(i, step, source)]
        if source.left():
            self.fail(f"left dice unused: {source.left()} (it asked for: "
                      f"{'; '.join(source.asked) or 'no dice'})", i)
        said = [e for e in new if all(w in e.lower() for w in words)]
        stayed = old is None or self.battle.units[uid].pos == old
        if not said or not stayed:
            self.fail(f"played {action.describe()} after the activation dice "
                      f"({'; '.join(new) or 'no events'}), which the text forbids "
                      f"(expected the test to stop it: {' '.join(words)!r})", i)

    def _morale_alone(self, i: int, step: dict) -> None:
        """A morale test the case plays on its own (tables.MORALE), through the dice
        service like any roll; not logged as an action."""
        from manager.dice import Dice
        source = CaseDice(step.get("dice"), self.battle)
        events: list = []
        if step.get("leader") and step.get("influence") is not None:
            # the general committed to the unit first (the ruleset's CommitGeneral)
            from manager.actions import action_from_dict
            act = action_from_dict({"action": "CommitGeneral", "leader": step["leader"],
                                    "unit": step["unit"], "influence": int(step["influence"])})
            self._exec(act, CaseDice([], self.battle), i, act.describe())
        try:
            MORALE[self.ruleset.id](self.battle, self._unit(step["unit"], i),
                                    step.get("column", "rally"), Dice(source, 0), events)
        except (DiceError, ValueError) as exc:
            self.fail(str(exc), i)
        self.events += [e.describe() for e in events]
        if source.left():
            self.fail(f"left dice unused: {source.left()} (it asked for: "
                      f"{'; '.join(source.asked) or 'no dice'})", i)

    def _step_phase(self, i: int, step: dict) -> None:
        """Step on to the phase the step's action is played in, for the acting side, where
        the text's phase covers several of the engine's (tables.STEP_PHASES)."""
        want = STEP_PHASES.get(self.ruleset.id, {}).get(step.get("action"))
        if want is None:
            return
        who = step.get("unit") or step.get("leader") or (step.get("attackers") or [None])[0]
        piece = self.battle.units.get(who) or self.battle.leaders.get(who)
        if callable(want):
            want = want(self.battle.units.get(who))
        side = piece.side if piece is not None else self.battle.state.active
        if step.get("action") == "melee":
            side = self.battle.state.active if self.battle.state.phase == "melee" else \
                self.battle.state.order[0]
        order = [p.name for p in self.ruleset.phases]
        st = self.battle.state
        if (st.phase, st.active) == (want, side):
            return
        if order.index(want) < order.index(st.phase):
            if step.get("action") == "rally" and want == "rally" and self.ruleset.id in \
                    FIRE_AS_STEP and self._acted:
                self._advance(side, want, st.turn + 1)   # its next rally check: next turn
            return
        self._advance(side, want, st.turn)

    def _choice(self, i: int, step: dict) -> None:
        """A player's choice the text leaves open (tables.CHOICES)."""
        c = step.get("choice")
        if not c:
            step["_fields"] = DEFAULT_FIELDS.get(self.ruleset.id, {}).get(step.get("action"), {})
            return
        how = CHOICES.get(self.ruleset.id, {}).get((step.get("action"), c))
        if how is None:
            self.fail(f"the runner cannot play the choice {c!r} on a {step.get('action')} step "
                      f"for {self.ruleset.id}", i)
        if how[0] == "mark":
            uid = step.get(how[1])
            if how[2]:
                self.battle.mark_unit(uid, **how[2])
        elif how[0] == "action":
            step["_action"] = how[1]
        elif how[0] == "before":                     # a standing choice, declared first
            from manager.actions import action_from_dict
            act = action_from_dict({"action": how[1], "unit": step.get(how[2])})
            if self.ruleset.id in SHARED_PHASES or act.verb not in self.ruleset.phase(
                    self.battle.state.phase).actions:
                self.fail(f"the runner cannot declare {act.describe()} in the "
                          f"{self.battle.state.phase} phase", i)
            self._exec(act, CaseDice([], self.battle), i, act.describe())
        else:
            step["_fields"] = how[1]

    def _flow(self, i, step, verb) -> None:
        st = self.battle.state
        if verb == "end_phase":
            source = CaseDice(step.get("dice"), self.battle)
            self._exec(ga.EndPhase(), source, i, "end the phase")
            if self.ruleset.id in SHARED_PHASES:     # the text's phase: both sides' parts
                while self.battle.state.phase == st.phase and not self.battle.state.over:
                    self._exec(ga.EndPhase(), source, i, "end the phase")
            if source.left():
                self.fail(f"left dice unused at the end of the phase: {source.left()} "
                          f"(it asked for: {'; '.join(source.asked) or 'no dice'})", i)
            return
        faces = step.get("dice") if verb == "end_turn" else initiative_faces(step)
        source = CaseDice(faces, self.battle)
        turn, active, phase0 = st.turn, st.active, st.phase
        game = TURN.get(self.ruleset.id) == "game"
        first = self.ruleset.phases[0].name
        for _ in range(ADVANCE_LIMIT):
            self._exec(ga.EndPhase(), source, i, "end the turn" if verb == "end_turn"
                       else "go on to the initiative")
            st = self.battle.state
            if st.over:
                break
            if verb == "initiative" and st.phase == "initiative" and (
                    st.turn != turn or phase0 != "initiative"):
                break                # the next initiative throw (in this turn or the next)
            if verb == "end_turn" and st.phase == first and (
                    st.turn != turn if game else (st.turn, st.active) != (turn, active)):
                break
        if source.left():
            self.fail(f"left dice unused: {source.left()} (it asked for: "
                      f"{'; '.join(source.asked) or 'no dice'})", i)
        if verb == "initiative" and step.get("first"):
            self._exec(ga.ChooseInitiative(step["first"]), CaseDice([], self.battle), i,
                       "choose who goes first")
            if self.ruleset.id in SHARED_PHASES and self.battle.state.phase == "initiative":
                self._exec(ga.EndPhase(), CaseDice([], self.battle), i,
                           "begin the turn's actions")       # the choice made, units act
        if verb == "initiative":
            self._leave_initiative(i)

    def _leave_initiative(self, i) -> None:
        """A phase that holds only the choice (Harman's) ends once it is made, so the
        case's next step acts in the phase after it; a next `end_phase` still ends it."""
        st = self.battle.state
        nxt = self.steps[i + 1] if i + 1 < len(self.steps) else {}
        phase = next((p for p in self.ruleset.phases if p.name == st.phase), None)
        if st.over or st.phase != "initiative" or phase is None or not nxt \
                or nxt.get("action") in ("end_phase", "end_turn", "initiative") \
                or self.ruleset.phases[0].name == "initiative":   # (those roll at the start)
            return
        if set(phase.actions) <= {"ChooseInitiative", "EndPhase"}:
            self._exec(ga.EndPhase(), CaseDice([], self.battle), i, "begin the first move")


def initiative_faces(step):
    d = step.get("dice")
    if isinstance(d, dict):              # the engine throws a die a side, in side order
        blue, red = list(d.get("blue", [])), list(d.get("red", []))
        out = []
        while blue or red:
            out += [blue.pop(0)] if blue else []
            out += [red.pop(0)] if red else []
        return out
    return d or []
