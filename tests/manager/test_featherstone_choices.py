"""Issue 15: the automatic commander decides the player's choices by value, from the
odds (manager/rules/featherstone/choices.py): a near general's influence, counter-charging
foot on a 7, a grenadier's re-roll. Each decision is shown taken where it pays and not
taken where it does not."""
from __future__ import annotations

from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.model.forces import mark
from manager.rules.featherstone import choices as ch
from manager.rules.featherstone import threats
from manager.rules.featherstone.commander import Commander
from manager.rules.featherstone.melee import melees
from manager.rules.featherstone.moves import CommitGeneral, CounterCharge, DeclineReroll

FS = "featherstone"


def threatened(kind="line_infantry", charger="line_infantry", gen=(24, 16), **opts):
    """Red 'r' 5 inches from blue 'b' that may charge it; red's general 'r1-ldr' near r,
    not attached; red to act in the generals step."""
    units = [piece("b", "blue", charger, (20, 21)), piece("r", "red", kind, (20, 16))]
    b = build_table(units, FS, options={"support_fire": False, **opts},
                    leaders={"r1": {"pos": list(gen)}})
    s, src = session_at(b, "generals", side="red")
    s.battle.update_leader("r1-ldr", moved=True)          # he has ridden
    return s, src


def test_a_near_general_is_committed_to_a_unit_a_charge_threatens_when_it_pays():
    s, _ = threatened()
    r = s.battle.units["r"]
    without = ch.worst_threat(s.battle, r)
    with_him = ch.worst_threat(s.battle, r, {"lend": ch.lend_mark(s.battle, s.battle.leaders["r1-ldr"])})
    assert without - with_him > ch.STRAY * ch.GENERAL_WORTH       # +1 on the Charged column
    action = Commander(s.battle, "red").next_action()
    assert action == CommitGeneral("r1-ldr", "r", 1)
    s.execute(action)
    assert mark(s.battle.units["r"], "lend")


def test_no_general_is_committed_where_his_influence_changes_nothing():
    # disordered and due its rally check: the charged unit's roll is read on the Rally
    # column (the lend counts on the Charged and Lost Melee columns only): no gain, risk
    s, _ = threatened()
    s.battle.update_unit("r", disordered=True)
    r = s.battle.units["r"]
    assert threats.threats(s.battle, r)
    assert ch.commit_for_defence(s.battle, r) is None
    # out of every enemy's reach: nothing to gain either
    s2, _ = threatened()
    s2.battle.update_unit("b", y=34.0)
    assert ch.commit_for_defence(s2.battle, s2.battle.units["r"]) is None
    assert not isinstance(Commander(s2.battle, "red").next_action(), CommitGeneral)


def charger_with_general(target_kind, kind="line_infantry"):
    units = [piece("b", "blue", kind, (20, 20)),
             piece("g", "red", target_kind, (20, 14))]
    b = build_table(units, FS, options={"support_fire": False},
                    leaders={"b1": {"pos": [23.5, 21.0]}})
    s, _ = session_at(b, "charges", side="blue")
    return s


def test_a_general_is_committed_to_a_charger_that_checks_after_the_canister():
    # guards at a battery: his +1 on their check after the canister lifts their chance
    # by 0.098, more than the risk to him (1/6 of half a charge, 0.083)
    s = charger_with_general("foot_artillery", "guard_infantry")
    act = ch.commit_for_charge(s.battle, ga.Charge("b", "g"))
    assert act == CommitGeneral("b1-ldr", "b", 1)
    # 0.495 alone is under the commander's 0.5 to charge; with him, less his risk, over
    c = Commander(s.battle, "blue")
    first = c.next_action()
    assert first == act
    s.execute(first)
    assert c.next_action() == ga.Charge("b", "g")         # the charge he was committed to


def test_no_general_is_committed_to_a_charger_when_the_gain_is_below_the_risk():
    # line foot at the same battery: the gain is 0.075, under the 0.083 risk
    from manager.rules.featherstone.melee_odds import charge_odds
    s = charger_with_general("foot_artillery")
    b, charge = s.battle, ga.Charge("b", "g")
    c = b.copy()
    c.mark_unit("b", lend=ch.lend_mark(b, b.leaders["b1-ldr"]))
    gain = threats.charger_good(charge_odds(c, charge, exact=False).outcomes) - \
        threats.charger_good(charge_odds(b, charge, exact=False).outcomes)
    assert 0 < gain < ch.STRAY * ch.GENERAL_WORTH
    assert ch.commit_for_charge(b, charge) is None
    assert ch.charge_value(b, charge)[0] == threats.charger_good(
        charge_odds(b, charge, exact=False).outcomes)


def test_no_general_is_committed_to_a_charger_no_fire_meets():
    # a charge at foot that has moved (no first fire) and no support: the charger never
    # checks before contact, so his +1 cannot change who wins; the risk is not taken
    s = charger_with_general("line_infantry")
    s.battle.update_unit("g", moved=1)
    assert ch.commit_for_charge(s.battle, ga.Charge("b", "g")) is None


def test_counter_charging_on_a_seven_is_not_chosen_where_first_fire_does_better():
    s, _ = threatened()
    r = s.battle.units["r"]
    stand = ch.worst_threat(s.battle, r)
    counter = ch.worst_threat(s.battle, r, {"counter_seven": True})
    assert counter > stand                      # first fire is the defender's melee, first
    assert ch.counter_choice(s.battle, r) is None
    # a unit the umpire told to counter-charge is told to stand and fire instead
    s.battle.mark_unit("r", counter_seven=True)
    assert ch.counter_choice(s.battle, s.battle.units["r"]) == CounterCharge("r", False)


def test_counter_charging_is_chosen_when_the_odds_say_it_pays(monkeypatch):
    # no table situation found where foot does better counter-charging than firing first
    # (see the closing note); the rule itself: the choice follows the odds it is given
    s, _ = threatened()
    real = ch.worst_threat
    monkeypatch.setattr(ch, "worst_threat", lambda b, u, marks=None, chargers=None:
                        real(b, u, marks, chargers) - (0.2 if marks and marks.get(
                            "counter_seven") else 0))
    assert ch.counter_choice(s.battle, s.battle.units["r"]) == CounterCharge("r", True)


def grenadier_melee():
    units = [piece("b", "blue", "grenadiers", (20, 20)), piece("r", "red", "line_infantry", (20, 16))]
    b = build_table(units, FS, options={"support_fire": False, "pursuit": False})
    s, src = session_at(b, "charges", side="blue")
    src.push(4)                                   # r stands: a simultaneous melee
    s.execute(ga.Charge("b", "r"))
    while s.battle.state.phase != "melee":
        s.execute(ga.EndPhase())
    return s


def test_grenadiers_keep_their_reroll_because_it_raises_their_chance():
    from manager.rules.featherstone.melee_odds import melee_odds
    s = grenadier_melee()
    m = melees(s.battle)[0]
    keep = melee_odds(s.battle, m, exact=False).outcomes["attacker wins"]
    c = s.battle.copy()
    c.mark_unit("b", no_reroll=c.state.turn)
    assert melee_odds(c, m, exact=False).outcomes["attacker wins"] < keep
    assert ch.reroll_choice(s.battle, m, "blue") is None
    side = s.battle.state.active
    assert Commander(s.battle, side).next_action() == ga.ResolveMelee("r")


def test_a_reroll_is_declined_when_the_odds_say_it_does_not_pay(monkeypatch):
    s = grenadier_melee()
    m = melees(s.battle)[0]
    real = ch.melee_odds

    def fake(battle, melee, support=None, exact=True, shared=None):
        o = real(battle, melee, support, exact, shared)
        if mark(battle.units["b"], "no_reroll") == battle.state.turn:
            o.outcomes["attacker wins"] = 1.0     # as if the re-roll could only hurt
        return o
    monkeypatch.setattr(ch, "melee_odds", fake)
    assert ch.reroll_choice(s.battle, m, "blue") == DeclineReroll("b")
    assert ch.reroll_choice(s.battle, m, "red") is None          # not red's unit


def test_the_table_offers_the_reroll_in_a_melee_and_the_odds_follow_the_choice():
    """The umpire's choices (Ruleset.choices, the turn dock's Choices box): in a grenadier
    melee, forgoing the re-roll, its effect on the attackers' chance in the label; taken
    through the session it is one log entry and the melee odds then include it."""
    s = grenadier_melee()
    melee = ga.ResolveMelee("r")
    offers = s.ruleset.choices(s.battle, melee)
    assert [a for _, a in offers] == [DeclineReroll("b")]
    label = offers[0][0]
    before = s.ruleset.odds(s.battle, melee).outcomes["attacker wins"]
    assert f"{float(before):.0%} \u2192" in label
    n = len(s.entries)
    s.execute(DeclineReroll("b"))
    assert len(s.entries) == n + 1
    after = s.ruleset.odds(s.battle, melee).outcomes["attacker wins"]
    assert after < before and label.endswith(f"{float(after):.0%}")
    assert s.ruleset.choices(s.battle, melee) == []          # taken: no longer offered


def test_the_table_offers_both_sides_generals_and_the_counter_charge_for_a_charge():
    s, _ = threatened()
    s.battle.set_state(active="blue")
    offers = dict((a, label) for label, a in s.ruleset.choices(s.battle, ga.Charge("b", "r")))
    assert CommitGeneral("r1-ldr", "r", 1) in offers and "risk roll" in offers[
        CommitGeneral("r1-ldr", "r", 1)]
    assert CounterCharge("r", True) in offers
