"""Notebook numpy (issue 33 item 7): index tricks, numpy functions of tensors, decision boundaries.

The expected values are numpy's documented examples (``numpy.r_``, ``numpy.c_``, ``numpy.mgrid``
and ``numpy.ogrid`` in numpy's reference), TensorFlow's rule that numpy functions of an eager
tensor give ndarrays (``EagerTensor.__array__``), and PyTorch's ``Tensor.__array__`` (which calls
``numpy()``, so a tensor that requires grad raises) and ``Tensor.__array_wrap__`` (a ufunc of a
tensor gives a tensor; a bool result becomes uint8).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
import tapeviz.torch as torch
from tapeviz.sandbox import run


def _out(src: str) -> Any:
    r = run(src + "\n")
    assert r.error is None, r.error
    return r.namespace["out"]


def _same(got: Any, want: Any) -> None:
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got, want)
    np.testing.assert_allclose(got, want)


# -- np.r_, np.c_, np.mgrid, np.ogrid: numpy's reference examples -----------------------------
@pytest.mark.parametrize(
    ("expr", "want"),
    [
        ("np.r_[np.array([1,2,3]), 0, 0, np.array([4,5,6])]", [1, 2, 3, 0, 0, 4, 5, 6]),
        ("np.r_[-1:1:6j, [0]*3, 5, 6]", [-1, -0.6, -0.2, 0.2, 0.6, 1, 0, 0, 0, 5, 6]),
        ("np.r_['-1', a, a]", [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]),
        ("np.r_['0,2', [1,2,3], [4,5,6]]", [[1, 2, 3], [4, 5, 6]]),
        ("np.r_['0,2,0', [1,2,3], [4,5,6]]", [[1], [2], [3], [4], [5], [6]]),
        ("np.r_['1,2,0', [1,2,3], [4,5,6]]", [[1, 4], [2, 5], [3, 6]]),
        ("np.r_[0:10:2]", [0, 2, 4, 6, 8]),
        ("np.r_[-1:1:5j]", [-1, -0.5, 0, 0.5, 1]),
        ("np.c_[np.array([1,2,3]), np.array([4,5,6])]", [[1, 4], [2, 5], [3, 6]]),
        ("np.c_[np.array([[1,2,3]]), 0, 0, np.array([[4,5,6]])]", [[1, 2, 3, 0, 0, 4, 5, 6]]),
        ("np.mgrid[-1:1:5j]", [-1, -0.5, 0, 0.5, 1]),
        ("np.mgrid[0:3, 0:2]", [[[0, 0], [1, 1], [2, 2]], [[0, 1], [0, 1], [0, 1]]]),
        ("np.ogrid[-1:1:5j]", [-1, -0.5, 0, 0.5, 1]),
        ("np.s_[1:3]", None),
    ],
)
def test_index_tricks_give_numpys_documented_results(expr: str, want: Any) -> None:
    got = _out(f"a = np.array([[0, 1, 2], [3, 4, 5]])\nout = {expr}")
    if want is None:
        assert got == slice(1, 3)
    else:
        _same(got, want)


def test_ogrid_gives_open_grids() -> None:
    xs, ys = _out("out = np.ogrid[0:3, 0:2]")
    _same(xs, [[0], [1], [2]])
    _same(ys, [[0, 1]])


def test_c_of_a_meshgrid_is_the_list_of_grid_points() -> None:
    got = _out(
        "xx, yy = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(0, 1, 2))\n"
        "out = np.c_[xx.ravel(), yy.ravel()]"
    )
    xx, yy = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(0, 1, 2))
    _same(got, np.column_stack([xx.ravel(), yy.ravel()]))


def test_index_tricks_refuse_what_numpy_refuses_or_tapeviz_lacks() -> None:
    err = run("np.r_[1, 'r']\n").error
    assert err is not None and "special directives must be the first entry" in err.message
    err = run("np.r_['r', [1, 2], [3, 4]]\n").error  # an np.matrix
    assert err is not None and "not available in tapeviz" in err.message
    err = run("np.r_[np.array(['a', 'b'])]\n").error
    assert err is not None and "<U1" in err.message


# -- numpy functions of tensors ---------------------------------------------------------------
def test_numpy_functions_of_tf_tensors_give_ndarrays() -> None:
    out = _out(
        "t = tf.constant([1.0, 2.0])\nv = tf.Variable([3.0, 4.0])\n"
        "out = (np.add(t, 1), np.exp(t), np.square(v), np.mean(t), np.array(t), np.asarray(v),"
        " np.dot(t, t), np.concatenate([t, v]), np.maximum(t, 1.5), np.where(t > 1, t, 0.0))"
    )
    t, v = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)
    want = (np.add(t, 1), np.exp(t), np.square(v), np.mean(t), t, v, np.dot(t, t),
            np.concatenate([t, v]), np.maximum(t, 1.5), np.where(t > 1, t, 0.0))  # fmt: skip
    for got, w in zip(out, want, strict=True):
        assert isinstance(got, np.ndarray | np.generic)
        assert np.asarray(got).dtype == np.asarray(w).dtype
        _same(got, w)


def test_tf_functions_of_arrays_give_tensors_and_operators_stay_tensors() -> None:
    out = _out("a = np.array([1.0, 2.0], np.float32)\nout = (tf.exp(a), a * tf.constant(2.0))")
    assert all(isinstance(o, tf.Tensor) for o in out)
    _same(out[1].numpy(), [2.0, 4.0])


def test_numpy_ufuncs_of_torch_tensors_give_tensors_as_torch_wraps_them() -> None:
    out = _out(
        "import torch\nt = torch.tensor([1.0, -2.0])\n"
        "out = (np.sin(t), np.add(t, 1), np.greater(t, 0), np.array(t), np.mean(t))"
    )
    sin, add, greater, arr, mean = out
    assert isinstance(sin, torch.Tensor) and sin.dtype is torch.float32
    _same(sin.numpy(), np.sin(np.array([1.0, -2.0], np.float32)))
    _same(add.numpy(), [2.0, -1.0])
    assert greater.dtype is torch.uint8 and greater.tolist() == [1, 0]
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32
    _same(mean, -0.5)


@pytest.mark.parametrize(
    "expr", ["np.exp(w)", "np.array(w)", "np.asarray(w)", "np.concatenate([w, w])", "np.c_[w, w]"]
)
def test_numpy_of_a_torch_tensor_that_requires_grad_raises_torchs_error(expr: str) -> None:
    err = run(f"import torch\nw = torch.ones(2, requires_grad=True)\n{expr}\n").error
    assert err is not None and err.kind == "runtime"  # (as w.numpy() itself)
    assert err.message == (
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    )
    ok = run(f"import torch\nw = torch.ones(2, requires_grad=True).detach()\nout = {expr}\n")
    assert ok.error is None, ok.error


# -- the decision-boundary idiom ----------------------------------------------------------------
DATA = """\
import numpy as np
import matplotlib.pyplot as plt
np.random.seed(0)
X = np.random.randn(200, 2).astype(np.float32)
y = (X[:, 0] * X[:, 1] > 0).astype(np.float32)
xx, yy = np.meshgrid(np.linspace(-3, 3, 100), np.linspace(-3, 3, 100))
"""
PLOT = """\
plt.contourf(xx, yy, Z, levels=20, cmap='RdBu', alpha=0.8)
plt.scatter(X[:, 0], X[:, 1], c=y, cmap='RdBu', edgecolors='k')
plt.show()
"""


def _boundary(result: Any) -> None:
    assert result.error is None, result.error
    z = result.namespace["Z"]
    assert np.shape(z) == (100, 100) and np.all((z >= 0) & (z <= 1))
    kinds = [s.kind for s in result.figures[0].axes[0].series]
    assert kinds == ["contour", "points"], kinds


def test_a_keras_models_decision_boundary_over_a_meshgrid() -> None:
    result = run(
        DATA + "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),\n"
        "    tf.keras.layers.Dense(8, activation='relu'),\n"
        "    tf.keras.layers.Dense(1, activation='sigmoid')])\n"
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])\n"
        "model.fit(X, y, epochs=3, batch_size=32, verbose=0)\n"
        "Z = model.predict(np.c_[xx.ravel(), yy.ravel()], verbose=0)\n"
        "Z = Z.reshape(xx.shape)\n" + PLOT
    )
    _boundary(result)


def test_a_torch_models_decision_boundary_over_an_mgrid() -> None:
    result = run(
        DATA + "import torch\nfrom torch import nn\n"
        "xx, yy = np.mgrid[-3:3:100j, -3:3:100j]\n"
        "model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "Xt, yt = torch.from_numpy(X), torch.tensor(y).unsqueeze(1)\n"
        "for step in range(20):\n"
        "    opt.zero_grad()\n"
        "    loss = nn.functional.binary_cross_entropy_with_logits(model(Xt), yt)\n"
        "    loss.backward()\n"
        "    opt.step()\n"
        "grid = np.c_[xx.ravel(), yy.ravel()]\n"
        "with torch.no_grad():\n"
        "    Z = torch.sigmoid(model(torch.tensor(grid, dtype=torch.float32)))\n"
        "Z = Z.numpy().reshape(xx.shape)\n" + PLOT
    )
    _boundary(result)


# -- whole notebooks ------------------------------------------------------------------------------
LINEAR_REGRESSION = """\
import numpy as np
import matplotlib.pyplot as plt
np.random.seed(42)
X = 2 * np.random.rand(100, 1)
y = 4 + 3 * X + np.random.randn(100, 1)
X_b = np.c_[np.ones((100, 1)), X]
theta_best = np.linalg.inv(X_b.T.dot(X_b)).dot(X_b.T).dot(y)
X_new = np.array([[0], [2]])
X_new_b = np.c_[np.ones((2, 1)), X_new]
y_predict = X_new_b.dot(theta_best)
plt.plot(X_new, y_predict, "r-")
plt.plot(X, y, "b.")
plt.axis([0, 2, 0, 15])
eta, n_iterations, m = 0.1, 1000, 100
theta = np.random.randn(2, 1)
for iteration in range(n_iterations):
    gradients = 2 / m * X_b.T.dot(X_b.dot(theta) - y)
    theta = theta - eta * gradients
theta_lstsq, residuals, rank, s = np.linalg.lstsq(X_b, y, rcond=1e-6)
print(np.allclose(theta, theta_best), np.allclose(theta_lstsq, theta_best))
poly = np.poly1d(np.polyfit(X.ravel(), y.ravel(), 2))
print(poly.order, np.round(poly.coeffs, 2).shape)
"""
SOFTMAX_CLASSIFIER = """\
import numpy as np
rng = np.random.default_rng(1)
n = 150
means = [[0, 0], [3, 3], [0, 4]]
X = np.vstack([rng.multivariate_normal(mu, np.eye(2) * 0.5, n) for mu in means])
y = np.repeat(np.arange(3), n)
idx = rng.permutation(len(X))
X, y = X[idx], y[idx]
split = int(0.8 * len(X))
X_train, X_test, y_train, y_test = X[:split], X[split:], y[:split], y[split:]
mu, sigma = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mu) / sigma
X_test = (X_test - mu) / sigma
Y = np.eye(3)[y_train]
W = np.zeros((2, 3)); b = np.zeros(3)
def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)
losses = []
for epoch in range(200):
    P = softmax(X_train @ W + b)
    losses.append(-np.mean(np.sum(Y * np.log(P + 1e-12), axis=1)))
    G = (P - Y) / len(X_train)
    W -= 0.5 * X_train.T @ G
    b -= 0.5 * G.sum(axis=0)
acc = np.mean(np.argmax(softmax(X_test @ W + b), axis=1) == y_test)
print(acc > 0.9, losses[-1] < losses[0])
counts = np.bincount(y_train, minlength=3)
print(counts.sum() == len(y_train), np.unique(y_test).tolist())
xx, yy = np.meshgrid(np.linspace(-3, 3, 200), np.linspace(-3, 3, 200))
Z = np.argmax(softmax(np.c_[xx.ravel(), yy.ravel()] @ W + b), axis=1).reshape(xx.shape)
import matplotlib.pyplot as plt
plt.contourf(xx, yy, Z, alpha=0.3, levels=np.arange(4) - 0.5)
plt.scatter(X_test[:, 0], X_test[:, 1], c=y_test, s=15)
cm = np.zeros((3, 3), dtype=int)
for t, p in zip(y_test, np.argmax(softmax(X_test @ W + b), axis=1)):
    cm[t, p] += 1
print(np.trace(cm) / cm.sum() == acc)
print(np.percentile(losses, 50) > 0, np.histogram(X_train[:, 0], bins=10)[0].sum() == len(X_train))
"""


def test_a_linear_regression_notebook_runs_as_written() -> None:
    r = run(LINEAR_REGRESSION)
    assert r.error is None, r.error
    assert r.output == "True True\n2 (3,)\n"


def test_a_softmax_classifier_notebook_runs_as_written() -> None:
    r = run(SOFTMAX_CLASSIFIER)
    assert r.error is None, r.error
    assert r.output == "True True\nTrue [0, 1, 2]\nTrue\nTrue True\n"
    assert [s.kind for s in r.figures[0].axes[0].series] == ["contour", "points"]
