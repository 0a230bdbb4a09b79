"""Pieces shared by the Keras and PyTorch exports: checked inputs, exact literals, the header.

Everything written into a script is a number, or a name chosen from the validated settings in
:mod:`tapeviz.models.network.config`; no text a user typed reaches a script.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import FEATURE_LABELS, MAX_EPOCHS, NetworkConfig
from tapeviz.models.network.model import Weights, layer_names

WIDTH = 99  # characters per line of a packed literal
BIG, BIG_WIDTH = 200, 1000  # data sets of more points go on lines this long
# Each feature's column, written with the script's x1 and x2 (numpy's or torch's ``sin``).
FEATURE_CODE = {
    "x1": "x1", "x2": "x2", "x1sq": "x1 * x1", "x2sq": "x2 * x2", "x1x2": "x1 * x2",
    "sinx1": "{lib}.sin(x1)", "sinx2": "{lib}.sin(x2)",
}  # fmt: skip


def f32(value: float) -> str:
    """The shortest literal that reads back as exactly this float32 (``0.1``, ``-1.25``)."""
    x = np.float32(value)
    if not np.isfinite(x):
        raise ValueError(f"cannot export a value that is not finite: {float(x)!r}")
    text = str(x)
    # Python reads the literal as a float64 and the script rounds it to float32: check that
    # the double rounding lands on the same value, else write the float64 exactly.
    return text if np.float32(float(text)) == x else repr(float(x))


def number(value: float) -> str:
    """A hyper-parameter as Python writes it (``0.03``)."""
    return repr(float(value))


def packed(items: Sequence[str], indent: int, width: int = WIDTH) -> list[str]:
    """``items`` joined by commas, as many a line as fit in ``width`` characters."""
    lines: list[str] = []
    line = ""
    for item in items:
        piece = f"{item},"
        if line and indent + len(line) + 1 + len(piece) > width:
            lines.append(" " * indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(" " * indent + line)
    return lines


def vector(values: np.ndarray) -> str:
    """``[0.1, -0.2]``: a 1-D array as a list literal on one line."""
    return "[" + ", ".join(f32(v) for v in values) + "]"


def vector_lines(values: np.ndarray, indent: int) -> list[str]:
    """``[0.1, -0.2],`` on one line, or over several when it is longer than :data:`WIDTH`."""
    one = " " * indent + vector(values) + ","
    if len(one) <= WIDTH:
        return [one]
    return [" " * indent + "[", *packed([f32(v) for v in values], indent + 4), " " * indent + "],"]


def matrix(rows: np.ndarray, indent: int) -> list[str]:
    """A 2-D array as a list of row literals, one row a line (a long row over several)."""
    lines = [" " * indent + "["]
    for row in rows:
        lines += vector_lines(row, indent + 4)
    return [*lines, " " * indent + "],"]


@dataclass(frozen=True)
class Checked:
    """The export's inputs, validated: float32 arrays of the right shapes, all finite."""

    config: NetworkConfig
    weights: Weights
    train: np.ndarray  # (n, 3): x₁, x₂, label
    test: np.ndarray
    epochs: int
    optimizer: OptimizerConfig


def _points(x: np.ndarray, y: np.ndarray, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    y = np.asarray(y, dtype=np.float32).reshape(-1)
    if x.ndim != 2 or x.shape[1] != 2:
        raise ValueError(f"{name}: expected points of shape (n, 2), got {x.shape}")
    if len(y) != len(x):
        raise ValueError(f"{name}: {len(x)} points but {len(y)} labels")
    out = np.column_stack([x, y]).astype(np.float32)
    if not np.isfinite(out).all():
        raise ValueError(f"{name}: the points and labels must be finite")
    return out


def check(
    config: NetworkConfig,
    weights: Weights,
    train_x: np.ndarray,
    train_y: np.ndarray,
    test_x: np.ndarray,
    test_y: np.ndarray,
    epochs: int,
    run: int,
) -> Checked:
    """Validate everything a script embeds; ValueError says what does not fit."""
    if not isinstance(config, NetworkConfig):
        raise ValueError("config: expected a NetworkConfig")
    if isinstance(epochs, bool) or not isinstance(epochs, int | np.integer):
        raise ValueError(f"epochs: expected a whole number, got {epochs!r:.30}")
    if not 0 <= int(epochs) <= MAX_EPOCHS:
        raise ValueError(f"epochs: must be between 0 and {MAX_EPOCHS:,}, got {int(epochs):,}")
    runs = config.train.optimizers
    if isinstance(run, bool) or not isinstance(run, int) or not 0 <= run < len(runs):
        raise ValueError(f"run: expected 0 … {len(runs) - 1}, got {run!r:.30}")
    sizes = config.net.sizes
    if len(weights) != len(sizes) - 1:
        raise ValueError(f"weights: expected {len(sizes) - 1} layers, got {len(weights)}")
    layers = []
    for i, (pair, n_in, n_out) in enumerate(zip(weights, sizes, sizes[1:], strict=False)):
        w, b = (np.asarray(a, dtype=np.float32) for a in pair)
        if w.shape != (n_in, n_out) or b.shape != (n_out,):
            raise ValueError(
                f"weights: layer {i + 1} should be ({n_in}, {n_out}) and ({n_out},), "
                f"got {w.shape} and {b.shape}"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"weights: layer {i + 1} has a value that is not finite")
        layers.append((w, b))
    train = _points(train_x, train_y, "train")
    if not len(train):
        raise ValueError("train: no training points")
    test = _points(test_x, test_y, "test")
    return Checked(config, tuple(layers), train, test, int(epochs), runs[run])


def layer_titles(sizes: Sequence[int]) -> list[str]:
    """``hidden layer 1 (dense)``, …, ``output (dense_2)``: one per weighted layer.

    The names in brackets are the Network view's (Keras' default names for Dense layers).
    """
    names = layer_names(len(sizes) - 1)
    kinds = [f"hidden layer {i + 1}" for i in range(len(sizes) - 2)] + ["output"]
    return [f"{kind} ({name})" for kind, name in zip(kinds, names, strict=True)]


def optimizer_text(opt: OptimizerConfig) -> str:
    """``Adam (learning rate 0.03, beta_1 0.9, …)`` for the header."""
    values = ", ".join(f"{k}={v:g}" for k, v in opt.values.items())
    return f"{opt.kind} ({values})"


def header(c: Checked, framework: str, runs_with: str) -> list[str]:
    """The script's docstring: what the network is, how it trains, what it prints."""
    net, train = c.config.net, c.config.train
    inputs = ", ".join(FEATURE_LABELS[f] for f in net.features)
    shape = " → ".join([inputs, *(str(n) for n in net.hidden), "1"])
    loss = "square ½(o − y)²" if net.loss == "square" else "hinge max(0, 1 − y·o)"
    output = net.output_activation(c.config.problem)
    reg = "no regularisation"
    if net.regularization != "none":
        reg = f"{net.regularization} regularisation (rate {net.reg_rate:g})"
    decay = ""
    if train.decay == "linear":
        decay = f", learning rate decaying linearly to 0.1× over {train.decay_epochs} epochs"
    facts = [
        f"Data: {c.config.data.dataset} ({c.config.problem}), {len(c.train)} training and "
        f"{len(c.test)} test points.",
        f"Network: {shape}; {net.activation} in the hidden layers, {output} output; {loss} loss.",
        f"Training: {optimizer_text(c.optimizer)}, batches of {train.batch_size}, {reg}"
        f"{decay}; {c.epochs} epochs.",
        "It starts from the Network view's first weights, trains on the same batches in the same "
        "order and prints the mean loss over the training and the test points after every epoch "
        f"(epoch 0: before training): the numbers the Network view plots. {runs_with}",
    ]
    lines = [f'"""The network of tapeviz\'s Network view (TensorFlow Playground) in {framework}.']
    for fact in facts:
        lines += ["", *textwrap.wrap(fact, WIDTH)]
    return [*lines, '"""']


def rule(title: str) -> str:
    """``# --- title ------``: a section heading, :data:`WIDTH` characters wide."""
    text = f"# --- {title} "
    return text + "-" * (WIDTH - len(text))


def settings(c: Checked) -> list[str]:
    """The constants at the top of the script, each named after its control."""
    net, train, opt = c.config.net, c.config.train, c.optimizer
    lines = [
        rule("Settings: the Network view's controls"),
        f"LEARNING_RATE = {number(opt.learning_rate)}  # learning rate",
        f"BATCH_SIZE = {train.batch_size}  # batch size",
        f"EPOCHS = {c.epochs}  # epochs to train",
    ]
    if net.regularization != "none":
        lines.append(
            f"REGULARIZATION_RATE = {number(net.reg_rate)}  "
            f"# regularisation rate ({net.regularization})"
        )
    if train.decay == "linear":
        lines.append(
            f"DECAY_EPOCHS = {train.decay_epochs}  "
            "# the learning rate falls linearly to 0.1× over this many epochs"
        )
    return lines


def data(c: Checked) -> list[str]:
    """The training and test points as exact float32 literals."""
    lines = [
        "",
        rule("Data"),
        "# (x₁, x₂, label) per point, in the order the Network view trains on them; every number",
        "# is the exact float32 value the Network view used.",
    ]
    # Small sets one short line after another; big ones on few long lines (still exact).
    width = WIDTH if len(c.train) + len(c.test) <= BIG else BIG_WIDTH
    for name, points in (("TRAIN", c.train), ("TEST", c.test)):
        if len(points):
            lines.append(f"{name} = [")
            lines += packed([vector(p) for p in points], 4, width)
            lines.append("]")
    return lines


def features(c: Checked, lib: str, stack: str) -> list[str]:
    """``def features(points)``: the switched-on input columns (Playground's order)."""
    lines = [
        "",
        "",
        "def features(points):",
        '    """The inputs switched on in the Network view, one column each."""',
        "    x1, x2 = points[:, 0], points[:, 1]",
        f"    return {lib}.stack(",
        "        [",
    ]
    for f in c.config.net.features:
        lines.append(f"            {FEATURE_CODE[f].format(lib=lib)},  # {FEATURE_LABELS[f]}")
    lines += ["        ],", f"        {stack}=1,", "    )"]
    return lines


def decay_expression() -> str:
    """The learning rate during ``epoch`` (counted from 0) under linear decay."""
    return "LEARNING_RATE * (1 - 0.9 * min(epoch, DECAY_EPOCHS) / DECAY_EPOCHS)"


def report(c: Checked) -> list[str]:
    """The body of ``report(epoch)``: one line ``epoch 3: train 0.1234 test 0.2345``."""
    if not len(c.test):
        return ['    print(f"epoch {epoch}: train {loss_on(train_inputs, train_labels):.8g}")']
    return [
        "    print(",
        '        f"epoch {epoch}: train {loss_on(train_inputs, train_labels):.8g} "',
        '        f"test {loss_on(test_inputs, test_labels):.8g}"',
        "    )",
    ]


def loss_lines(c: Checked, keras: bool) -> list[str]:
    """``def loss_per_point`` (Keras) or ``def loss_fn`` (torch): the square or hinge loss."""
    if keras:
        lines = ["def loss_per_point(labels, outputs):"]
        if c.config.net.loss == "square":
            lines += [
                '    """Square loss ½(o − y)² of each point (Keras averages over a batch)."""',
                "    return 0.5 * tf.reduce_mean(tf.square(outputs - labels), axis=-1)",
            ]
        else:
            lines += [
                '    """Hinge loss max(0, 1 − y·o) of each point (Keras averages over a batch)."""',
                "    return tf.reduce_mean(tf.nn.relu(1.0 - labels * outputs), axis=-1)",
            ]
        return lines
    lines = ["def loss_fn(outputs, labels):"]
    if c.config.net.loss == "square":
        lines += [
            '    """Square loss: the mean of ½(o − y)² over the points."""',
            "    return 0.5 * ((outputs - labels) ** 2).mean()",
        ]
    else:
        lines += [
            '    """Hinge loss: the mean of max(0, 1 − y·o) over the points."""',
            "    return torch.relu(1.0 - labels * outputs).mean()",
        ]
    return lines
