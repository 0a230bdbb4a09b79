"""torch adds each backward() into .grad: the stepper's last words say it with the numbers."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tapeviz.models.backward.accumulation import accumulation_lines
from tapeviz.models.backward.stepper import BackwardStepper, short
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.wire import ProtocolError

TWICE = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
first = x.grad.clone()
y.backward()
print(x.grad)
"""


@pytest.fixture(scope="module")
def result() -> RunResult:
    r = run(TWICE)
    assert r.error is None, r.error
    return r


def _stepper(tape: object, names: dict[int, str]) -> BackwardStepper:
    call = tape.gradient_calls[0]  # type: ignore[attr-defined]
    records = tape.records  # type: ignore[attr-defined]
    return BackwardStepper(records, call.target_ids, call.source_ids, names)


def test_the_second_pass_is_added_to_the_first(result: RunResult) -> None:
    first, second = (t.tape for t in result.tapes)
    assert getattr(first, "grad_before", None) is None  # .grad was None: nothing to add to
    before = second.grad_before
    np.testing.assert_array_equal(next(iter(before.values())), [2.0, 4.0])  # 2x after one pass
    stepper = _stepper(second, {next(iter(before)): "x"})
    lines = accumulation_lines(before, stepper)
    assert result.output == "tensor([4., 8.])\n"  # torch: the second pass doubles it
    total = np.array([4.0, 8.0], np.float32)
    assert lines == [f"x.grad = {short(np.array([2.0, 4.0], np.float32))} + "
                     f"{short(np.array([2.0, 4.0], np.float32))} = {short(total)}"]  # fmt: skip


def test_the_earlier_grad_crosses_the_wall(result: RunResult) -> None:
    writer = wire.Writer()
    doc = results.encode(result, writer)
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    back = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
    got = back.tapes[1].tape.grad_before
    sent = result.tapes[1].tape.grad_before
    assert list(got) == list(sent)
    np.testing.assert_array_equal(next(iter(got.values())), next(iter(sent.values())))
    assert back.tapes[0].tape.grad_before is None


@pytest.mark.parametrize("spoil", [
    lambda e: e.update(tape=99), lambda e: e.update(ids=[-1]), lambda e: e.update(ids=[1, 2]),
])  # fmt: skip
def test_a_bad_earlier_grad_is_refused(result: RunResult, spoil: object) -> None:
    writer = wire.Writer()
    doc = results.encode(result, writer)
    entries = [d for d in _walk(doc) if isinstance(d, dict) and "grad_before" in d]
    spoil(entries[0]["grad_before"][0])  # type: ignore[operator]
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    with pytest.raises(ProtocolError):
        results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


def test_zero_grad_leaves_nothing_to_add() -> None:
    r = run(TWICE.replace("first = x.grad.clone()\n", "x.grad = None\n"))
    assert r.error is None, r.error
    assert getattr(r.tapes[1].tape, "grad_before", None) is None


def _walk(node: object) -> object:
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)  # type: ignore[misc]
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)  # type: ignore[misc]
