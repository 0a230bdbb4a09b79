"""Course scripts that make their data with scikit-learn run in the sandbox (``import sklearn``)."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.sklearn as tvs
from tapeviz.sandbox import run
from tapeviz.sandbox.process.fit_columns import fit_columns_of
from tapeviz.sandbox.process.isolated import run_isolated

# "PyTorch for Deep Learning", notebook 02 (classification), its first cells and a short loop.
TORCH_CIRCLES = """import torch
from torch import nn
from sklearn.datasets import make_circles
from sklearn.model_selection import train_test_split

n_samples = 1000
X, y = make_circles(n_samples, noise=0.03, random_state=42)
print(f"First 5 X features:\\n{X[:5]}")
print(f"\\nFirst 5 y labels:\\n{y[:5]}")
X = torch.from_numpy(X).type(torch.float)
y = torch.from_numpy(y).type(torch.float)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)
print(len(X_train), len(X_test), len(y_train), len(y_test), type(X_train).__name__)
model_0 = nn.Sequential(nn.Linear(in_features=2, out_features=5), nn.Linear(5, 1))
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.1)
for epoch in range(3):
    y_logits = model_0(X_train).squeeze()
    loss = loss_fn(y_logits, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""

# micrograd's demo notebook: the global seeds, then make_moons with random_state left out.
MICROGRAD_DEMO = """import random
import numpy as np
np.random.seed(1337)
random.seed(1337)
from sklearn.datasets import make_moons, make_blobs
X, y = make_moons(n_samples=100, noise=0.1)
y = y*2 - 1 # make y be -1 or 1
print(X.shape, y[:8])
"""

KERAS_MOONS = """import tensorflow as tf
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import accuracy_score
X, y = make_moons(n_samples=120, noise=0.2, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
scaler = StandardScaler()
X_train = scaler.fit_transform(X_train)
X_test = scaler.transform(X_test)
print(scaler, X_train.shape, X_test.shape, int(y_test.sum()))
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(X_train, y_train, epochs=2, batch_size=32, validation_data=(X_test, y_test), verbose=0)
pred = (model.predict(X_test, verbose=0) > 0.5).astype(int).ravel()
print(0.0 <= accuracy_score(y_test, pred) <= 1.0)
"""


def _ok(code: str) -> str:
    r = run(code)
    assert r.error is None, r.error
    return r.output


def test_the_pytorch_course_cells_run_with_the_courses_numbers() -> None:
    r = run(TORCH_CIRCLES)
    assert r.error is None, r.error
    assert r.output.startswith(
        "First 5 X features:\n[[ 0.75424625  0.23148074]\n [-0.75615888  0.15325888]\n"
        " [-0.81539193  0.17328203]\n [-0.39373073  0.69288277]\n [ 0.44220765 -0.89672343]]\n"
        "\nFirst 5 y labels:\n[1 1 1 1 0]\n800 200 800 200 Tensor\n"
    )
    assert len(r.tapes) == 3  # the training steps are on the timeline


def test_random_state_none_draws_from_the_runs_seeded_numpy_not_the_process() -> None:
    before = np.random.get_state()[1].copy()
    out = _ok(MICROGRAD_DEMO)
    _, y = tvs.datasets.make_moons(n_samples=100, noise=0.1, random_state=1337)
    assert out == f"(100, 2) {y[:8] * 2 - 1}\n"
    assert np.array_equal(np.random.get_state()[1], before)
    # unseeded, each run starts from fresh entropy as a new process would (equal by chance:
    # one order of 40 shuffled labels in C(40, 20) ≈ 1.4e11)
    code = "from sklearn.datasets import make_moons\nprint(make_moons(40)[1])"
    assert _ok(code) != _ok(code)


def test_a_scripts_random_state_object_is_used_and_a_generator_is_refused() -> None:
    out = _ok(
        "import numpy as np\nfrom sklearn.datasets import make_blobs\n"
        "rs = np.random.RandomState(3)\nprint(make_blobs(10, random_state=rs)[1])\n"
        "print(make_blobs(10, random_state=rs)[1])\n"
    )
    rs = np.random.RandomState(3)
    want = [tvs.datasets.make_blobs(10, random_state=rs)[1] for _ in range(2)]
    assert out == f"{want[0]}\n{want[1]}\n"
    r = run("import numpy as np\nfrom sklearn.utils import shuffle\n"
            "shuffle([1, 2], random_state=np.random.default_rng(0))")  # fmt: skip
    assert r.error is not None and "cannot be used to seed" in str(r.error)


def test_bundled_sets_read_as_bunches() -> None:
    out = _ok(
        "from sklearn.datasets import load_iris, load_digits\n"
        "iris = load_iris()\nprint(list(iris.keys())[:4], iris.data.shape, iris['target'][-1])\n"
        "print(iris.target_names, iris.DESCR.splitlines()[0])\n"
        "X, y = load_digits(return_X_y=True)\nprint(X.shape, y[:5])\n"
    )
    assert out == (
        "['data', 'target', 'frame', 'target_names'] (150, 4) 2\n"
        "['setosa' 'versicolor' 'virginica'] .. _iris_dataset:\n(1797, 64) [0 1 2 3 4]\n"
    )


def test_a_bunch_takes_new_keys_as_attributes() -> None:
    out = _ok(
        "from sklearn.datasets import load_iris\niris = load_iris()\n"
        "iris.data = iris.data[:, :2]\niris.note = 'two features'\n"
        "print(iris['data'].shape, iris.note, 'note' in iris)\n"
    )
    assert out == "(150, 2) two features True\n"


def test_scalers_and_scores() -> None:
    out = _ok(
        "from sklearn.preprocessing import StandardScaler, MinMaxScaler\n"
        "from sklearn.metrics import accuracy_score, confusion_matrix, r2_score\n"
        "s = StandardScaler()\nprint(s.fit([[0, 0], [0, 0], [1, 1], [1, 1]]))\n"
        "print(s.mean_, s.transform([[2, 2]]))\n"
        "m = MinMaxScaler(feature_range=(-1, 1)).fit([[0.0], [4.0]])\n"
        "print(m, m.transform([[2.0]]))\n"
        "print(accuracy_score([0, 1, 1, 0], [0, 1, 0, 0]),\n"
        "      r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]))\n"
        "print(confusion_matrix([1, 0, 1], [1, 1, 1]))\n"
    )  # fmt: skip
    assert out == (
        "StandardScaler()\n[0.5 0.5] [[3. 3.]]\nMinMaxScaler(feature_range=(-1, 1)) [[0.]]\n"
        "0.75 0.9486081370449679\n[[0 1]\n [0 2]]\n"
    )


def test_keras_fit_on_sklearn_moons_reaches_the_network_view() -> None:
    r = run(KERAS_MOONS)
    assert r.error is None, r.error
    assert r.output == "StandardScaler() (90, 2) (30, 2) 15\nTrue\n"
    live = fit_columns_of(r.tapes)
    assert live is not None and live.nets is not None
    net = live.nets[0]
    assert net.reason == "" and [layer.units for layer in net.layers] == [4, 1]
    np.testing.assert_allclose(net.x, r.namespace["X_train"], rtol=1e-6)  # scaled, as float32


@pytest.mark.parametrize(
    ("code", "kind", "says"),
    [
        ("from sklearn.linear_model import LogisticRegression", "refused",
         "scikit-learn's models are not in tapeviz"),
        ("from sklearn.datasets import fetch_openml", "refused", "tapeviz downloads nothing"),
        ("import sklearn\nsklearn.svm", "refused", "sklearn.svm is not available in tapeviz"),
        ("from sklearn.datasets import make_moons\nmake_moons(10**9)", "limit", "make_moons"),
        ("from sklearn.datasets import make_blobs\nmake_blobs(10, n_features=10**8)", "limit",
         "make_blobs"),
        ("import numpy as np\nfrom sklearn.datasets import make_blobs\n"
         "make_blobs(10**4, centers=np.zeros((1, 10**4)))", "limit", "make_blobs"),
        ("from sklearn.model_selection import train_test_split\n"
         "train_test_split(range(10**12))", "limit", "train_test_split"),
        ("from sklearn.utils import shuffle\nshuffle(range(10**12))", "limit", "shuffle"),
        ("from sklearn.datasets import make_moons\nmake_moons(n_samples=10.5)", "value",
         "Got 10.5 instead"),
        ("from sklearn.metrics import confusion_matrix\n"
         "confusion_matrix([0], [0], labels=list(range(10**5)))", "limit", "confusion_matrix"),
        ("from sklearn.utils import sample_without_replacement\n"
         "sample_without_replacement(10**12, 10**9)", "limit", "sample_without_replacement"),
        ("from sklearn.datasets import load_iris\nload_iris(as_frame=True)", "value", "pandas"),
        ("from sklearn.preprocessing import StandardScaler\nStandardScaler().fit([[1, 2]])"
         ".transform([[1]])", "value", "expecting 2 features"),
    ],
)  # fmt: skip
def test_walls_and_limits_say_why(code: str, kind: str, says: str) -> None:
    r = run(code)
    assert r.error is not None and r.error.kind == kind, r.error
    assert says in str(r.error), str(r.error)


def test_through_the_worker_process() -> None:
    r = run_isolated(MICROGRAD_DEMO)
    assert r.error is None, r.error
    _, y = tvs.datasets.make_moons(n_samples=100, noise=0.1, random_state=1337)
    assert r.output == f"(100, 2) {y[:8] * 2 - 1}\n"
