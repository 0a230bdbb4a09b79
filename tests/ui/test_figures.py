"""The Plots tab's widgets: a run's figures drawn with pyqtgraph, restyled, exported."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from tapeviz.sandbox import run
from tapeviz.ui.figures.canvas import FigureCanvas
from tapeviz.ui.figures.panel import PlotsPanel
from tapeviz.ui.theme import DARK, LIGHT


def figures_of(source: str) -> tuple:
    result = run("import matplotlib.pyplot as plt\n" + source)
    assert result.error is None, result.error
    return result.figures


@pytest.fixture
def panel(qtbot: QtBot) -> PlotsPanel:
    p = PlotsPanel()
    qtbot.addWidget(p)
    p.resize(800, 900)
    p.show()
    qtbot.waitExposed(p)
    return p


def test_a_loss_curve_is_drawn_with_its_points(panel: PlotsPanel) -> None:
    figs = figures_of(
        "losses = [4.0, 2.0, 1.0, 0.5]\nplt.plot(losses, label='loss')\nplt.legend()\n"
        "plt.title('Training')\nplt.xlabel('epoch')"
    )
    panel.set_figures(figs)
    assert not panel.empty.isVisible() and len(panel.panels) == 1
    canvas = panel.panels[0].canvas
    (plot,) = canvas.plots
    (line,) = canvas.items[0]
    x, y = line.getData()
    np.testing.assert_array_equal(x, [0, 1, 2, 3])
    np.testing.assert_array_equal(y, [4.0, 2.0, 1.0, 0.5])
    assert "Training" in plot.titleLabel.text
    assert plot.getAxis("bottom").labelText == "epoch"
    assert plot.legend is None  # ours is a LegendItem on the view box
    legends = [i for i in plot.getViewBox().childItems() if isinstance(i, pg.LegendItem)]
    assert len(legends) == 1 and [lab.text for _, lab in legends[0].items] == ["loss"]


def test_subplots_are_laid_out_as_in_matplotlib(panel: PlotsPanel) -> None:
    figs = figures_of(
        "fig, (a, b) = plt.subplots(1, 2)\na.plot([1, 2])\nb.scatter([1], [2])\n"
        "fig.suptitle('pair')"
    )
    panel.set_figures(figs)
    canvas = panel.panels[0].canvas
    left, right = canvas.plots
    layout = canvas.ci.layout
    assert layout.itemAt(1, 0) is left and layout.itemAt(1, 1) is right  # row 0: the title
    assert isinstance(canvas.items[1][0], pg.ScatterPlotItem)
    assert left.sceneBoundingRect().right() <= right.sceneBoundingRect().left() + 1


def test_log_axes_place_log10_and_label_decades(panel: PlotsPanel) -> None:
    panel.set_figures(figures_of("plt.semilogy([1, 2, 3], [1.0, 10.0, 1000.0])"))
    canvas = panel.panels[0].canvas
    _, y = canvas.items[0][0].getData()
    np.testing.assert_allclose(y, [0.0, 1.0, 3.0])
    ticks = canvas.plots[0].getAxis("left")._tickLevels
    assert ticks is not None and (3.0, "1000") in ticks[0]


def test_contour_lines_run_along_the_levels(qtbot: QtBot) -> None:
    figs = figures_of(
        "X, Y = np.meshgrid(np.linspace(0, 1, 11), np.linspace(0, 2, 21))\n"
        "cs = plt.contour(X, Y, X, levels=[0.5])"  # z = x: the level is the line x = 0.5
    )
    canvas = FigureCanvas(figs[0])
    qtbot.addWidget(canvas)
    curves = [i for i in canvas.plots[0].getViewBox().addedItems if isinstance(i, pg.PlotCurveItem)]
    assert curves
    for c in curves:
        x, y = c.getData()
        np.testing.assert_allclose(x, 0.5, atol=1e-9)
        assert y.min() >= 0 and y.max() <= 2


def test_images_contours_and_colorbars(panel: PlotsPanel) -> None:
    figs = figures_of(
        "X, Y = np.meshgrid(np.linspace(-1, 1, 20), np.linspace(-1, 1, 10))\n"
        "fig, (a, b) = plt.subplots(1, 2)\n"
        "a.imshow(np.arange(6.0).reshape(2, 3), cmap='gray')\n"
        "cs = b.contourf(X, Y, X * Y, levels=4)\nfig.colorbar(cs)\n"
    )
    panel.set_figures(figs)
    canvas = panel.panels[0].canvas
    image = canvas.items[0][0]
    assert isinstance(image, pg.ImageItem) and image.image.shape == (2, 3)
    assert canvas.plots[0].getViewBox().yInverted()  # imshow: row 0 at the top
    assert len(canvas.colorbars) == 1


def test_theme_and_presenter_scale_redraw(panel: PlotsPanel) -> None:
    panel.set_figures(figures_of("plt.plot([0, 1], [0, 1], 'k-', lw=2)\nplt.title('t')"))
    panel.set_theme(DARK)
    panel.set_font_scale(2.0)
    canvas = panel.panels[0].canvas
    pen = canvas.items[0][0].opts["pen"]
    assert pen.color().name() == DARK.text.lower()  # black reads on the dark background
    assert pen.widthF() == pytest.approx(2 * 96 / 72 * 2.0)
    assert canvas.plots[0].getAxis("left").style["tickFont"].pointSizeF() == pytest.approx(18)
    panel.set_theme(LIGHT)
    assert canvas.items[0][0].opts["pen"].color().name() == "#000000"


def test_export_png_and_svg(panel: PlotsPanel, tmp_path: Path) -> None:
    panel.set_figures(figures_of("plt.plot([1, 3, 2])\nplt.savefig('curve.png')"))
    fp = panel.panels[0]
    assert fp.default_name("svg") == "curve.svg" and "savefig: curve.png" in fp.heading.text()
    png = fp.export("png", tmp_path / "a.png")
    image = QImage(str(png))
    assert image.width() == 2 * fp.canvas.width()
    svg = fp.export("svg", tmp_path / "a.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg and "path" in svg
    with pytest.raises(OSError):
        fp.export("png", tmp_path / "missing" / "x.png")


def test_labels_are_text_never_html(panel: PlotsPanel) -> None:
    panel.set_figures(figures_of(
        "plt.plot([1], label='<img src=\"file:///etc/passwd\">')\nplt.legend()\n"
        "plt.title('<b>bold</b> & $\\\\alpha$')"
    ))  # fmt: skip
    plot = panel.panels[0].canvas.plots[0]
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; α" in plot.titleLabel.text
    legend = next(i for i in plot.getViewBox().childItems() if isinstance(i, pg.LegendItem))
    assert legend.items[0][1].text.startswith("&lt;img")


def test_no_figures_shows_how_to_make_one(panel: PlotsPanel) -> None:
    panel.set_figures(figures_of("plt.plot([1])"))
    panel.set_figures(())
    assert panel.empty.isVisible() and not panel.panels
    assert "matplotlib.pyplot" in panel.empty.text()


def test_every_kind_of_series_draws(panel: PlotsPanel) -> None:
    figs = figures_of(
        "np.random.seed(1)\nfig, axs = plt.subplots(2, 3)\n"
        "axs[0, 0].plot([1, 2], 'o--')\naxs[0, 1].bar(['a', 'b'], [1, 2])\n"
        "axs[0, 2].hist(np.random.normal(size=100), histtype='step')\n"
        "axs[1, 0].fill_between([0, 1], [0, 1], [1, 2])\naxs[1, 0].axvline(0.5)\n"
        "axs[1, 1].text(0, 0, 'hi')\naxs[1, 1].annotate('there', (1, 1))\n"
        "axs[1, 2].barh([1, 2], [3, 4])\naxs[1, 2].set_xscale('log')\naxs[1, 2].axis('off')\n"
    )
    panel.set_figures(figs)
    canvas = panel.panels[0].canvas
    assert len(canvas.plots) == 6
    assert isinstance(canvas.items[1][0], pg.BarGraphItem)
    assert not canvas.plots[5].getAxis("left").isVisible()


def test_a_huge_scatter_is_thinned_and_says_so(panel: PlotsPanel) -> None:
    panel.set_figures(figures_of("x = np.arange(100000.0)\nplt.scatter(x, x, c=x)"))
    fp = panel.panels[0]
    x, _ = fp.canvas.items[0][0].getData()
    assert len(x) == 20_000 and x[0] == 0 and x[-1] == 99_999
    assert "(20,000 of a scatter's 100,000 points drawn)" in fp.heading.text()
