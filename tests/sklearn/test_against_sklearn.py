"""tapeviz.sklearn returns what scikit-learn 1.9.1 returns: the same draws, dtypes and texts."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tapeviz.sklearn as tvs

_spec = importlib.util.spec_from_file_location("sk_cases", Path(__file__).with_name("cases.py"))
assert _spec is not None and _spec.loader is not None
cases_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases_module)

ORACLE = json.loads(cases_module.ORACLE.read_text())
OURS = cases_module.cases(tvs)


def _same(want: Any, got: Any, where: str) -> None:
    if isinstance(want, dict):  # an array's digest
        assert isinstance(got, dict), where
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), where
        if got["sha256"] == want["sha256"]:
            return
        # floats: numpy's sin/cos may differ in the last bit between machines (SIMD paths)
        assert want["dtype"].startswith("float"), f"{where}: integers differ"
        np.testing.assert_allclose(got["head"], want["head"], rtol=1e-12, atol=1e-14)
        for key in ("sum", "sumsq"):
            np.testing.assert_allclose(got[key], want[key], rtol=1e-12, atol=1e-12)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            _same(w, g, f"{where}[{i}]")
    else:
        assert got == want, where


def test_the_oracle_was_made_by_scikit_learn_1_9_1() -> None:
    assert ORACLE["sklearn"] == "1.9.1"
    assert list(ORACLE["cases"]) == list(OURS)


@pytest.mark.parametrize("name", list(ORACLE["cases"]))
def test_case_matches_scikit_learn(name: str) -> None:
    _same(ORACLE["cases"][name], cases_module.summary(OURS[name]), name)


def test_the_pytorch_course_circles_print_what_the_course_shows() -> None:
    # "PyTorch for Deep Learning", notebook 02: make_circles(1000, noise=0.03, random_state=42)
    X, y = tvs.datasets.make_circles(1000, noise=0.03, random_state=42)
    assert np.array2string(X[:5]) == (
        "[[ 0.75424625  0.23148074]\n [-0.75615888  0.15325888]\n [-0.81539193  0.17328203]\n"
        " [-0.39373073  0.69288277]\n [ 0.44220765 -0.89672343]]"
    )
    assert y[:5].tolist() == [1, 1, 1, 1, 0]
    X_train, X_test, y_train, y_test = tvs.model_selection.train_test_split(
        X, y, test_size=0.2, random_state=42
    )
    assert (len(X_train), len(X_test), len(y_train), len(y_test)) == (800, 200, 800, 200)


def test_docstring_examples() -> None:
    X, y = np.arange(10).reshape((5, 2)), list(range(5))
    X_train, X_test, y_train, y_test = tvs.model_selection.train_test_split(
        X, y, test_size=0.33, random_state=42
    )
    assert X_train.tolist() == [[4, 5], [0, 1], [6, 7]] and y_train == [2, 0, 3]
    assert X_test.tolist() == [[2, 3], [8, 9]] and y_test == [1, 4]
    assert tvs.model_selection.train_test_split(y, shuffle=False) == [[0, 1, 2], [3, 4]]
    _, yb = tvs.datasets.make_blobs(n_samples=10, centers=3, n_features=2, random_state=0)
    assert yb.tolist() == [0, 0, 1, 0, 2, 2, 2, 1, 1, 0]
    assert tvs.utils.sample_without_replacement(10, 5, random_state=42).tolist() == [8, 1, 5, 0, 7]
    scaler = tvs.preprocessing.StandardScaler()
    assert str(scaler.fit([[0, 0], [0, 0], [1, 1], [1, 1]])) == "StandardScaler()"
    assert str(scaler.mean_) == "[0.5 0.5]"
    assert str(scaler.transform([[2, 2]])) == "[[3. 3.]]"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tvs.model_selection.train_test_split(), "At least one array required"),
        (lambda: tvs.model_selection.train_test_split([1, 2, 3], [1, 2]),
         r"inconsistent numbers of samples: \[3, 2\]"),
        (lambda: tvs.model_selection.train_test_split([1, 2, 3], test_size=1.5),
         r"test_size=1.5 should be either positive"),
        (lambda: tvs.model_selection.train_test_split([1, 2, 3, 4], test_size=0.9, train_size=0.5),
         "The sum of test_size and train_size"),
        (lambda: tvs.model_selection.train_test_split([1, 2, 3], stratify=[0, 1, 1]),
         "only 1 member"),
        (lambda: tvs.datasets.make_circles(10, factor=1.5), "'factor' parameter"),
        (lambda: tvs.datasets.make_moons((1, 2, 3)), "two-element tuple"),
        (lambda: tvs.datasets.load_iris(as_frame=True), "pandas"),
        (lambda: tvs.preprocessing.StandardScaler().transform([[1.0]]), "not fitted yet"),
        (lambda: tvs.preprocessing.StandardScaler().fit([[1.0, 2.0]]).transform([[1.0]]),
         "X has 1 features, but StandardScaler is expecting 2"),
        (lambda: tvs.preprocessing.StandardScaler().fit([1.0, 2.0]), "Expected a 2D array"),
        (lambda: tvs.metrics.accuracy_score([0, 1, 1], [0.2, 0.7, 0.9]),
         "can't handle a mix of binary and continuous targets"),
        (lambda: tvs.datasets.make_moons(10, random_state="x"), "cannot be used to seed"),
        (lambda: tvs.preprocessing.LabelEncoder().fit(["a"]).transform(["b"]),
         r"previously unseen labels: \['b'\]"),
        (lambda: tvs.preprocessing.LabelEncoder().transform(["a"]), "not fitted yet"),
    ],
)  # fmt: skip
def test_mistakes_get_scikit_learns_messages(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_loaded_data_are_fresh_copies() -> None:
    a = tvs.datasets.load_iris()
    a.data[:] = 0
    a.target[:] = 9
    b = tvs.datasets.load_iris(return_X_y=True)
    assert b[0][0].tolist() == [5.1, 3.5, 1.4, 0.2] and b[1][0] == 0
    d = tvs.datasets.load_digits()
    d.images[0] = 0
    assert tvs.datasets.load_digits().images[0].sum() == 294.0


def test_bunch_reads_keys_as_attributes() -> None:
    b = tvs.utils.Bunch(a=1)
    b.c = 2
    assert b["c"] == 2 and b.a == 1 and dir(b) == ["a", "c"]
    with pytest.raises(AttributeError):
        _ = b.missing


def test_the_oracle_digest_is_what_the_test_compares() -> None:
    a = np.arange(4.0)
    d = cases_module.summary(a)
    assert d["sha256"] == hashlib.sha256(a.tobytes()).hexdigest() and d["sum"] == 6.0
    with pytest.raises(AssertionError):
        _same(d, cases_module.summary(a + 1e-9), "changed")
