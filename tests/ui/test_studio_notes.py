"""The studio says what its race noted: a variable that gets no gradient, in either language."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from tapeviz.models.descent.optimizer_config import OptimizerConfig, RunConfig
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.sandbox import VariableSpec as V
from tapeviz.ui import i18n
from tapeviz.ui.studio.studio import OptimizationStudio


def race(qtbot: QtBot, studio: OptimizationStudio, expression: str) -> str:
    """Race ``expression`` over x and y; the status line after it."""
    cfg = StudioConfig((RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.1})),), steps=20)
    studio.set_config(cfg)
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio.set_problem(Problem(expression, [V("x", 1.0), V("y", -1.0)]))
    assert studio.race is not None
    return studio.panel.status.text()


def test_a_variable_the_loss_ignores_is_said_in_the_status_line(
    qtbot: QtBot, make_studio: Callable[..., OptimizationStudio]
) -> None:
    studio = make_studio(1300, 760)
    status = race(qtbot, studio, "x**2")
    assert "Note: y gets no gradient: the loss does not depend on it." in status
    assert "gets no gradient" not in race(qtbot, studio, "x**2 + y**2")
    assert i18n.install("zh_CN")
    try:
        assert "注意:y 没有梯度:损失不依赖于它。" in race(qtbot, studio, "x**2 + 0*x")
    finally:
        i18n.install("en")
