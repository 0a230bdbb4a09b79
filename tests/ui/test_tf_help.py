"""Help → Libraries in tapeviz: the names scripts can use, generated from the namespaces."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.sandbox import run
from tapeviz.ui import MainWindow
from tapeviz.ui.window.help_pages import catalog


def test_the_catalog_lists_what_scripts_can_use() -> None:
    names, unavailable = catalog()
    assert "reduce_sum" in names["tf"] and "Dense" in names["tf.keras.layers"]
    assert "plot" in names["matplotlib.pyplot"] and "linspace" in names["np"]
    assert "read_file" in unavailable["tf.io"] and "save" in names["tf.saved_model"]
    for ns, listed in names.items():  # every listed name is reachable from a script
        if ns.startswith("tf.") and ns.count(".") == 1 and listed:
            source = f"x = {ns}.{listed[0]}"
            assert run(source).error is None, (source, run(source).error)


def test_the_names_page_has_numpy_and_matplotlib_and_filters(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = window.help.show("names")
    text = dialog.names.toPlainText()
    assert "matplotlib.pyplot" in text and "linspace" in text and "tf.keras.layers" in text
    dialog.filter.setText("reduce_sum")
    text = dialog.names.toPlainText()
    assert "reduce_sum" in text and "linspace" not in text
    dialog.close()


def test_the_menu_names_the_page_the_hints_point_to(window: MainWindow) -> None:
    titles = [a.text() for m in window.menuBar().actions() for a in m.menu().actions()]
    assert "&Libraries in tapeviz" in titles
    err = run("tf.compat.v1").error
    assert err is not None and 'Help → "Libraries in tapeviz"' in (err.hint or "")


def test_why_a_name_is_missing_is_a_translated_phrase() -> None:
    """The sentences of known.py reach the window as phrases, so they are worded in Chinese too."""
    from tapeviz.sandbox.messages import PHRASES
    from tapeviz.sandbox.runtime.known import ELSEWHERE, WHY_NOT

    missing = [v for v in [*WHY_NOT.values(), *ELSEWHERE.values()] if v not in PHRASES]
    assert not missing
    err = run("import pandas as pd").error
    assert err is not None and err.hint_msg is not None
    assert dict(err.hint_msg.fields)["text"] == ELSEWHERE["pandas"]
