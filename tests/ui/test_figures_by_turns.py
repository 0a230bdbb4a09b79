"""Big figures reach the Plots tab by turns: many figures, or an axes of hundreds of lines.

A run's 50 figures (the sandbox's cap) took the window 1.1 s in one go, an axes of 500 lines
1.2 s (each new line made the lines before it and the axes update again), and a new figure was
drawn twice. (The speed is a benchmark's business: these check what is drawn, and when.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tapeviz.ui.figures import canvas as canvas_module
from tapeviz.ui.figures.canvas import LEGEND_ROWS, FigureCanvas
from tapeviz.ui.figures.panel import AT_ONCE, PlotsPanel
from tapeviz.ui.theme import DARK
from tapeviz.ui.turns import pending, turns
from tests.ui.test_figures import figures_of, panel  # noqa: F401  (the fixture)

LINES = "import numpy as np\nfor i in range(300):\n    plt.plot(np.arange(50), np.arange(50) * i)\n"


def test_the_first_figures_now_the_others_a_figure_per_turn(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
) -> None:
    figs = figures_of("for i in range(9):\n    plt.figure()\n    plt.plot([0, i])\n")
    shown: list[int] = []
    panel.figuresChanged.connect(shown.append)
    panel.set_figures(figs)
    assert shown == [9] and len(panel.panels) == AT_ONCE and panel.building
    qtbot.waitUntil(lambda: not panel.building, timeout=5000)
    assert [p.index for p in panel.panels] == list(range(9))
    assert [p.canvas.items[0][0].getData()[1][-1] for p in panel.panels] == list(range(9))
    panel.set_figures(figs[:5])  # a newer run's figures: the older turns draw nothing more
    panel.set_figures(figs[:4])
    panel.finish()
    assert len(panel.panels) == 4 and not panel.building
    qtbot.wait(50)
    assert len(panel.panels) == 4 and panel.column.count() == 5  # (and the stretch)


def test_an_axes_of_hundreds_of_lines_is_drawn_by_turns_then_ranged_over_all(
    qtbot: QtBot, tmp_path: Path
) -> None:
    (fig,) = figures_of(LINES)
    canvas = FigureCanvas(fig)
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    canvas.show()
    drawn = canvas.items[0]
    assert canvas.building and len(drawn) < 300  # (none, under a heavy load)
    done: list[bool] = []
    canvas.finished.connect(lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    assert len(drawn) == 300 and not canvas.building
    assert drawn[299].getData()[1][-1] == 49 * 299
    qtbot.wait(50)
    (_, _), (y0, y1) = canvas.plots[0].getViewBox().viewRange()
    assert y0 <= 0 and y1 >= 49 * 299  # the range found once every line was drawn
    again = FigureCanvas(fig)
    qtbot.addWidget(again)
    again.resize(600, 400)
    again.show()
    QApplication.processEvents()  # (painted once: its axes sized for the lines drawn so far)
    assert again.building
    again.export_png(tmp_path / "lines.png")  # an export draws what still waits, first
    assert len(again.items[0]) == 300 and not again.building
    left = [c.plots[0].getAxis("left").width() for c in (again, canvas)]
    assert left[0] == left[1], left  # (sized for its labels 0-15000, not its first range's)


def test_a_new_figure_is_drawn_once(panel: PlotsPanel, monkeypatch: object) -> None:  # noqa: F811
    count: list[int] = []
    real = canvas_module.FigureCanvas.draw
    monkeypatch.setattr(  # type: ignore[attr-defined]
        canvas_module.FigureCanvas, "draw", lambda self: (count.append(1), real(self))[1]
    )
    panel.set_figures(figures_of("plt.plot([1, 2, 3])\n"))
    assert len(count) == 1
    assert np.array_equal(panel.panels[0].canvas.items[0][0].getData()[1], [1, 2, 3])


def test_a_turn_has_one_time_for_all_the_axes_of_a_figure(qtbot: QtBot) -> None:
    """A 3×3 grid of 200 lines each drew 25 ms per axes in its first turn (381 ms)."""
    (fig,) = figures_of(
        "import numpy as np\nfig, axes = plt.subplots(3, 3)\nfor ax in axes.flat:\n"
        "    for i in range(200):\n        ax.plot(np.arange(20) * i)\n"
    )
    canvas = FigureCanvas(fig)
    qtbot.addWidget(canvas)
    assert sum(map(len, canvas.items)) < 1800 and canvas.building
    assert sum(1 for drawn in canvas.items if len(drawn) == 200) == 0  # (no axes done at once)
    qtbot.waitUntil(lambda: not canvas.building, timeout=20_000)
    assert [len(drawn) for drawn in canvas.items] == [200] * 9


def test_a_replaced_figure_goes_by_turns_and_is_deleted_once_empty(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deleting an axes of 500 lines (and its legend) at once blocked the window 100-200 ms."""
    panel.set_figures(figures_of(
        "import numpy as np\nfor i in range(120):\n"
        "    plt.plot(np.arange(20) * i, label=f'line {i}')\nplt.legend()\n"
    ))  # fmt: skip
    old = panel.panels[0]
    old.canvas.finish()
    plot, legend = old.canvas.plots[0], old.canvas.legends[0]
    assert len(plot.listDataItems()) == 120 and len(legend.items) == LEGEND_ROWS
    gone: list[bool] = []
    old.destroyed.connect(lambda: gone.append(True))
    monkeypatch.setattr(canvas_module, "DISMANTLE_S", 0.0)  # (a row or an item a turn)
    panel.set_figures(figures_of("plt.plot([1, 2])\n"))
    assert old.isHidden() and panel.column.indexOf(old) == -1  # the new one shows at once
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    assert not gone and len(plot.listDataItems()) == 120  # (nothing deleted in this turn)
    passes = 0
    while not gone and passes < 1000:
        turns()._run()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        passes += 1
    assert gone and passes >= 120 + LEGEND_ROWS, passes
    assert len(panel.panels) == 1 and panel.column.indexOf(panel.panels[0]) == 0


def test_dismantling_stops_when_its_time_is_up_and_goes_on_where_it_stopped(
    qtbot: QtBot,
) -> None:
    (fig,) = figures_of(
        "import numpy as np\nfig, axes = plt.subplots(1, 2)\nfor ax in axes:\n"
        "    for i in range(5):\n        ax.plot(np.arange(3) * i, label=str(i))\n"
        "    ax.legend()\n"
    )
    canvas = FigureCanvas(fig)
    qtbot.addWidget(canvas)
    rows = [len(legend.items) for legend in canvas.legends]
    series = [len(plot.items) for plot in canvas.plots]
    assert rows == [5, 5] and series == [5, 5]
    turns = 1
    while not canvas.dismantle(budget=0.0):  # (each turn: one legend row or one item)
        turns += 1
    assert turns >= sum(rows) + sum(series)
    assert [len(p.items) for p in canvas.plots] == [0, 0]
    assert not any(legend.items for legend in canvas.legends)
    assert canvas.dismantle(budget=0.0)  # (nothing left: done at once)


def test_an_axes_of_many_lines_is_ranged_from_its_data_and_its_legend_lists_the_first_rows(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
) -> None:
    """pyqtgraph's range once all were drawn updated each of 500 lines again (120-140 ms), and
    each legend row re-sized the legend (5 ms a row at 350 rows: 4 lines a turn)."""
    panel.set_figures(figures_of(
        "import numpy as np\nfor i in range(100):\n"
        "    plt.plot(np.arange(10) + 5, np.arange(10) * i - 3, label=f'line {i}')\n"
        "plt.legend()\n"
    ))  # fmt: skip
    figure = panel.panels[0]
    canvas = figure.canvas
    vb = canvas.plots[0].getViewBox()
    (x0, x1), (y0, y1) = vb.viewRange()
    assert canvas.building and x0 < 5 < 14 < x1 and y0 < -3 < 9 * 99 - 3 < y1  # (all of it)
    assert x1 - x0 < 9 * 1.5 and y1 - y0 < (9 * 99) * 1.5  # (with a margin, not more)
    qtbot.waitUntil(lambda: not canvas.building, timeout=10_000)
    assert vb.viewRange() == [[x0, x1], [y0, y1]] and vb.autoRangeEnabled() == [False, False]
    assert len(canvas.legends[0].items) == LEGEND_ROWS
    assert "(the legend lists 30 of 100 labels)" in figure.heading.text()


def test_a_theme_or_a_scale_draws_a_big_figure_again_and_lets_the_old_one_go_by_turns(
    qtbot: QtBot,
) -> None:
    (fig,) = figures_of(LINES)
    canvas = FigureCanvas(fig)
    qtbot.addWidget(canvas)
    canvas.finish()
    old_plot, old_layout = canvas.plots[0], canvas.ci
    canvas.restyle(canvas.theme, 1.5)
    assert canvas.ci is not old_layout and canvas.plots[0] is not old_plot
    assert len(old_plot.items) == 300  # (nothing removed in this turn: it is out of sight)
    assert old_layout.scene() is canvas.scene()
    qtbot.waitUntil(lambda: old_layout.scene() is None and not canvas.building, timeout=20_000)
    assert old_plot.items == []
    assert len(canvas.items[0]) == 300  # the figure, drawn again at the new scale


def test_bars_drawn_by_turns_are_ranged_with_their_bases(qtbot: QtBot) -> None:
    (fig,) = figures_of("for i in range(300):\n    plt.bar(i, 5 + i % 5)\n")
    canvas = FigureCanvas(fig)
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    canvas.show()
    qtbot.waitUntil(lambda: not canvas.building, timeout=20_000)
    qtbot.wait(50)
    (x0, x1), (y0, y1) = canvas.plots[0].getViewBox().viewRange()
    assert y0 <= 0 and y1 >= 9 and x0 <= -0.4 and x1 >= 299.4  # (bases and widths in view)


def test_a_figure_deleted_while_its_old_drawing_still_goes_raises_nothing(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
) -> None:
    panel.set_figures(figures_of(
        "import numpy as np\nfor i in range(150):\n"
        "    plt.plot(np.arange(20) * i, label=str(i))\nplt.legend()\n"
    ))  # fmt: skip
    panel.panels[0].canvas.finish()
    panel.set_theme(DARK)  # drawn again: the old series go by turns ...
    turns()._run()
    panel.set_figures([])  # ... and the figure is replaced meanwhile
    qtbot.waitUntil(lambda: pending() == 0, timeout=20_000)
    qtbot.wait(50)  # (an error in a turn fails the test: pytest-qt reports it)


def test_an_axes_of_many_lines_draws_them_1px_wide(panel: PlotsPanel) -> None:  # noqa: F811
    """A wide pen is stroked: 500 lines of 2-3 px took 41-44 ms to paint, of 1 px 12-14 ms."""
    many, few = figures_of(
        "import numpy as np\nfor i in range(120):\n    plt.plot(np.arange(5) * i, lw=2)\n"
        "plt.figure()\nfor i in range(20):\n    plt.plot(np.arange(5) * i, lw=2)\n"
    )
    for fig, width in ((many, 1.0), (few, 2 * 96 / 72)):
        canvas = FigureCanvas(fig)
        canvas.finish()
        assert {item.opts["pen"].widthF() for item in canvas.items[0]} == {width}
        canvas.deleteLater()


def test_a_big_figure_takes_a_new_scale_on_a_turn_of_its_own_and_an_export_has_it(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
    tmp_path: Path,
) -> None:
    panel.set_figures(figures_of(LINES))
    figure = panel.panels[0]
    canvas = figure.canvas
    canvas.finish()
    panel.set_font_scale(1.5)  # the window's restyle: the old lines are out of sight at once
    assert canvas.aside and canvas.plots == [] and canvas.scale == 1.0
    qtbot.waitUntil(lambda: canvas.scale == 1.5 and not canvas.building, timeout=20_000)
    panel.set_font_scale(2.0)
    assert canvas.aside
    panel.set_font_scale(1.5)  # (and back, before its turn: drawn again all the same)
    figure.export("png", tmp_path / "now.png")  # an export takes the style asked for, first
    assert canvas.scale == 1.5 and not canvas.aside and len(canvas.items[0]) == 300
    qtbot.waitUntil(lambda: pending() == 0, timeout=20_000)
    assert canvas.scale == 1.5 and len(canvas.items[0]) == 300


def test_a_figure_replaced_before_its_new_style_is_not_drawn_again(
    qtbot: QtBot,
    panel: PlotsPanel,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel.set_figures(figures_of(LINES))
    old = panel.panels[0].canvas
    old.finish()
    panel.set_font_scale(1.5)  # its new style waits for a turn ...
    drawn: list[object] = []
    real = canvas_module.FigureCanvas.draw
    monkeypatch.setattr(canvas_module.FigureCanvas, "draw",
                        lambda self: (drawn.append(self), real(self))[1])  # fmt: skip
    panel.set_figures(figures_of("plt.plot([1, 2])\n"))  # ... and the figure is replaced
    qtbot.waitUntil(lambda: pending() == 0, timeout=20_000)
    assert old not in drawn
