"""matplotlib.pyplot in scripts: what the figures hold, as matplotlib would draw them."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from tapeviz.sandbox import Limits, UserCodeError, run
from tapeviz.sandbox import figures as F


def figures(source: str, **kw: object) -> tuple[F.Figure, ...]:
    result = run("import matplotlib.pyplot as plt\n" + textwrap.dedent(source), **kw)  # type: ignore[arg-type]
    assert result.error is None, result.error
    return result.figures


def error_of(source: str, **kw: object) -> UserCodeError:
    result = run("import matplotlib.pyplot as plt\n" + textwrap.dedent(source), **kw)  # type: ignore[arg-type]
    assert result.error is not None, result.output
    return result.error


def test_a_loss_curve_keeps_its_points() -> None:
    (fig,) = figures(
        """
        x = tf.Variable(3.0)
        opt = tf.keras.optimizers.SGD(learning_rate=0.1)
        losses = []
        for step in range(50):
            with tf.GradientTape() as tape:
                loss = x ** 2
            opt.apply_gradients([(tape.gradient(loss, x), x)])
            losses.append(loss)
        plt.plot(losses, label="loss")
        plt.xlabel("step")
        plt.ylabel("loss")
        plt.yscale("log")
        plt.title("SGD on x²")
        plt.legend()
        plt.show()
        """
    )
    (ax,) = fig.axes
    (line,) = ax.series
    expected = [9.0 * 0.8 ** (2 * k) for k in range(50)]  # x ← 0.8 x each step
    np.testing.assert_allclose(line.y, expected, rtol=1e-5)
    np.testing.assert_array_equal(line.x, np.arange(50))
    assert (ax.title, ax.xlabel, ax.ylabel, ax.yscale, ax.legend) == (
        "SGD on x²", "step", "loss", "log", "best",
    )  # fmt: skip
    assert line.label == "loss" and line.color == "#1f77b4ff" and line.style == "-"


def test_format_strings_colours_and_the_cycle() -> None:
    (fig,) = figures(
        """
        plt.plot([0, 1], [0, 1], "ro--")
        plt.plot([0, 1], [1, 0])
        plt.plot([0, 1], [2, 2], color="navy", linewidth=3, marker="s", alpha=0.5)
        plt.plot([1, 2], "k:")
        """
    )
    a, b, c, d = fig.axes[0].series
    assert (a.color, a.marker, a.style) == ("#ff0000ff", "o", "--")
    assert b.color == "#1f77b4ff"  # 'ro--' set its own colour: the cycle starts at C0
    assert (c.color, c.width, c.marker) == ("#00008080", 3.0, "s")
    assert (d.color, d.style) == ("#000000ff", ":")
    np.testing.assert_array_equal(d.x, [0, 1])


def test_subplots_with_two_axes() -> None:
    (fig,) = figures(
        """
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.plot([1, 2, 3], [1, 4, 9])
        left.set_title("squares")
        right.scatter([1, 2], [3, 4], c=[0.0, 1.0], cmap="coolwarm")
        fig.suptitle("two plots")
        """
    )
    assert (fig.rows, fig.cols, fig.size, fig.title) == (1, 2, (10.0, 4.0), "two plots")
    left, right = fig.axes
    assert (left.row, left.col, right.row, right.col) == (0, 0, 0, 1)
    assert left.title == "squares" and right.series[0].kind == "points"
    assert right.series[0].cmap == "coolwarm"
    np.testing.assert_array_equal(right.series[0].values, [0.0, 1.0])


def test_subplot_grids_and_spans() -> None:
    (fig,) = figures(
        "plt.subplot(211)\nplt.plot([1])\nplt.subplot(2, 2, 3)\nplt.subplot(2, 2, 4)\n"
        "plt.subplot(2, 1, 1)\nplt.title('again')\n"
    )
    top, a, b = fig.axes
    assert (fig.rows, fig.cols) == (2, 2)
    assert (top.row, top.col, top.rowspan, top.colspan, top.title) == (0, 0, 1, 2, "again")
    assert (a.row, a.col, b.row, b.col) == (1, 0, 1, 1)


def test_axes_arrays_index_and_iterate() -> None:
    result = run(
        "import matplotlib.pyplot as plt\nfig, axs = plt.subplots(2, 3)\n"
        "for i, ax in enumerate(axs.flat):\n    ax.plot([i])\n"
        "axs[1, 2].set_title('last')\n"
        "print(axs.shape, len(axs), axs.size, type(axs[0][0]).__name__)"
    )
    assert result.error is None and result.output == "(2, 3) 2 6 Axes\n"
    (fig,) = result.figures
    assert [ax.series[0].y[0] for ax in fig.axes] == [0, 1, 2, 3, 4, 5]
    assert fig.axes[5].title == "last"


def test_hist_returns_counts_and_edges_like_matplotlib() -> None:
    result = run(
        "import matplotlib.pyplot as plt\nn, bins, patches = plt.hist([1, 2, 2, 3, 3, 3], bins=3)\n"
        "print(n, bins)"
    )
    assert result.output == "[1. 2. 3.] [1.         1.66666667 2.33333333 3.        ]\n"
    (bars,) = result.figures[0].axes[0].series
    np.testing.assert_allclose(bars.height, [1, 2, 3])
    np.testing.assert_allclose(bars.x, [4 / 3, 2, 8 / 3])


def test_bar_with_categories_labels_the_axis() -> None:
    (fig,) = figures("plt.bar(['SGD', 'Adam'], [0.3, 0.1], color=['C1', 'C2'][0])")
    ax = fig.axes[0]
    assert ax.xticks == ((0.0, "SGD"), (1.0, "Adam"))
    np.testing.assert_array_equal(ax.series[0].height, [0.3, 0.1])


def test_contour_of_a_loss_surface_and_imshow() -> None:
    (fig,) = figures(
        """
        x = np.linspace(-2, 2, 41)
        y = np.linspace(-1, 3, 21)
        X, Y = np.meshgrid(x, y)
        Z = (1 - X) ** 2 + 100 * (Y - X ** 2) ** 2
        cs = plt.contour(X, Y, Z, levels=[1, 10, 100], colors="k")
        plt.clabel(cs)
        plt.imshow(np.eye(3), cmap="gray")
        plt.colorbar()
        """
    )
    contour, image = fig.axes[0].series
    assert contour.z.shape == (21, 41) and contour.labels and contour.color == "#000000ff"
    np.testing.assert_array_equal(contour.levels, [1, 10, 100])
    np.testing.assert_array_equal(contour.x, np.linspace(-2, 2, 41))
    assert image.extent == (-0.5, 2.5, 2.5, -0.5) and image.cmap == "gray"
    assert fig.axes[0].colorbar_for == 1 and fig.axes[0].equal


def test_show_savefig_and_close_decide_what_is_kept() -> None:
    result = run(
        "import matplotlib.pyplot as plt\n"
        "plt.plot([1])\nplt.show()\n"  # kept
        "plt.plot([2])\nplt.close()\n"  # closed unseen: dropped
        "plt.plot([3])\nplt.savefig('loss.png')\nplt.close()\n"  # saved: kept
        "plt.figure()\nplt.plot([4])\n"  # open at the end: kept
    )
    assert result.error is None
    assert [f.axes[0].series[0].y[0] for f in result.figures] == [1, 3, 4]
    assert result.figures[1].saved == ("loss.png",)
    assert any("wrote no file" in n for n in result.notes)


def test_rcparams_and_style_belong_to_one_run() -> None:
    first = run(
        "import matplotlib.pyplot as plt\nplt.rcParams['figure.figsize'] = (9, 3)\n"
        "plt.style.use('ggplot')\nplt.plot([1])"
    )
    assert first.figures[0].size == (9.0, 3.0)
    assert any("follows tapeviz's theme" in n for n in first.notes)
    second = run("import matplotlib.pyplot as plt\nplt.plot([1])")
    assert second.figures[0].size == (6.4, 4.8)


def test_colormaps_map_numbers_to_colours() -> None:
    result = run(
        "import matplotlib.pyplot as plt\nc = plt.cm.viridis(np.linspace(0, 1, 3))\n"
        "print(c.shape, plt.get_cmap('viridis')(0.0))"
    )
    assert result.output == (
        "(3, 4) (0.26666666666666666, 0.00392156862745098, 0.32941176470588235, 1.0)\n"
    )


def test_mathtext_labels_read_as_unicode() -> None:
    assert F.plain_text(r"$\alpha^2 + \beta_0$") == "α² + β₀"
    assert F.plain_text(r"loss $\mathcal{L}$") == "loss mathcalL"
    assert F.plain_text("cost: $5") == "cost: $5"
    assert F.plain_text(r"$\frac{1}{n}\sum x_i^2$") == "(1)/(n)Σ xᵢ²"


def test_a_figure_with_no_plot_calls_is_not_kept() -> None:
    assert run("import matplotlib.pyplot as plt\nx = 1").figures == ()
    assert run("x = 1").figures == ()


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("plt.pie([1, 2])", "plt.pie is not available in tapeviz"),
        ("plt.xkcd()", "plt.xkcd is not available in tapeviz"),
        ("plt.errorbar([1], [1], yerr=[1])", "plt.errorbar is not available"),
        ("import matplotlib.animation", "matplotlib.animation is not available"),
        ("from matplotlib import colors", "matplotlib.colors is not available"),
        ("plt.imread('cat.png')", "no file access"),
        ("plt.subplots(1, 1, subplot_kw={'projection': '3d'})", "subplot_kw"),
        ("plt.figure().add_subplot(111, projection='3d')", "the 3d projection is not available"),
        ("plt.plot([1, 2], [1])", "x and y must have same first dimension"),
        ("plt.plot([1], color='notacolour')", "'notacolour' is not a valid color value"),
        ("plt.plot([1], 'q')", "not a valid format string"),
        ("plt.plot([1], foo=1)", "unexpected keyword argument 'foo'"),
        ("plt.imshow(np.zeros((2000, 2)))", "imshow of more than 1024×1024"),
        ("plt.contour(np.zeros((3, 3)), cmap='nosuchmap')", "is not a colormap tapeviz draws"),
        ("plt.xscale('logit')", "the 'logit' scale is not available"),
        ("plt.bar([1], [1], yerr=[0.1])", "error bars"),
        ("plt.subplot(13, 1, 1)", "larger than 12×12"),
        ("plt.plot(['a', 'b'])", "numbers"),
    ],
)
def test_what_matplotlib_has_but_tapeviz_does_not_draw(source: str, message: str) -> None:
    err = error_of(source)
    assert message in err.message + " " + (err.hint or ""), err


def test_plot_sizes_are_limited() -> None:
    err = error_of("for i in range(60):\n    plt.figure()\n")
    assert err.kind == "limit" and "more than 50 figures" in err.message
    err = error_of("x = np.zeros(1_500_000)\nplt.plot(x, x)\n")
    assert err.kind == "limit" and "more than 2,000,000 numbers" in err.message


def test_animation_loops_release_what_they_clear() -> None:
    """clf() and line.set_data() in a loop keep only what is on screen (no limit is hit)."""
    (fig,) = figures(
        """
        line, = plt.plot(np.zeros(10000))
        for i in range(300):
            line.set_data(np.arange(10000), np.full(10000, i))
        for i in range(300):
            plt.clf()
            plt.plot(np.arange(5000))
            plt.pause(0.01)
        """,
        limits=Limits(wall_time=20),
    )
    assert len(fig.axes) == 1 and fig.axes[0].series[0].y[-1] == 4999


def test_plotting_outside_figures_needs_no_import_of_figure_objects() -> None:
    result = run(
        "import matplotlib\nimport matplotlib.pyplot as plt\nmatplotlib.use('Agg')\n"
        "fig = plt.figure()\nax = fig.add_subplot(1, 1, 1)\nline, = ax.plot([1, 2])\n"
        "print(isinstance(ax, plt.Axes), isinstance(fig, plt.Figure), line.get_label() == '',"
        " matplotlib.__version__.startswith('3'))"
    )
    assert result.error is None and result.output == "True True True True\n"
