"""The Network view's state as a session keeps it: exact round trip, every field checked."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tapeviz.models.network.config import NetworkConfig
from tapeviz.models.network.state import NetworkState, from_doc, to_doc
from tapeviz.models.network.trainer import initial_weights


def test_weights_round_trip_exactly_through_json() -> None:
    config = NetworkConfig().with_net(hidden=(3,))
    first = initial_weights(config.net)
    moved = tuple((w * np.float32(1.5), b - np.float32(0.25)) for w, b in first)
    doc = json.loads(json.dumps(to_doc(NetworkState(config, first, moved, 7))))
    back = from_doc(doc)
    assert back.config == config and back.epoch == 7
    for (w, b), (w2, b2) in zip(moved, back.weights, strict=True):
        assert w2.dtype == np.float32 and np.array_equal(w, w2) and np.array_equal(b, b2)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(weights=[[[[1.0]], [0.0]]]),  # shapes of another network
        lambda d: d["weights"][0][0][0].__setitem__(0, float("inf")),
        lambda d: d["weights"][0][0][0].__setitem__(0, "1"),
        lambda d: d.update(config={"net": {"hidden": [99]}}),
        lambda d: d.update(initial="no"),
    ],
)
def test_a_hostile_document_is_refused_with_a_reason(change: object) -> None:
    config = NetworkConfig()
    first = initial_weights(config.net)
    doc = json.loads(json.dumps(to_doc(NetworkState(config, first, first, 0))))
    change(doc)  # type: ignore[operator]
    with pytest.raises(ValueError, match=r"\w"):
        from_doc(doc)
