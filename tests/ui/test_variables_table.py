"""The variables table: sessions replace its rows, reusing the ones it has."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec
from tapeviz.ui.window.variables_table import VariablesTable


def test_set_specs_reuses_rows_and_shows_exactly_the_new_ones(qtbot: QtBot) -> None:
    table = VariablesTable()
    qtbot.addWidget(table)
    quadratic = PRESETS["quadratic"].variables
    table.set_specs(quadratic)
    boxes = [table.table.cellWidget(r, 2) for r in range(len(quadratic))]
    assert table.specs() == list(quadratic)
    other = (
        VariableSpec("w", 1.5, "watched", "float64"),
        VariableSpec("b", -2.0, "constant", "float32"),
    )
    with qtbot.waitSignal(table.changed):
        table.set_specs(other)
    assert table.specs() == list(other)
    assert table.snapshot() == (("w", "1.5", "watched"), ("b", "-2.0", "constant"))
    assert [table.table.cellWidget(r, 2) for r in range(2)] == boxes[:2]  # the same boxes
    table.set_specs(quadratic)  # more rows again: two reused, two new
    assert table.specs() == list(quadratic)
    assert [table.table.cellWidget(r, 2) for r in range(2)] == boxes[:2]
    table.set_specs(())
    assert table.specs() == [] and table.table.rowCount() == 0
