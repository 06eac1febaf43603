"""Run conformance cases: situations written from the rule texts, played with typed dice.

The format is docs/conformance.md. A case builds its battle (casebuild), is stepped on
to the text's phase with software dice (nothing before `start` is the case's business),
then plays its steps with the dice it gives through the engine's manual source: a step
that leaves dice unused, or asks for more than the case gave, fails. Every failure reads
as a finding: the case, its clause, what the text says and what the engine did.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from manager import game_actions as ga
from manager.dice import SeededSource, check_faces
from manager.errors import DiceError, IllegalAction
from manager.model.forces import mark
from manager.session import Session

from .casebuild import BOX, CaseError, build_battle, facing_of, is_grid, point_of
from .tables import (AFTER_STATE, CHOICES, ROUT_WORDS, DEFAULT_FIELDS, EXPECT_MARKS, FIRE_AS_STEP, FORMATION_IN_MOVE,
                     MELEE_SETUP,
                     MORALE, SHARED_PHASES, STATE_MARKS, STEP_PHASES, TURN, engine_formation,
                     engine_phase, first_player, initiative_winner)

HERE = Path(__file__).parent
RULESETS = ("morschauser", "d3", "quickplay", "featherstone", "harman")
ADVANCE_LIMIT = 200
INCH_TOLERANCE = 0.5


class Finding(AssertionError):
    """The engine does not do what the text says (or the case cannot be played)."""


@dataclass
class Case:
    ruleset: str
    data: dict
    file: Path
    meta: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def test_id(self) -> str:
        return f"{self.ruleset}::{self.id}"


# ---- loading -------------------------------------------------------------------------
def case_files(ruleset: str, root: Path = HERE) -> list[Path]:
    folder = root / ruleset
    return sorted(p for p in folder.glob("*.toml") if p.name != "clauses.toml") \
        if folder.is_dir() else []


def load_cases(root: Path = HERE) -> list[Case]:
    """Every case of every ruleset folder; a malformed file fails loudly, naming itself."""
    out = []
    for rid in RULESETS:
        for path in case_files(rid, root):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            declared = data.get("ruleset", rid)
            if declared != rid:
                raise ValueError(f"{path}: ruleset = {declared!r} in the {rid} folder")
            for c in data.get("case", []):
                if "id" not in c:
                    raise ValueError(f"{path}: a [[case]] without an id")
                out.append(Case(rid, c, path, {"text": data.get("text", "")}))
    return out


def load_clauses(ruleset: str, root: Path = HERE) -> list[dict] | None:
    path = root / ruleset / "clauses.toml"
    if not path.exists():
        return None
    return tomllib.loads(path.read_text(encoding="utf-8")).get("clause", [])


# ---- dice ----------------------------------------------------------------------------
class CaseDice:
    """The faces a step gives, in order; or per side ({blue: [..], red: [..]}), where a
    roll is fed from the side whose unit, leader or name its purpose mentions first."""
    name = "manual"

    def __init__(self, faces, battle):
        self.battle = battle
        if isinstance(faces, dict):
            self.queues = {k: list(v) for k, v in faces.items()}
        else:
            self.queues = {"": list(faces or [])}
        self.asked: list[str] = []

    def _side_of(self, purpose: str) -> str:
        if set(self.queues) == {""}:
            return ""
        best = None
        names = [(s.name, s.id) for s in self.battle.sides.values()]
        names += [(u.name, u.side) for u in self.battle.units.values()]
        names += [(l.name, l.side) for l in self.battle.leaders.values()]
        for name, side in names:
            m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", purpose)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), side)
        if best and self.queues.get(best[1]):
            return best[1]
        if self.queues.get(""):              # dice merged from a later step (a morale test)
            return ""
        return next((k for k, q in self.queues.items() if q), next(iter(self.queues)))

    def faces(self, request):
        self.asked.append(f"{request.expression} for {request.purpose}")
        key = self._side_of(request.purpose)
        q = self.queues[key]
        if len(q) < request.count:
            raise DiceError(f"the engine asked for {request.expression} ({request.purpose}) "
                            f"but the case gives no more dice{f' for {key}' if key else ''}")
        taken, self.queues[key] = q[:request.count], q[request.count:]
        return check_faces(request, taken)

    def left(self) -> list:
        return [f for q in self.queues.values() for f in q]


# ---- running ---------------------------------------------------------------------------
class Runner:
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
        self._exec(ga.StartBattle(), CaseDice(_initiative_faces(step), self.battle), 0,
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
        faces = step.get("dice") if verb == "end_turn" else _initiative_faces(step)
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
    def _expect(self, expect: dict, step) -> None:
        problems = []
        for key, want in expect.items():
            if key in self.battle.units:
                problems += self._expect_unit(key, want)
            elif key in self.battle.leaders:
                problems += self._expect_leader(key, want)
            elif key in self.battle.commands:
                for k, v in want.items():
                    if k != "shaken":
                        problems.append(f"{key}: the runner cannot check {k!r} of a command")
                    elif (key in self.battle.state.shaken) != bool(v):
                        problems.append(f"command {key} is {'' if key in self.battle.state.shaken else 'not '}"
                                        f"Shaken (the text: {'Shaken' if v else 'not Shaken'})")
            elif key in self.battle.sides:
                for k, v in want.items():
                    st = self.battle.state
                    conceded = st.over and st.winner not in (None, key)
                    if k == "first":
                        first = first_player(self.battle)
                        if (first == key) != bool(v):
                            problems.append(f"{key} goes {'first' if first == key else 'second'}, "
                                            f"the text: {'first' if v else 'second'}")
                        continue
                    if k == "won_initiative":
                        won = initiative_winner(self.battle)
                        if (won == key) != bool(v):
                            problems.append(f"army {key} {'won' if won == key else 'did not win'}"
                                            f" the initiative, the text: {'won' if v else 'lost'}")
                        continue
                    if k not in ("concedes", "lost"):
                        problems.append(f"{key}: the runner cannot check {k!r} of an army")
                    elif conceded != bool(v):
                        problems.append(f"army {key} {'has conceded' if conceded else 'has not conceded'}"
                                        f" (battle over: {st.over}, {st.reason or 'no reason'}); "
                                        f"the text: {'concedes' if v else 'fights on'}")
            else:
                problems.append(f"no unit, leader, command or army {key!r} to check")
        if problems:
            self.fail("; ".join(problems), step)

    def _expect_unit(self, uid, want: dict) -> list:
        u = self.battle.units[uid]
        out = []
        for k, v in want.items():
            if k == "lost":
                got = u.max_hits - u.hits
                if got != v and not (u.eliminated and v >= u.max_hits and got >= 0):
                    out.append(f"{uid} has lost {got}{' (eliminated)' if u.eliminated else ''}, "
                               f"the text: {v}")
            elif k == "eliminated":
                if u.eliminated != bool(v):
                    out.append(f"{uid} is {'' if u.eliminated else 'not '}eliminated, the text: "
                               f"{'eliminated' if v else 'still in the battle'}")
            elif k == "at" or k == "pos":
                out += self._check_place(uid, u.pos, v, k)
            elif k == "facing":
                f = facing_of(v, uid)
                if abs((u.facing - f + 180) % 360 - 180) > (0 if is_grid(self.ruleset) else 2):
                    out.append(f"{uid} faces {u.facing}, the text: {v} ({f})")
            elif k == "routed":
                words = ROUT_WORDS.get(self.ruleset.id, "rout")
                routed = bool(mark(u, "routed")) or any(
                    re.search(rf"\b{re.escape(u.name)}\b.*{words}", e) for e in self.events)
                if routed != bool(v):
                    out.append(f"{uid} has {'' if routed else 'not '}routed, the text: "
                               f"{'routs' if v else 'does not rout'}")
            elif k == "shaken":
                cid = self.battle.hierarchy.command_of(uid)
                if (cid in self.battle.state.shaken) != bool(v):
                    out.append(f"{uid}'s command {cid} Shaken: {cid in self.battle.state.shaken}, "
                               f"the text: {bool(v)}")
            elif k in ("formation", "disordered", "fired", "fell_back", "moved"):
                got = getattr(u, k)
                if k == "formation":
                    v = engine_formation(self.ruleset, v)
                if k == "moved":
                    got = bool(got)
                if got != v:
                    out.append(f"{uid} {k} = {got!r}, the text: {v!r}")
            elif k in EXPECT_MARKS.get(self.ruleset.id, {}):
                name, true = EXPECT_MARKS[self.ruleset.id][k]
                got = mark(u, name, None) == true
                if got != bool(v):
                    out.append(f"{uid} {k} = {got!r} ({name} = {mark(u, name, None)!r}), "
                               f"the text: {v!r}")
            else:
                got = mark(u, k, None)
                if isinstance(v, bool):          # a state the ruleset marks: set or not
                    got = bool(got)
                if got != v:
                    out.append(f"{uid} {k} = {got!r}, the text: {v!r}")
        return out

    def _check_place(self, who, pos, v, key) -> list:
        want = (((v[0] + 0.5) * BOX, (v[1] + 0.5) * BOX) if key == "at" and is_grid(self.ruleset)
                else (float(v[0]), float(v[1])))
        tol = 1e-6 if is_grid(self.ruleset) else INCH_TOLERANCE
        if abs(pos[0] - want[0]) > tol or abs(pos[1] - want[1]) > tol:
            got = ([int(pos[0] // BOX), int(pos[1] // BOX)] if is_grid(self.ruleset)
                   else [round(pos[0], 2), round(pos[1], 2)])
            return [f"{who} is at {got}, the text: {list(v)}"]
        return []

    def _expect_leader(self, lid, want: dict) -> list:
        l = self.battle.leaders[lid]
        out = []
        for k, v in want.items():
            if k == "eliminated":
                if l.eliminated != bool(v):
                    out.append(f"leader {lid} is {'' if l.eliminated else 'not '}eliminated, "
                               f"the text: {'falls' if v else 'lives'}")
            elif k in ("at", "pos"):
                out += self._check_place(lid, l.pos, v, k)
            elif k in ("hits", "rallied", "moved", "quality"):
                if getattr(l, k) != v:
                    out.append(f"leader {lid} {k} = {getattr(l, k)!r}, the text: {v!r}")
            elif k == "wounded":                  # hurt but still on the field
                hurt = not l.eliminated and l.hits < l.max_hits
                if hurt != bool(v):
                    out.append(f"leader {lid} is {'' if hurt else 'not '}wounded, the text: "
                               f"{'wounded' if v else 'unhurt'}")
            elif k == "lost":
                if l.max_hits - l.hits != v:
                    out.append(f"leader {lid} has lost {l.max_hits - l.hits}, the text: {v}")
            else:
                out.append(f"the runner cannot check {k!r} of a leader")
        return out


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


def _initiative_faces(step):
    d = step.get("dice")
    if isinstance(d, dict):              # the engine throws a die a side, in side order
        blue, red = list(d.get("blue", [])), list(d.get("red", []))
        out = []
        while blue or red:
            out += [blue.pop(0)] if blue else []
            out += [red.pop(0)] if red else []
        return out
    return d or []


def _with_first(info, first):
    from dataclasses import replace
    return replace(info, first_side=first)


def run_case(case: Case) -> None:
    Runner(case).run()
