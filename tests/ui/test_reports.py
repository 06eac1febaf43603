"""Issue 21, item 14: roster sheets per command to print, and the after-action report
fixed (headers apart, no "-0 hits", a map of the final positions)."""
from __future__ import annotations

from PySide6.QtPdf import QPdfDocument

from manager import game_actions as ga
from manager.report_html import battle_report_html, roster_html


def pdf_text(path) -> list[str]:
    doc = QPdfDocument()
    doc.load(str(path))
    return [doc.getAllText(i).text() for i in range(doc.pageCount())]


def test_roster_sheets_one_page_a_command(open_window, tmp_path):
    w = open_window()
    b = w.doc.battle
    html = roster_html(b, "Skirmish")
    for u in b.units.values():
        assert u.name in html and "☐" * u.max_hits in html
    assert "Shaken when <b>2</b> of its 4 units are lost" in html
    out = tmp_path / "rosters.pdf"
    assert w.files.export_rosters(out)
    pages = pdf_text(out)
    commands = [c for c in b.commands if b.hierarchy.units_of(c)]
    assert len(pages) == len(commands)
    assert all("Leader:" in p and "Shaken when" in p for p in pages)


def test_the_report_has_apart_headers_no_minus_zero_and_a_map(open_window, tmp_path):
    w = open_window()
    w.doc.execute(ga.StartBattle())
    html = battle_report_html(w.doc.session)
    assert "-0" not in html and "cellpadding=4" in html and "padding:" not in html
    assert "hits taken" in html
    out = tmp_path / "report.pdf"
    assert w.files.export_report(out)
    text = " ".join(pdf_text(out))
    assert "Final positions" in text and "Eliminated" in text
    web = tmp_path / "report.html"
    assert w.files.export_report(web)
    assert "src='data:image/png;base64," in web.read_text()
