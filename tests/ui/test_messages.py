"""Every message the lecturer can see is in the interface language (Python's words kept)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.messages import ProblemError
from tapeviz.models.resources import assets_dir
from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.sandbox.messages import FORMS, PHRASES, TEMPLATES, field_names, say
from tapeviz.ui import MainWindow, i18n, workers
from tapeviz.ui.messages import problem_text, translated
from tapeviz.ui.window.error_text import AFTER_KIND

TABLE = json.loads((assets_dir() / "i18n" / "zh_CN.json").read_text("utf-8"))
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("code", list(TEMPLATES) + [f"after:{c}" for c in AFTER_KIND])
def test_every_template_has_a_translation_with_the_same_fields(code: str) -> None:
    english = AFTER_KIND[code[6:]] if code.startswith("after:") else TEMPLATES[code]
    chinese = TABLE[english]
    assert sorted(field_names(chinese)) == sorted(field_names(english))
    if field_names(english) != (("python",)) and len(english) > 12:
        assert HAN.search(chinese), "translate it, not copy it"


def test_every_phrase_is_translated() -> None:
    for phrase in PHRASES:
        assert HAN.search(TABLE[phrase]), phrase


@pytest.mark.parametrize("form", list(FORMS))
def test_every_phrase_form_is_translated_with_its_fields(form: str) -> None:
    assert sorted(field_names(TABLE[form])) == sorted(field_names(form))
    assert HAN.search(TABLE[form]), form


@pytest.mark.parametrize(
    ("body", "english", "chinese_words"),
    [
        (
            "    if x > 1:\n        return 2 * x * x\n    return x * x",
            "contains if",
            "里有 if 语句",
        ),
        ("    return tf.square(x) + float(x)", "calls float", "调用了 float"),
        ("    n = x.shape\n    return x * x", "reads the attribute .shape", "读取了属性 .shape"),
    ],
)
def test_the_reason_a_loss_is_retraced_is_said_in_the_interface_language(
    qtbot: QtBot, chinese: MainWindow, body: str, english: str, chinese_words: str
) -> None:
    """The studio's note on a loss traced every step: its reason was English under Chinese."""
    w = chinese
    source = f"import tensorflow as tf\n\ndef loss():\n{body}\n"
    w.apply_session(Session(source=source, mode="script", variables=(VariableSpec("x", 1.5),)))
    idle(qtbot, w)
    w.show_view("studio")
    status = w.studio.panel.status
    qtbot.waitUntil(lambda: "每一步都重新追踪" in status.text(), timeout=30_000)
    assert chinese_words in status.text(), status.text()
    assert english not in status.text() and "loss()" in status.text()


@pytest.fixture
def chinese(qtbot: QtBot, tmp_path: object) -> Iterator[MainWindow]:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    assert i18n.install("zh_CN")
    w = MainWindow()
    w.graph.animation_ms = 0
    qtbot.addWidget(w)
    w.show()
    yield w
    w.studio.shutdown()
    workers.wait_all()
    i18n.install("en")


def idle(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: w._cancel is None and not w.live_timer.isActive(), timeout=20_000)


def test_the_issues_three_messages_are_chinese(qtbot: QtBot, chinese: MainWindow) -> None:
    w = chinese
    w.apply_session(Session(source="print('x' * 2_000_000)", mode="script"))
    idle(qtbot, w)
    assert "print() 将输出超过 1,000,000 个字符" in w.error_label.text()
    assert "would write" not in w.error_label.text()
    w.apply_session(Session(source="x +", variables=(VariableSpec("x", 1.0),)))
    idle(qtbot, w)
    text = w.error_label.text()
    assert "(代码提前结束了)" in text and "ends too early" not in text
    assert "invalid syntax" in text  # Python's own words, as the real tools print them
    w.apply_session(Session(source="x**2", variables=(VariableSpec("x", 1.0, "constant"),)))
    idle(qtbot, w)
    w.show_view("studio")
    qtbot.waitUntil(lambda: "可训练" in w.studio.panel.status.text(), timeout=20_000)
    assert "mark at least" not in w.studio.panel.status.text()


def test_problem_text_translates_the_line_and_the_reason(chinese: MainWindow) -> None:
    err = ProblemError(say("script_assigns", name="a"), line=3)
    assert problem_text(err) == "第 3 行:脚本自己给 a 赋了值;可训练变量请交给变量表"
    assert translated(say("size", what="the list", count="9", cap="5")).startswith("列表将有 9 个")


def test_variable_row_errors_are_translated(qtbot: QtBot, chinese: MainWindow) -> None:
    w = chinese
    w.apply_session(Session(source="x*2", variables=(VariableSpec("x", 1.0),)), False)
    w.variables.table.item(0, 1).setText("abc")
    w.run_code()
    assert "不是数字" in w.error_label.text() and "is not a number" not in w.error_label.text()


def test_a_phrase_inside_a_phrase_form_is_translated_too(chinese: MainWindow) -> None:
    """The studio's "the replayed loss differs from the tape", inside its re-traced note."""
    from tapeviz.models.descent.messages import DIFFERS, REFUSALS

    why = REFUSALS["differ"].format(what=DIFFERS["loss"])
    text = translated(say("note_retraced", why=why))
    assert text == "每一步都重新追踪(重放得到的损失与磁带上的值不同)", text
    assert say("note_retraced", why=why).text == (
        "re-traced every step (the replayed loss differs from the tape)"
    )
