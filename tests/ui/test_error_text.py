"""Errors in the window: where, what kind, the message once, and tapeviz's hint, translated."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.sandbox import UserCodeError, VariableSpec, run
from tapeviz.ui import MainWindow, i18n, workers
from tapeviz.ui.window.error_text import describe


def test_line_kind_message_and_hint() -> None:
    err = UserCodeError("invalid syntax", line=3, col=5, kind="syntax")
    assert describe(err) == "line 3 · Syntax error: invalid syntax"
    err = run("sinn(x)", mode="expression", variables=[VariableSpec("x", 1.0)]).error
    text = describe(err)
    assert text.count("did you mean 'sin'?") == 1 and text.startswith("line 1 · ")


@pytest.fixture
def chinese(qapp: object) -> Iterator[None]:
    assert i18n.install("zh_CN")
    yield
    i18n.install("en")


def test_the_frame_and_tapeviz_hints_are_translated(chinese: None) -> None:
    err = UserCodeError("x", line=2, hint="did you mean 'sin'?", kind="name")
    assert describe(err) == "第 2 行 · 未知名称: x\n你是不是想写 'sin'?"
    limit = UserCodeError("more than 5 steps", kind="limit",
                          hint="raise the limit in Preferences if this is intended")  # fmt: skip
    assert describe(limit).endswith("如果确实需要,请在“首选项”中提高限制")


def test_the_window_shows_the_hint_once(qtbot: QtBot) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    w.apply_session(Session(source="sinn(x)", variables=(VariableSpec("x", 1.0),)))
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None)
    assert w.error_label.text().count("did you mean") == 1
    assert w.editor.error_line == 1
    w.studio.shutdown()
    workers.wait_all()


def test_a_users_own_message_is_not_cut() -> None:
    err = UserCodeError("value error in my data", line=4, kind="value")
    assert describe(err) == "line 4 · Value error: value error in my data"
    name = UserCodeError("unknown name 'q' — add it as a variable?", line=1, kind="name")
    assert describe(name) == "line 1 · Unknown name: 'q' — add it as a variable?"
