"""Legal orders to pick from at random, for the property tests of play and of files."""
from manager import game_actions as ga
from manager.rules.morschauser.board import board
from manager.rules.morschauser.moves import move_options
from manager.session import Session


def candidates(s: Session) -> list:
    b = s.battle
    st_ = b.state
    out = [ga.EndPhase()]
    side = st_.active
    if st_.phase == "rally":
        for l in b.live_leaders(side):
            for u in b.hierarchy.units_led_by(l.id):
                out.append(ga.Rally(l.id, u))
    elif st_.phase == "move":
        brd = board(b)
        for u in sorted(b.live_units(side), key=lambda u: u.id):
            reach, roads, backs, _ = move_options(b, u)
            for (box, d) in sorted(reach.cost)[:6]:
                out.append(ga.MoveUnit(u.id, brd.centre(box), d * 45))
            for box in sorted(reach.contact)[:2]:
                for d in range(8):
                    out.append(ga.MoveUnit(u.id, brd.centre(box), d * 45))
            for e in b.live_units():
                if e.side != side:
                    out.append(ga.Fire(u.id, e.id))
        for l in b.live_leaders(side):
            x, y = l.x + 3, l.y
            out.append(ga.MoveLeader(l.id, (x, y)))
    elif st_.phase == "melee":
        for m in s.ruleset.melees(b):
            out.append(ga.ResolveMelee(m.defender, tuple(m.may_join)))
            out.append(ga.ResolveMelee(m.defender))
    return [a for a in out if s.is_legal(a)]
