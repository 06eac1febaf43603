"""Issue 17, the zoom frame: compact labels are pixmaps made once per label and terrain is
a recorded picture replayed per frame. A cached drawing must never outlive what it
shows: after a change, the window draws exactly what a drawing from scratch draws."""
from __future__ import annotations

from conftest import ROOT

from manager.editor_actions import EditUnit, ReshapeTerrain

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


def _frame(w):
    w.view.viewport().repaint()
    return w.view.viewport().grab().toImage()


def _from_scratch(w):
    """The frame with every drawing cache dropped: labels, terrain, the view's background."""
    for item in w.scene.units.values():
        item._plate = None
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
