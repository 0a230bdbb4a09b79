"""tapeviz's sentences as codes with fields: English text for the CLI, data across the wire."""

from __future__ import annotations

import pytest

from tapeviz.models.descent import messages as descent_messages
from tapeviz.models.descent.messages import ProblemError
from tapeviz.models.descent.problem import Problem
from tapeviz.models.values import parse_value
from tapeviz.sandbox import Limits, UserCodeError, VariableSpec, run
from tapeviz.sandbox.messages import TEMPLATES, Message, MessageError, checked, field_names, say
from tapeviz.sandbox.process import results, results_decode
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.process.wire import Writer


def test_a_message_is_a_code_with_the_templates_fields() -> None:
    msg = say("print_output", cap="1,000,000")
    assert msg == Message("print_output", (("cap", "1,000,000"),))
    assert msg.text == "print() would write more than 1,000,000 characters"
    with pytest.raises(KeyError):
        say("print_output")  # a field missing
    with pytest.raises(KeyError):
        say("print_output", cap=1, extra=2)


def test_every_template_parses_and_the_studio_adds_its_own() -> None:
    assert set(descent_messages.TEMPLATES) <= set(TEMPLATES)
    for code, template in TEMPLATES.items():
        names = field_names(template)
        assert say(code, **dict.fromkeys(names, "v")).text  # formats without an error


@pytest.mark.parametrize(
    ("source", "code", "fields"),
    [
        ("print('x' * 10)", "print_output", (("cap", "5"),)),
        ("y = w + 1", "unknown_name", (("name", "w"),)),
        ("import sys", "import", (("module", "sys"),)),
        ("while True:\n    pass", "steps", (("cap", "1,000"),)),
    ],
)
def test_sandbox_errors_carry_their_code(source: str, code: str, fields: tuple) -> None:
    err = run(source, limits=Limits(max_output=5, max_steps=1000)).error
    assert (err.code, err.fields) == (code, fields)
    assert err.message == say(code, **dict(fields)).text


def test_python_texts_stay_in_a_field() -> None:
    err = run("x +", mode="expression", variables=[VariableSpec("x", 1.0)]).error
    assert err.code == "syntax_early_end" and err.msg.field("python") == "invalid syntax"
    assert err.message == "syntax error: invalid syntax (the code ends too early)"
    plain = run("raise ValueError('my own words')").error
    assert plain.code is None and plain.message == "my own words"


def test_codes_and_hints_cross_the_process_wall() -> None:
    err = run_isolated("print('x' * 10)", limits=Limits(max_output=5)).error
    assert (err.code, err.fields) == ("print_output", (("cap", "5"),))
    assert err.hint_code == "hint_raise_limit"
    table = [VariableSpec("rate", 1.0)]
    err = run_isolated("rte + 1", mode="expression", variables=table).error
    assert err.msg == say("expression_unknown_name", name="rte")
    assert err.hint_msg == say("hint_did_you_mean", name="rate")


def test_a_forged_code_is_dropped_and_the_text_stays() -> None:
    err = UserCodeError.of(say("steps", cap="5"), 1)
    doc = results._error_doc(err)
    doc["fields"] = [["cap", "5"], ["extra", "{0.__class__}"]]  # not the template's fields
    back = results_decode._error(doc)
    assert back.code is None and back.message == err.message
    doc["code"], doc["fields"] = "no such code", []
    assert results_decode._error(doc).code is None
    assert checked("steps", [["cap", 5]]) is None  # values are text
    assert checked("steps", {"cap": "5"}) is None
    assert checked("steps", [["cap", "5"]]) == say("steps", cap="5")
    assert Writer  # (the answer goes through the wire's JSON: plain lists and strings)


def test_problem_errors_keep_their_code_through_a_worker() -> None:
    with pytest.raises(ProblemError) as caught:
        Problem("x**2", (VariableSpec("x", 1.0, "constant"),)).compile()
    assert caught.value.msg == say("no_trainable")
    doc = caught.value.to_doc()
    back = ProblemError.from_doc(doc)
    assert back.msg == say("no_trainable") and str(back) == str(caught.value)
    doc["problem_code"] = "no_trainable_named"  # fields do not match: the text only
    assert ProblemError.from_doc(doc).msg is None
    err = ProblemError.of(run("y = (1 +").error)
    assert err.line == 1 and err.msg is not None and str(err).startswith("line 1: syntax error")


def test_the_variables_table_values_are_worded_by_code() -> None:
    with pytest.raises(MessageError) as caught:
        parse_value("abc")
    assert caught.value.msg == say("value_not_number", text="'abc'")
    with pytest.raises(MessageError) as caught:
        VariableSpec("1x", 1.0)
    assert caught.value.msg.code == "variable_name"


def test_an_integer_literal_is_worded_as_a_float_in_the_scripts_spelling() -> None:
    err = run("import tapeviz as tv\nx = tv.constant([1, 2])\ny = tv.exp(x)\n").error
    assert err.hint_msg == say("hint_cast", ns="tv", dtype="float32")
    err = run("import tensorflow as tflow\nx = tflow.sqrt(tflow.constant(4))\n").error
    assert err.hint == "use tflow.cast(x, tflow.float32)"
