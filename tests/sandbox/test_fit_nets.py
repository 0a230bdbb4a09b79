"""A fit's network (Network view) crosses the process wall as checked data; bad documents fail."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, wire
from tapeviz.sandbox.process.fit_columns import fit_columns_of
from tapeviz.sandbox.process.wire import ProtocolError
from tests.sandbox.test_fit_columns import _decode, _doc

FIT = """import numpy as np
import tensorflow as tf
rng = np.random.default_rng(0)
X = rng.normal(size=(40, 2)).astype("float32")
y = (X[:, 0] > 0).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy")
model.fit(X, y, epochs=2, batch_size=16, validation_data=(X[:8], y[:8]), verbose=0)
"""


@pytest.fixture(scope="module")
def result() -> RunResult:
    r = run(FIT)
    assert r.error is None, r.error
    return r


def _nets_doc(doc: dict[str, Any]) -> list[dict[str, Any]]:
    found = [d for d in _walk(doc) if isinstance(d, dict) and "fit_nets" in d]
    assert len(found) == 1
    return found[0]["fit_nets"]


def _walk(node: Any) -> Any:
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_the_network_arrives_as_fit_described_it(result: RunResult) -> None:
    live = fit_columns_of(result.tapes)
    assert live is not None and list(live.nets or {}) == [0]  # on the fit's first tape
    sent = live.nets[0]
    got = _decode(*_doc(result)).tapes.fits.nets  # type: ignore[union-attr]
    net = got[0]
    assert net.reason == ""
    assert [(layer.name, layer.units, layer.activation) for layer in net.layers] == [
        ("dense", 3, "relu"), ("dense_1", 1, "sigmoid")]  # fmt: skip
    assert [layer.kernel for layer in net.layers] == [layer.kernel for layer in sent.layers]
    np.testing.assert_array_equal(net.x, result.namespace["X"])
    np.testing.assert_array_equal(net.val_y[:, 0], result.namespace["y"][:8])
    assert (net.optimizer, net.loss, net.batch_size) == ("Adam", "binary_crossentropy", 16)
    assert net.learning_rate == pytest.approx(0.02)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda n: n["layers"][0].update(units=0),
        lambda n: n["layers"][0].update(activation="os.system"),
        lambda n: n["layers"][0].update(kernel=-4),
        lambda n: n.update(tape=10**6),
        lambda n: n.update(batch_size=0),
        lambda n: n.update(learning_rate="fast"),
        lambda n: n.update(layers=[]),
        lambda n: n.update(x=n["val_x"]),  # 8 points for 40 labels
    ],
)
def test_a_bad_network_document_is_refused(result: RunResult, spoil: Any) -> None:
    doc, writer = _doc(result)
    doc = copy.deepcopy(doc)
    spoil(_nets_doc(doc)[0])
    with pytest.raises(ProtocolError):
        _decode(doc, writer)


def test_a_reason_crosses_instead_of_a_network() -> None:
    r = run(FIT.replace('tf.keras.layers.Dense(3, activation="relu")',
                        'tf.keras.layers.Dense(3, activation="selu")'))  # fmt: skip
    assert r.error is None, r.error
    writer = wire.Writer()
    net = _decode(results.encode(r, writer), writer).tapes.fits.nets[0]  # type: ignore[union-attr]
    assert "uses selu" in net.reason and net.layers == ()
