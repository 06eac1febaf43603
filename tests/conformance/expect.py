"""The runner's checks of what the text expects after a step: units, leaders, places."""
from __future__ import annotations

import re

from manager.model.forces import mark

from .casebuild import BOX, facing_of, is_grid
from .cases import INCH_TOLERANCE
from .tables import ROUT_WORDS, EXPECT_MARKS, engine_formation, first_player, initiative_winner


class Expectations:
    """Mixed into Runner: each finding names what the engine did against the text."""

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
