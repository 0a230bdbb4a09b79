"""The worker reads its own answer with the window's reader before sending it.

Before, a 33- or 64-dimensional tensor on a tape or 100,000 tick labels crossed the wall and
the window's checks refused the frame: the user saw "internal error: the worker sent a
malformed answer". Now what the window's reader refuses becomes the user's error, saying what
was too big, with what the script printed kept: a big answer is read in the worker before it is
sent (the window's frame caps would end the worker), a small run answer is refused by the window
itself with the same function (reading it twice cost a small cell's live re-run ~0.3-0.9 ms).
"""

from __future__ import annotations

import numpy as np
import pytest

from tapeviz.sandbox.process import results_decode, server, wire
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated, wire_result

TAPE = (
    "import tensorflow as tf\nprint('before')\nx = tf.Variable(tf.ones([1] * {n}))\n"
    "with tf.GradientTape() as t:\n    y = tf.reduce_sum(x * 2.0)\n"
)
TICKS = "import matplotlib.pyplot as plt\nprint('drawn')\nplt.plot([1, 2])\nplt.xticks({ticks})\n"


@pytest.mark.parametrize("n", [33, 64])
def test_a_tensor_of_too_many_dimensions_is_the_users_error(pool: Pool, n: int) -> None:
    result = run_isolated(TAPE.format(n=n), pool=pool)
    assert result.error is not None
    assert result.error.kind == "limit", result.error
    assert f"a tensor of {n} dimensions" in result.error.message
    assert "malformed" not in result.error.message
    assert result.output == "before\n"


def test_a_tensor_of_32_dimensions_still_crosses(pool: Pool) -> None:
    result = run_isolated(TAPE.format(n=32), pool=pool)
    assert result.error is None, result.error
    assert result.tapes and result.tapes[0].tape.records


@pytest.mark.parametrize("count", [10_001, 100_000])
def test_too_many_ticks_are_the_users_error(pool: Pool, count: int) -> None:
    result = run_isolated(TICKS.format(ticks=f"list(range({count}))"), pool=pool)
    assert result.error is not None and result.error.kind == "limit", result.error
    assert f"{count:,} ticks on one axis" in result.error.message
    assert result.output == "drawn\n"
    ok = run_isolated(TICKS.format(ticks="list(range(10_000))"), pool=pool)
    assert ok.error is None and len(ok.figures) == 1


def test_every_checked_ops_refusal_is_an_answer_the_window_reads() -> None:
    from tapeviz.models import kernel

    checks = dict(server.CHECKS)
    kernel.register({}, checks)  # the studio's requests, as a worker registers them
    assert list(checks) == ["run", "race", "backdrop", "tape_at"]
    for op, (check, refuse) in checks.items():
        out, writer = refuse({}, "something too big", {"output": "kept\n"})
        frame = wire.loopback(*wire.encode({"id": 1, "ok": True, "result": out}, writer))
        check(frame, {"problem": {}}, frame)  # the worker's reading passes it
        if op == "run":
            result = results_decode.decode(wire_result(frame))
            assert result.error is not None and "something too big" in result.error.message
            assert result.output == "kept\n"
        else:  # the studio's: its error says what was too big
            from tapeviz.models.descent.messages import ProblemError
            from tapeviz.models.descent.remote import _answer

            with pytest.raises(ProblemError, match="something too big"):
                _answer(frame)


def test_loopback_applies_the_frame_caps_read_applies() -> None:
    writer = wire.Writer()
    doc = {"a": writer.array(np.arange(10, dtype=np.float64))}
    frame = wire.loopback(*wire.encode(doc, writer))
    assert frame.array(frame.doc["a"]).tolist() == list(range(10))
    body, blobs = wire.encode({"b": writer.array(np.zeros(100))}, writer)
    with pytest.raises(wire.ProtocolError, match="more than 100 bytes"):
        wire.loopback(body, blobs, max_bytes=100)
    with pytest.raises(wire.ProtocolError, match="not valid JSON"):
        wire.loopback(b"{", [])


def test_only_small_run_answers_skip_the_workers_reading() -> None:
    small = wire.encode({"id": 1, "ok": True, "result": {"output": "x" * 1000}})
    assert server._window_refuses("run", *small)
    assert not server._window_refuses("race", *small)  # the studio's answers: always read
    writer = wire.Writer()
    doc = {"a": writer.array(np.zeros(server.SMALL_ANSWER // 8, np.float64))}
    big = wire.encode(doc, writer)
    assert not server._window_refuses("run", *big)
    many = wire.encode({}, None)[0], [b""] * 10_001
    assert not server._window_refuses("run", *many)


def test_the_windows_refusal_is_the_one_the_worker_sends() -> None:
    why = "a tensor of 33 dimensions (the window shows at most 32)"
    out, writer = server._refuse_run({}, why, {"output": "kept\n"})
    sent = results_decode.decode(
        wire_result(wire.loopback(*wire.encode({"id": 1, "ok": True, "result": out}, writer)))
    )
    made = results_decode.refused(why, {"output": "kept\n"})
    assert made.error is not None and sent.error is not None
    assert (made.output, made.namespace) == (sent.output, sent.namespace) == ("kept\n", {})
    assert len(made.tapes) == len(sent.tapes) == 0
    for field in ("message", "kind", "limit", "code", "fields", "line"):
        assert getattr(made.error, field) == getattr(sent.error, field), field
    assert why in made.error.message
    assert results_decode.refused(why, {"output": 5}).output == ""  # (not text: nothing kept)


def test_a_failure_to_read_an_answer_is_an_error_never_a_raise(
    pool: Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(frame: object, pool: object = None) -> None:
        raise ValueError("a bug in reading")

    monkeypatch.setattr(results_decode, "decode", broken)
    result = run_isolated("print('x')", pool=pool)
    assert result.error is not None and result.error.kind == "internal"
    assert "a bug in reading" in result.error.message and pool.values_token is None
