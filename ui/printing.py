"""HTML reports to paper or PDF through Qt's text layout and printing."""
from __future__ import annotations

from pathlib import Path

import base64

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, Qt, QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter

from manager.scenario_io import write_text_atomic


MAP = "final-positions.png"


def table_image(scene, width: int = 1600) -> QImage:
    """The table as it stands, drawn from the scene (terrain, counters, leaders)."""
    rect = scene.table.rect()
    height = max(1, int(width * rect.height() / max(rect.width(), 1)))
    image = QImage(width, height, QImage.Format_RGB32)
    image.fill(Qt.white)
    p = QPainter(image)
    p.setRenderHint(QPainter.Antialiasing)
    with scene.counters_by_themselves():      # labels as at this scale, not the view's
        scene.render(p, QRectF(0, 0, width, height), rect)
    p.end()
    return image


def with_map(html: str, caption: str = "Final positions") -> str:
    """The report with a map of the table at its end (the image is given to export_html)."""
    return html.replace("</body>", f"<h2>{caption}</h2><p><img src='{MAP}' width=480></p></body>")


def _document(html: str, images: dict) -> QTextDocument:
    doc = QTextDocument()
    for name, image in (images or {}).items():
        doc.addResource(QTextDocument.ImageResource, QUrl(name), image)
    doc.setHtml(html)
    return doc


def _data_uri(image: QImage) -> str:
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    image.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(bytes(data)).decode("ascii")


def export_html(html: str, path: Path, images: dict | None = None) -> None:
    """A .pdf is laid out on A4 by Qt; anything else is written as the HTML itself (with
    its images inlined). Written beside the target and renamed, so a failure leaves no
    half file."""
    if path.suffix.lower() != ".pdf":
        for name, image in (images or {}).items():
            html = html.replace(f"src='{name}'", f"src='{_data_uri(image)}'")
        write_text_atomic(path, html)
        return
    tmp = path.with_name(path.name + ".part")
    writer = QPdfWriter(str(tmp))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Millimeter))
    writer.setTitle("After-action report")
    doc = _document(html, images)
    doc.print_(writer)
    del writer                      # flushes and closes the PDF
    if not tmp.exists():
        raise OSError(f"Qt could not write {tmp}")
    tmp.replace(path)


def print_html(html: str, parent, images: dict | None = None) -> bool:
    printer = QPrinter(QPrinter.HighResolution)
    dialog = QPrintDialog(printer, parent)
    if dialog.exec() != QPrintDialog.Accepted:
        return False
    _document(html, images).print_(printer)
    return True
