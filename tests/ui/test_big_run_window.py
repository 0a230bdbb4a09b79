"""A big run reaches the window without blocking it: loops found and rows made in the pool.

The thread pool that waited for the run also finds its loops (the timeline's index) and makes
the Tapes dock's rows; the Output pane is handed only the lines it keeps. Before, 100,000 tapes
blocked the UI thread ~1.1 s in ``timelines_of`` and the rows, and a million printed characters
1.2 s in ``setPlainText``. (The speed is measured by benchmarks, not here: these tests check
that the work happens off the UI thread and that what is shown is unchanged.)
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from tapeviz.models.timeline import timeline as timeline_model
from tapeviz.ui import MainWindow
from tapeviz.ui.window.earlier_lines import OUTPUT_LINES, EarlierLines
from tapeviz.ui.window.long_output import LONG_LINE, clipped, last_lines

LOOP = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range({steps}):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.01 * t.gradient(y, x))
    print("step", i)
"""


def _ran(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None, timeout=120_000)


def test_loops_and_rows_are_made_off_the_ui_thread(
    qtbot: QtBot, window: MainWindow, monkeypatch: object
) -> None:
    threads: list[bool] = []
    real = timeline_model.timelines_of

    def spy(result: object) -> object:
        threads.append(threading.current_thread() is threading.main_thread())
        return real(result)

    monkeypatch.setattr("tapeviz.ui.window.timeline_link.timelines_of", spy)  # type: ignore[attr-defined]
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=300))
    window.run_code()
    _ran(qtbot, window)
    # in the pool, every time: once for the result (and once per streamed snapshot if the
    # run outlasted the first one's 80 ms — on a loaded machine it does)
    assert threads and not any(threads), threads
    assert window.timeline.timeline is not None and window.timeline.timeline.steps == 300
    assert window.tape_list.count() == 300
    assert window.tape_list.text(299) == "t — 1 ops"  # (y = x * x: one op)


def test_the_rows_of_a_received_run_are_read_from_its_columns() -> None:
    """The Tapes dock's rows make no tape objects (a 100,000-tape run made 200,000)."""
    import io

    from tapeviz.sandbox import run
    from tapeviz.sandbox.process import results, results_decode, wire
    from tapeviz.ui.window.tape_list import TapeList

    local = run(LOOP.format(steps=50).replace("    print", "    # print"))
    writer = wire.Writer()
    buf = io.BytesIO()
    wire.write(buf, results.encode(local, writer), writer)
    received = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
    labels = TapeList.labels(received)
    assert labels == TapeList.labels(local) and labels[0] == "t — 1 ops" and len(labels) == 50
    assert not any(received.tapes._made)  # type: ignore[attr-defined]


def test_the_output_pane_gets_only_the_lines_it_keeps_and_they_still_link(
    qtbot: QtBot, window: MainWindow
) -> None:
    keep = window.console.maximumBlockCount()
    steps = keep + 700
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=steps))
    window.run_code()
    _ran(qtbot, window)
    console, link = window.console, window.timeline_link.output_link
    # the timeline is at step 0: the pane shows that part of the output (its last lines first)
    assert window.timeline.k == 0 and link.dropped == 0
    output = window.last_result.output
    assert console.toPlainText() == output[: output.index(f"step {keep}\n")]
    block = console.document().findBlockByNumber(10)
    console.verticalScrollBar().setValue(5)  # (line 10 in view)
    rect = console.blockBoundingGeometry(block).translated(console.contentOffset())
    window.console_dock.raise_()
    qtbot.mouseClick(console.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(10, int(rect.center().y())))  # fmt: skip
    assert window.timeline.k == int(block.text().split()[1])  # the step that printed it


def test_a_line_too_long_to_lay_out_shows_its_start_and_how_much_more_it_has(
    qtbot: QtBot, window: MainWindow
) -> None:
    """``print("ab" * 450000)`` froze the window for 40 s: Qt laid the line out whole, twice."""
    window.mode.setCurrentIndex(1)
    source = 'print("start")\nprint("ab" * 30000)\nfor i in range(3):\n    print(i, "x" * 12000)\n'
    window.editor.setPlainText(source)
    window.run_code()
    _ran(qtbot, window)
    assert window.last_result.output.count("ab") == 30000  # (the run's own output is whole)
    lines = window.console.toPlainText().split("\n")
    assert lines[0] == "start" and len(lines) == 6 and lines[5] == ""
    assert lines[1] == "ab" * (LONG_LINE // 2) + " … (50,000 more characters on this line)"
    for i, line in enumerate(lines[2:5]):
        assert line == f"{i} " + "x" * (LONG_LINE - 2) + " … (2,002 more characters on this line)"
    short = "\n".join(f"{k} " + "y" * 300 for k in range(50))
    assert last_lines(short, 0) == short and last_lines(short, 3) == short.split("\n", 47)[-1]


def test_scrolled_to_its_top_the_output_pane_shows_the_lines_before(
    qtbot: QtBot, window: MainWindow
) -> None:
    """The pane is handed the last 5,000 lines; the earlier ones come as the user scrolls up."""
    steps = 12_000
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(f"for i in range({steps}):\n    print('step', i)\n")
    window.run_code()
    _ran(qtbot, window)
    console = window.console
    window.console_dock.raise_()  # (in front of the Tapes dock: the pane the user scrolls)
    qtbot.waitUntil(console.isVisible)
    bar = console.verticalScrollBar()
    doc = console.document()
    qtbot.wait(100)  # (nothing more is put in the pane unless the user scrolls up)
    assert doc.firstBlock().text() == f"step {steps - OUTPUT_LINES + 1}"
    assert console.firstVisibleBlock().blockNumber() > OUTPUT_LINES - 50  # (the end in view)
    for first in (steps - 2 * OUTPUT_LINES + 1, 0):
        shown = doc.firstBlock().text()
        bar.setValue(0)  # the user scrolls to the top
        qtbot.waitUntil(lambda f=first: doc.firstBlock().text() == f"step {max(f, 0)}")
        assert console.firstVisibleBlock().text() == shown  # (the view stays where it was)
    assert doc.blockCount() == steps + 1
    window.editor.setPlainText("for i in range(7000):\n    print('step', i)\n")  # a new run
    window.run_code()
    _ran(qtbot, window)
    assert doc.blockCount() == OUTPUT_LINES and doc.firstBlock().text() == "step 2001"


def test_a_step_whose_lines_are_not_in_the_pane_moves_it_to_them(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Scrubbing to step 0 of a 12,000-line run highlighted nothing: its line was not shown."""
    steps = 12_000
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=steps))
    window.run_code()
    _ran(qtbot, window)
    console, link, panel = window.console, window.timeline_link.output_link, window.timeline
    window.console_dock.raise_()
    qtbot.waitUntil(console.isVisible)
    doc, bar = console.document(), console.verticalScrollBar()

    def marked() -> list[str]:
        return [sel.cursor.block().text() for sel in console.extraSelections()]

    def in_view(text: str) -> bool:
        first = console.firstVisibleBlock().blockNumber()
        rows = max(1, console.viewport().height() // console.fontMetrics().lineSpacing())
        return any(doc.findBlockByNumber(first + r).text() == text for r in range(rows))

    for k in (0, 6000, 11_999, 3):
        panel.set_step(k)
        assert marked() == [f"step {k}"] and in_view(f"step {k}"), (k, marked())
        assert doc.blockCount() <= OUTPUT_LINES + 1  # (a part of the output, not all of it)
    assert doc.firstBlock().text() == "step 0" and link.dropped == 0
    panel.set_step(6000)  # the middle: the lines after come as the user scrolls down
    last = doc.lastBlock().previous().text()
    assert last == "step 8499" and link.dropped == 3500
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: doc.lastBlock().previous().text() == "step 11999")
    bar.setValue(0)  # and the ones before as it scrolls up
    qtbot.waitUntil(lambda: doc.firstBlock().text() == "step 0")
    assert doc.blockCount() == steps + 1 and link.dropped == 0
    assert marked() == ["step 6000"]  # (still the step's line, where it is now)
    block = doc.findBlockByNumber(4321)
    bar.setValue(4320)
    rect = console.blockBoundingGeometry(block).translated(console.contentOffset())
    qtbot.mouseClick(console.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(10, int(rect.center().y())))  # fmt: skip
    assert panel.k == 4321 and marked() == ["step 4321"]


def test_carriage_returns_leave_a_line_as_a_terminal_would_and_lines_still_count(
    qtbot: QtBot,
) -> None:
    """Qt starts a line at ``\\r``: a progress bar's lines made the pane's lines miscount."""
    assert clipped("10%\r50%\r100%\nok\r\n\u2029x\n") == "100%\nok\n x\n"
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.resize(400, 300)
    pane.show()
    earlier = EarlierLines(pane)
    text = "".join(f"line {i}" + ("\rline" if i % 100 == 7 else "") + "\n" for i in range(12_000))
    earlier.show(text, last_lines(text, OUTPUT_LINES))
    doc = pane.document()
    for first in ("line 2001", "line 0"):
        pane.verticalScrollBar().setValue(0)
        qtbot.waitUntil(lambda f=first: doc.firstBlock().text() == f)
    assert doc.blockCount() == 12_001 and earlier.hidden == 0
    assert doc.findBlockByNumber(107).text() == "line" and doc.findBlockByNumber(108).text() == (
        "line 108"
    )


def test_a_run_that_only_prints_fills_the_output_pane_while_it_runs_and_stop_keeps_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A numpy training loop records no tape: its lines were shown only once it ended."""
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(
        "import numpy as np\nX = np.ones((100_000, 20))\nw = np.zeros(20)\n"
        "for epoch in range(100_000):\n    w -= 1e-9 * X.T @ (X @ w - 1.0)\n"
        "    print('epoch', epoch)\n"
    )
    window.run_code()
    console = window.console
    doc, bar = console.document(), console.verticalScrollBar()
    qtbot.waitUntil(lambda: doc.blockCount() > 3, timeout=30_000)
    assert window._cancel is not None  # still running
    assert "lines printed so far" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: bar.maximum() > 10, timeout=30_000)  # (more lines than fit)
    assert bar.value() == bar.maximum()  # the newest lines in view, as a terminal shows them
    bar.setValue(5)  # the user scrolls up to read: the next lines leave the view there
    count = doc.blockCount()
    qtbot.waitUntil(lambda: doc.blockCount() > count, timeout=30_000)
    assert bar.value() == 5 < bar.maximum()
    shown = console.toPlainText()
    window.stop()
    _ran(qtbot, window)
    result = window.last_result
    assert result.error is not None and result.error.kind == "cancelled"
    assert result.output.startswith(shown) and console.toPlainText().startswith(shown)


def test_a_moved_pane_stays_while_its_run_grows_and_a_grown_last_line_shows_whole(
    qtbot: QtBot,
) -> None:
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.resize(400, 300)
    pane.show()
    earlier = EarlierLines(pane)
    text = "".join(f"line {i}\n" for i in range(12_000)) + "partial"
    earlier.show(text)
    assert earlier.reach(100) and earlier.reach(11_990) and earlier.moved
    doc = pane.document()
    assert doc.lastBlock().text() == "partial"
    grown = text + " and the rest\n" + "".join(f"more {i}\n" for i in range(100))
    earlier.show(grown, grows=True)  # the same run, further on: the pane stays, its line whole
    assert earlier.moved and doc.lastBlock().previous().text() == "partial and the rest"
    assert (earlier.first, earlier.count) == (7001, 5000)
    pane.verticalScrollBar().setValue(pane.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: doc.lastBlock().previous().text() == "more 99")
    assert earlier.count == 5100 == doc.blockCount() - 1  # (the empty line after the last)
    assert not earlier.reach(12_100)  # shown: nothing to move
    earlier.show(grown + "a new run's line\n")  # another run's output: its end, as always
    assert not earlier.moved and doc.lastBlock().previous().text() == "a new run's line"


def test_a_failed_run_after_a_moved_pane_shows_its_own_lines_unlinked(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=12_000))
    window.run_code()
    _ran(qtbot, window)
    link = window.timeline_link.output_link
    assert link.lines is not None and window.console.document().firstBlock().text() == "step 0"
    failing = "for i in range(12_001):\n    print('step', i)\nraise ValueError('no')\n"
    window.editor.setPlainText(failing)  # (its output begins as the last run's did)
    window.run_code()
    _ran(qtbot, window)
    assert window.last_result.error is not None and link.lines is None
    assert window.console.document().lastBlock().previous().text() == "step 12000"


def test_a_running_scripts_figures_come_as_it_draws_them_and_are_not_drawn_again_at_its_end(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(
        "import numpy as np\nimport matplotlib.pyplot as plt\nX = np.ones((100_000, 20))\n"
        "w = np.zeros(20)\nfor k in range(3):\n    plt.figure()\n    plt.plot([0, k])\n"
        "for i in range(100_000):\n    w -= 1e-12 * X.T @ (X @ w - 1.0)\n"
    )
    window.run_code()
    plots, tabs = window.plots, window.lower_tabs
    qtbot.waitUntil(lambda: tabs.tabText(tabs.indexOf(plots)) == "Plots (3)", timeout=30_000)
    assert window._cancel is not None  # still running: the Plots tab counts them ...
    assert "figures drawn so far" in window.statusBar().currentMessage()
    assert tabs.currentWidget() is not plots and plots.panels == []  # ... drawn once shown
    window.show_view("plots")  # (the user looks)
    qtbot.waitUntil(lambda: len(plots.panels) == 3 and not plots.building, timeout=10_000)
    first = plots.panels[0]
    window.show_view("timeline")
    window.stop()
    _ran(qtbot, window)
    assert len(window.last_result.figures) == 3
    assert plots.panels[0] is first  # the same figures: not drawn again
    assert window.lower_tabs.currentWidget() is plots  # (the run is over: they come forward)


def test_lines_scrolled_up_to_stay_in_view_as_a_long_output_grows(qtbot: QtBot) -> None:
    """A tail of 5,000 lines moved under a kept row: 'line 1000' became 'line 6002'."""
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.resize(400, 300)
    pane.show()
    earlier = EarlierLines(pane)
    text = "".join(f"line {i}\n" for i in range(12_000))
    earlier.show(text, live=True)
    bar = pane.verticalScrollBar()
    assert bar.value() == bar.maximum()  # (a running script: its newest lines)
    bar.setValue(1000)
    reading = pane.firstVisibleBlock().text()
    grown = text + "".join(f"line {i}\n" for i in range(12_000, 30_000))
    earlier.show(grown, grows=True)
    assert pane.firstVisibleBlock().text() == reading  # the same line, not another one

    def last() -> str:
        return pane.document().lastBlock().previous().text()

    for _ in range(10):  # scrolled down to the end: the lines after come, 5,000 at a time ...
        bar.setValue(bar.maximum())
        qtbot.wait(30)
    assert last() == "line 29999"
    earlier.show(grown + "line 30000\n", grows=True)  # ... and, at the end, it follows again
    assert last() == "line 30000" and bar.value() == bar.maximum()


def test_a_run_that_fails_after_its_figures_streamed_shows_all_it_drew(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(
        "import numpy as np\nimport matplotlib.pyplot as plt\nX = np.ones((100_000, 20))\n"
        "plt.plot([0, 1])\nplt.title('first')\nfor i in range(400):\n    X @ np.ones(20)\n"
        "plt.figure()\nplt.plot([1, 0])\nplt.title('second')\nmissing_name\n"
    )
    window.run_code()
    _ran(qtbot, window)
    result = window.last_result
    assert result.error is not None and "missing_name" in result.error.message
    assert [f.axes[0].title for f in result.figures] == ["first", "second"]
    qtbot.waitUntil(lambda: len(window.plots.panels) == 2, timeout=10_000)
