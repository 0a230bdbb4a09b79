"""Errors in the window: where, what kind, the message once, and tapeviz's hint, translated."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.sandbox import Limits, UserCodeError, VariableSpec, run
from tapeviz.sandbox.errors import RAISE_LIMIT
from tapeviz.sandbox.messages import say
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
    err = UserCodeError.of("x", line=2, hint=say("hint_did_you_mean", name="sin"), kind="name")
    assert describe(err) == "第 2 行 · 未知名称: x\n你是不是想写 'sin'?"
    limit = UserCodeError.of(say("steps", cap="5"), kind="limit", hint=RAISE_LIMIT)
    assert describe(limit) == "达到限制: 执行了超过 5 步\n如果确实需要,请在“首选项”中提高限制"


def test_tapeviz_messages_are_translated_with_python_words_kept(chinese: None) -> None:
    err = run("print('x' * 10)", limits=Limits(max_output=5)).error
    assert describe(err).startswith("第 1 行 · 达到限制: print() 将输出超过 5 个字符")
    err = run("x +", mode="expression", variables=[VariableSpec("x", 1.0)]).error
    assert describe(err) == "第 1 行 · 语法错误: invalid syntax(代码提前结束了)\nx +\n   ^"
    err = run("w * 2", mode="expression", variables=[VariableSpec("x", 1.0)]).error
    assert describe(err) == "第 1 行 · 未知名称: 'w' —— 要把它添加为变量吗?"


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
    name = run("q * 2", mode="expression", variables=[VariableSpec("x", 1.0)]).error
    assert describe(name) == "line 1 · Unknown name: 'q' — add it as a variable?"
