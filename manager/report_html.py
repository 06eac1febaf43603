"""After-action reports as HTML: printable from the app (Qt renders it to PDF) or a browser.

Plain HTML 4 tables and inline styles only, which QTextDocument prints faithfully.
Every text from a file is escaped: a unit named "<script>" prints as its name.
"""
from __future__ import annotations

from html import escape

from math import ceil

from .simulate import report, turn_rows

STYLE = ("body{font-family:Georgia,serif;font-size:10pt} h1{font-size:16pt} "
         "h2{font-size:12pt;margin-top:14pt} th{text-align:left;"
         "border-bottom:1px solid #444} .n{text-align:right} .bad{color:#a01010}")


def _table(headers, rows, numeric=()) -> str:
    head = "".join(f"<th{' class=n' if i in numeric else ''}>{escape(h)}</th>"
                   for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{escape(str(v))}</td>"
                                    for i, v in enumerate(r)) + "</tr>" for r in rows)
    # cellpadding, not CSS padding: Qt's text layout (PDF, print) ignores the CSS one and
    # ran the headers together ("UnitsLeftEliminated")
    return f"<table cellspacing=0 cellpadding=4>{'<tr>' + head + '</tr>'}{body}</table>"


def battle_report_html(session) -> str:
    data = report(session)
    b = session.battle
    winner = b.sides[data["result"]["winner"]].name if data["result"]["winner"] else "Nobody"
    parts = [f"<html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>",
             f"<h1>After-action report: {escape(data['scenario'])}</h1>",
             f"<p>Fought under {escape(data['ruleset'])}, seed {data['seed']}, "
             f"{data['turns']} turn(s). <b>{escape(winner)} wins</b>: "
             f"{escape(data['result']['reason'] or 'the battle is not over')}.</p>",
             "<h2>Turn by turn</h2>", _turn_table(session)]
    for sid, side in data["sides"].items():
        rows = [(name, c["units_start"], c["units_left"], c["units_eliminated"], c["hits_taken"],
                 "Shaken" if c["shaken"] else "", "lost" if c["leader_lost"] else "")
                for name, c in side["commands"].items()]
        parts.append(f"<h2>{escape(b.sides[sid].name)}</h2>")
        parts.append(_table(["Command", "Units", "Left", "Eliminated", "Hits taken", "Morale",
                             "Leader"], rows, numeric=(1, 2, 3, 4)))
    parts.append("</body></html>")
    return "".join(parts)


def _turn_table(session) -> str:
    """Hits taken and units lost per side and turn ("3", never "-0 hits")."""
    b = session.battle
    headers = ["Turn"]
    for sid in b.sides:
        headers += [f"{b.sides[sid].name}: hits taken", "units lost"]
    rows = []
    for r in turn_rows(session):
        row = [r["turn"]]
        for sid in b.sides:
            row += [r["hits"][sid], r["lost"][sid]]
        rows.append(row + [", ".join(r["shaken"])])
    return _table(headers + ["Shaken"], rows, numeric=tuple(range(len(headers))))


def roster_html(battle, title: str = "") -> str:
    """A sheet per command to print for the players: each unit with a tally box per hit
    it can take, the leader, and when the command is Shaken (half its units lost)."""
    h = battle.hierarchy
    parts = [f"<html><head><meta charset='utf-8'><style>{STYLE} .box{{font-size:13pt;"
             f"letter-spacing:2pt}}</style></head><body>"]
    first = True
    for sid, side in battle.sides.items():
        for cid in h.commands_of(sid):
            units = [battle.units[u] for u in h.units_of(cid) if u in battle.units]
            if not units:
                continue
            c = battle.commands[cid]
            leader = next((l for l in battle.leaders.values()
                           if h.find_leader_node(l.id) == ("command", cid)), None)
            page = "" if first else " style='page-break-before:always'"
            first = False
            parts.append(f"<h1{page}>{escape(c.name)}</h1>")
            parts.append(f"<p>{escape(side.name)}{(' — ' + escape(title)) if title else ''}<br>"
                         f"Leader: <b>{escape(leader.name) if leader else '—'}</b>"
                         + (f", quality {leader.quality}" if leader and leader.quality else "")
                         + f"<br>Shaken when <b>{ceil(len(units) / 2)}</b> of its {len(units)} "
                         f"units are lost.</p>")
            rows = [(u.name, u.kind.replace("_", " "), f"{u.hits}/{u.max_hits}",
                     "☐" * u.max_hits, "") for u in units]
            parts.append(_table(["Unit", "Kind", "Now", "Hits (tick one per hit taken)", "Notes"],
                                rows, numeric=(2,)).replace("<td>☐", "<td class=box>☐"))
    parts.append("</body></html>")
    return "".join(parts)


def campaign_report_html(summary: dict) -> str:
    parts = [f"<html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>",
             f"<h1>{escape(summary['campaign'])}</h1>",
             f"<p>Ruleset {escape(summary['ruleset'])}. Men returning: "
             f"{summary['options']['returns_fraction']:.0%} of losses; eliminated units "
             f"{escape(summary['options']['eliminated'])}.</p>", "<h2>Battles</h2>"]
    parts.append(_table(["No.", "Scenario", "Winner", "Turns", "Result"],
                        [(b["no"], b["scenario"], b["winner"] or "-", b["turns"] or "-",
                          b["reason"] or "not closed") for b in summary["battles"]], numeric=(0, 3)))
    for army in summary["armies"].values():
        parts.append(f"<h2>{escape(army['name'])}: {army['start']} - {army['losses']} + "
                     f"{army['returns']} + {army['replacements']} = {army['now']}</h2>")
        parts.append(_table(["Unit", "Start", "Losses", "Returned", "Replacements", "Now", ""],
                            [(u["name"], u["start"], u["losses"], u["returns"], u["replacements"],
                              u["now"], u["status"] if u["status"] != "active" else "")
                             for u in army["units"]], numeric=(1, 2, 3, 4, 5)))
    if summary["leader_events"]:
        parts.append("<h2>Leaders</h2>")
        parts.append(_table(["Battle", "Leader", "Fate"],
                            [(e["battle"], e["leader"], e["note"]) for e in summary["leader_events"]]))
    parts.append("</body></html>")
    return "".join(parts)
