"""Work one part per frame: each part runs after the window painted the one before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel

from tapeviz.ui.studio.stages import Stages


class Paints(QObject):
    """Counts the paints a widget receives."""

    def __init__(self, widget: QLabel) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


@pytest.fixture
def label(qtbot) -> QLabel:
    w = QLabel("0")
    w.resize(200, 60)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def _parts(label: QLabel, paints: Paints, seen: list[tuple[int, int]]) -> Iterator[None]:
    for i in range(3):
        seen.append((i, paints.count))  # the paints before this part
        label.setText(str(i + 1))  # each part changes the screen
        yield


def test_each_part_runs_after_the_paint_of_the_one_before(qtbot, label) -> None:
    paints, seen = Paints(label), []
    stages = Stages(label)
    with qtbot.waitSignal(stages.finished, timeout=5_000):
        label.setText("changed by the caller")
        stages.start(_parts(label, paints, seen))
        assert seen == [] and stages.pending  # nothing runs before the caller's change painted
    counts = [count for _, count in seen]
    assert [i for i, _ in seen] == [0, 1, 2]
    assert counts[0] >= 1 and counts[1] > counts[0] and counts[2] > counts[1]
    assert not stages.pending


def test_a_new_start_drops_the_parts_left(qtbot, label) -> None:
    paints, first, second = Paints(label), [], []
    stages = Stages(label)
    finished = []
    stages.finished.connect(lambda: finished.append(True))
    stages.start(_parts(label, paints, first))
    stages.start(_parts(label, paints, second))
    qtbot.waitUntil(lambda: not stages.pending, timeout=5_000)
    assert first == [] and len(second) == 3 and finished == [True]


def test_a_hidden_widget_runs_every_part_at_once_and_flush_and_cancel(qtbot) -> None:
    hidden = QLabel()
    qtbot.addWidget(hidden)
    paints, seen = Paints(hidden), []
    stages = Stages(hidden)
    stages.start(_parts(hidden, paints, seen))
    assert len(seen) == 3 and not stages.pending
    hidden.show()
    qtbot.waitExposed(hidden)
    seen.clear()
    stages.start(_parts(hidden, paints, seen))
    stages.flush()
    assert len(seen) == 3 and not stages.pending
    seen.clear()
    stages.start(_parts(hidden, paints, seen))
    stages.cancel()
    qtbot.wait(120)  # longer than the fallback: nothing runs after a cancel
    assert seen == [] and not stages.pending


def test_a_failing_part_ends_the_run(qtbot, label) -> None:
    def parts() -> Iterator[None]:
        raise ValueError("boom")
        yield

    stages = Stages(label)
    stages.start(parts())
    with pytest.raises(ValueError):
        stages.flush()
    assert not stages.pending
