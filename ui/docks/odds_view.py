"""The engine's exact odds as a small HTML table: the chance of each number of hits, with
a bar, and the chance of each consequence (falls back, eliminated, leader hit)."""
from __future__ import annotations

from html import escape


def _pct(p) -> str:
    v = float(p)
    if 0 < v < 0.001:
        return "<0.1%"
    return f"{v:.1%}"


def odds_html(odds) -> str:
    out = []
    for line in odds.lines:
        probs = line.dist.probabilities()
        out.append(f"<b>{escape(line.label)}</b>: mean {float(line.dist.mean()):.2f} hits")
        rows = []
        for hits, p in enumerate(probs):
            if not p:
                continue
            width = max(1, int(float(p) * 120))
            rows.append(f"<tr><td align='right'>{hits} hit{'s' if hits != 1 else ''}</td>"
                        f"<td><table cellspacing=0 cellpadding=0><tr><td bgcolor='#3a78c8' "
                        f"width={width} height=9></td></tr></table></td>"
                        f"<td align='right'>{_pct(p)}</td></tr>")
        out.append("<table cellspacing=2>" + "".join(rows) + "</table>")
    if odds.outcomes:
        out.append("<table cellspacing=2>" + "".join(
            f"<tr><td>{escape(k)}</td><td align='right'><b>{_pct(v)}</b></td></tr>"
            for k, v in odds.outcomes.items()) + "</table>")
    out += [f"<i>{escape(n)}</i>" for n in odds.notes]
    return "<br>".join(out)
