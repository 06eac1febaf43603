"""HTML reports to paper or PDF through Qt's text layout and printing."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter

from manager.scenario_io import write_text_atomic


def export_html(html: str, path: Path) -> None:
    """A .pdf is laid out on A4 by Qt; anything else is written as the HTML itself.
    Written beside the target and renamed, so a failure leaves no half file."""
    if path.suffix.lower() != ".pdf":
        write_text_atomic(path, html)
        return
    tmp = path.with_name(path.name + ".part")
    writer = QPdfWriter(str(tmp))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Millimeter))
    writer.setTitle("After-action report")
    doc = QTextDocument()
    doc.setHtml(html)
    doc.print_(writer)
    del writer                      # flushes and closes the PDF
    if not tmp.exists():
        raise OSError(f"Qt could not write {tmp}")
    tmp.replace(path)


def print_html(html: str, parent) -> bool:
    printer = QPrinter(QPrinter.HighResolution)
    dialog = QPrintDialog(printer, parent)
    if dialog.exec() != QPrintDialog.Accepted:
        return False
    doc = QTextDocument()
    doc.setHtml(html)
    doc.print_(printer)
    return True
