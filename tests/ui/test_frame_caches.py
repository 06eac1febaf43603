"""Issue 17, the zoom frame: compact labels are pixmaps made once per label and terrain is
a recorded picture replayed per frame. A cached drawing must never outlive what it
shows: after a change, the window draws exactly what a drawing from scratch draws."""
from __future__ import annotations

from conftest import ROOT
from PySide6.QtCore import Qt

from manager.editor_actions import EditUnit, ReshapeTerrain

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


def _frame(w):
    w.view.viewport().repaint()
    return w.view.viewport().grab().toImage()


def _from_scratch(w):
    """The frame with every drawing cache dropped: labels, in-counter texts, terrain, the
    view's background."""
    for item in w.scene.units.values():
        item._plates, item._text_cache, item._statics = {}, {}, {}
    for item in w.scene.items():
        if hasattr(item, "_picture"):
            item._picture = None
    w.view.resetCachedContent()
    return _frame(w)


def _counter_area(w, uid):
    item = w.scene.units[uid]
    return w.view.mapFromScene(item.sceneBoundingRect()).boundingRect().adjusted(-30, -30, 30, 30)


def test_a_compact_label_shows_the_new_strength_after_hits(open_window):
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    uid = next(u for u, item in w.scene.units.items() if item.label_mode(w.view.zoom) == "compact"
               and w.doc.battle.units[u].hits >= 3)
    before = _frame(w)
    assert w.doc.execute(EditUnit(uid, (("hits", 1),)))
    after = _frame(w)
    box = _counter_area(w, uid)
    assert before.copy(box) != after.copy(box)         # the counter's label changed
    assert after == _from_scratch(w)                    # and is drawn as from scratch
    assert w.scene.units[uid].compact_text(w.view.zoom)[1] == "1"


def test_compact_labels_follow_the_zoom_as_drawn_from_scratch(open_window):
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    for factor in (1.3, 1.3, 1 / 1.69 / 1.2):          # wider plates, then back and smaller
        w.view.zoom_by(factor)
        assert _frame(w) == _from_scratch(w), factor


def test_a_moved_town_is_drawn_where_it_now_is(open_window):
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    town = next(f for f in w.doc.battle.battlefield.features if f.kind == "town")
    before = _frame(w)
    moved = tuple((x + 6, y) for x, y in town.points)
    if not w.doc.execute(ReshapeTerrain(town.id, moved)):     # a unit in the way: shift back
        moved = tuple((x - 6, y) for x, y in town.points)
        assert w.doc.execute(ReshapeTerrain(town.id, moved))
    after = _frame(w)
    assert before != after
    assert after == _from_scratch(w)


def test_leader_markers_drawn_in_pixels_keep_their_size_in_inches(open_window):
    """The markers' circles are drawn in screen pixels (far cheaper than a thin pen
    scaled up): still 0.7 inch across the radius at every zoom, on the leader's spot."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    for zoom in (12.0, 30.0):
        w.view.set_zoom(zoom)
        item = next(i for _, i in sorted(w.scene.leaders.items()) if i.isVisible())
        w.view.centerOn(item)
        assert w.view.viewport().rect().contains(w.view.mapFromScene(item.scenePos()))
        img = _frame(w)
        x, y = item.scenePos().x(), item.scenePos().y()

        def colour_at(dx, dy):
            pt = w.view.mapFromScene(QPointF(x + dx, y + dy))
            return QColor(img.pixel(pt.x(), pt.y()))
        fill = item._colour
        near = [colour_at(dx, dy) for dx, dy in ((0.45, 0.3), (-0.45, 0.3), (0.3, -0.45))]
        assert all(_alike(c, fill) for c in near), (zoom, [c.name() for c in near])
        rim = colour_at(0.7, 0)                                     # on it: white
        assert min(rim.red(), rim.green(), rim.blue()) > 200, zoom
        outside = colour_at(1.05, 0)
        assert not _alike(outside, fill) and not _alike(outside, rim), zoom


def _alike(a, b) -> bool:
    """The same colour but for a level or two of antialiasing."""
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) <= 8


def test_counters_are_outlined_once_readable(open_window):
    """The outline is stroked wherever a counter is big enough to read (it is dropped
    only where the whole table is a few hundred pixels wide: a fifth of a pixel)."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    w.view.set_zoom(30.0)
    item = next(i for i in w.scene.units.values() if i.isVisible() and i.rotation() % 90 == 0
                and not i.record.disordered and not i.isSelected())
    w.view.centerOn(item)
    img = _frame(w)
    r = item.mapRectToScene(item._rect)
    side = w.view.mapFromScene(QPointF(r.left(), r.center().y() + 0.2))
    darkest = min((QColor(img.pixel(side.x() + dx, side.y())) for dx in (-1, 0, 1)),
                  key=lambda c: c.lightness())
    assert darkest.lightness() < 70, darkest.name()         # #202020 over the side


def test_in_counter_texts_follow_hits_and_zoom_as_drawn_from_scratch(open_window):
    """Names and strengths inside a counter are laid out once (QStaticText) per text
    and font size: a changed strength or another zoom draws what a layout from scratch
    draws."""
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    w.view.set_zoom(30.0)
    item = next(i for _, i in sorted(w.scene.units.items()) if i.isVisible()
                and w.doc.battle.units[i.uid].hits >= 3 and i.label_mode(w.view.zoom) == "full")
    w.view.centerOn(item)
    before = _frame(w)
    assert w.doc.execute(EditUnit(item.uid, (("hits", 1),)))
    after = _frame(w)
    box = _counter_area(w, item.uid)
    assert before.copy(box) != after.copy(box)
    assert after == _from_scratch(w)
    assert w.scene.units[item.uid].drawn_text[1].split("/")[0] == "1"
    renamed = "Régiment provisoire de grenadiers réunis de la Garde impériale"
    assert w.doc.execute(EditUnit(item.uid, (("name", renamed),)))
    assert _frame(w) == _from_scratch(w)
    assert w.scene.units[item.uid].drawn_text[0] != renamed          # cut to its room
    for factor in (1.3, 1.7, 1 / 2.21):
        w.view.zoom_by(factor)
        assert _frame(w) == _from_scratch(w), factor


def test_in_counter_names_fit_their_room(open_window):
    """The full name where it fits the room beside the mark, else the short designation
    cut with an ellipsis; never wider than the room. "12/16" where it fits, else "12"."""
    from PySide6.QtGui import QFont, QFontMetrics

    from ui.wording import short_name
    w = open_window(AUSTERLITZ, size=(1600, 1000))
    seen = {"full": 0, "cut": 0}
    for zoom in (20.0, 30.0, 60.0):
        w.view.set_zoom(zoom)
        units = sorted(w.scene.units.items())
        for item in (units[0][1], units[len(units) // 2][1], units[-1][1]):
            w.view.centerOn(item)
            _frame(w)
        for item in w.scene.units.values():
            if item.drawn_text is None or not item.isVisible():
                continue
            name, hits, _ = item.drawn_text
            if 90 < item.rotation() % 360 <= 270:
                continue                        # (drawn turned round: the mark's side swaps)
            r, sym = item._rect, item._sym
            room = (r.right() - sym.right() - 0.1) * w.view.zoom     # beside the mark
            font = QFont("Sans")
            font.setPixelSize(max(1, int(r.height() * 0.34 * w.view.zoom)))
            fm = QFontMetrics(font)
            if fm.horizontalAdvance(item.record.name) <= int(room):
                assert name == item.record.name
                seen["full"] += 1
            else:
                assert name == fm.elidedText(short_name(item.record.name), Qt.ElideRight, int(room))
                seen["cut"] += 1
            assert fm.horizontalAdvance(name) <= room
            full = f"{item.record.hits}/{item.record.max_hits}"
            assert hits == (full if fm.horizontalAdvance(full) <= room else str(item.record.hits))
            item.drawn_text = None
    assert seen["full"] and seen["cut"], seen
