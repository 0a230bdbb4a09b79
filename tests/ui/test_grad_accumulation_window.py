"""The backward pass of a second torch backward() says it is added into .grad (the window)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tests.models.test_grad_accumulation import TWICE


def test_the_stepper_shows_the_second_pass_added_to_grad(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.mode.setCurrentIndex(1)  # Script
    w.editor.setPlainText(TWICE)
    w.run_code()
    qtbot.waitUntil(lambda: w._cancel is None and len(w.model.entries) == 2, timeout=30_000)
    w.show_view("stepper")
    st = w.stepper
    w.model.select(0)
    qtbot.waitUntil(lambda: st.stepper is not None and len(st.stepper) > 0, timeout=10_000)
    st.jump(len(st.stepper))
    assert "AccumulateGrad" not in st.detail.text()  # the first pass: .grad was None
    first = st.stepper
    w.model.select(1)
    qtbot.waitUntil(lambda: st.stepper is not None and st.stepper is not first, timeout=10_000)
    st.jump(len(st.stepper) - 1)
    assert "AccumulateGrad" not in st.detail.text()  # said once the pass is complete
    st.jump(len(st.stepper))
    text = st.detail.text()
    assert text.startswith("AccumulateGrad: backward() adds this pass into .grad")
    assert "x.grad = (2,) [2, 4] + (2,) [2, 4] = (2,) [4, 8]" in text
