"""Help → TensorFlow in tapeviz: the names scripts can use, generated from the namespaces."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from tapeviz.sandbox import run
from tapeviz.ui import MainWindow
from tapeviz.ui.window.tf_help import TfHelpDialog, catalog


def test_the_catalog_lists_what_scripts_can_use() -> None:
    names, unavailable = catalog()
    assert "reduce_sum" in names["tf"] and "Dense" in names["tf.keras.layers"]
    assert "plot" in names["matplotlib.pyplot"] and "linspace" in names["np"]
    assert "save" in unavailable["tf.saved_model"]
    for ns, listed in names.items():  # every listed name is reachable from a script
        if ns.startswith("tf.") and ns.count(".") == 1 and listed:
            source = f"x = {ns}.{listed[0]}"
            assert run(source).error is None, (source, run(source).error)


def test_the_dialog_filters_as_you_type(qtbot: QtBot) -> None:
    dialog = TfHelpDialog()
    qtbot.addWidget(dialog)
    assert "tf.keras.layers: " in dialog.text.toPlainText()
    dialog.filter.setText("reduce_sum")
    lines = dialog.text.toPlainText().splitlines()
    assert lines == ["tf: reduce_sum", "tf.math: reduce_sum"]
    dialog.filter.setText("no-such-name")
    assert dialog.text.toPlainText() == "No name matches."


def test_help_opens_it_and_the_hints_point_there(window: MainWindow) -> None:
    dialog = window.dialogs.tf_help()
    assert isinstance(dialog, QDialog) and dialog.isVisible()
    dialog.close()
    err = run("tf.compat.v1").error
    assert err is not None and 'Help → "TensorFlow in tapeviz" (F1)' in (err.hint or "")
