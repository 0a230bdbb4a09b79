"""Export the Network view's network as a Keras script and a PyTorch script.

Both scripts embed the data and the first weights as exact float32 literals, train with the
Network view's semantics (features in Playground's order; mean loss per batch plus the
regulariser; batches in the stored order, the last one partial; Keras 3's optimizer rules;
linear learning-rate decay per epoch) and print ``epoch 3: train 0.1234 test 0.2345`` after
every epoch. The Keras script runs with TensorFlow 2 / Keras 3 and through ``tapeviz.tf``; the
PyTorch script runs with PyTorch and through ``tapeviz.torch``.

PyTorch's optimizers are configured to take Keras' steps: SGD, momentum and Nesterov are the same
algebra (torch keeps the velocity in gradient units, so a learning-rate change rescales it);
Adam's ε is set each step to ``ε / √(1 − β₂ᵗ)`` (Keras adds ε before the bias correction);
Adagrad starts its accumulator at ``initial + ε`` with ``eps=0`` (Keras adds ε inside the root).
RMSprop cannot be set up so (torch divides by ``√v + ε``, Keras by ``√(v + ε)``, which matters
where gradients are tiny): the PyTorch script writes Keras' rule out in a small optimizer class.
"""

from __future__ import annotations

import numpy as np

from tapeviz.models.network.config import NetworkConfig
from tapeviz.models.network.export_text import (
    Checked,
    Weights,
    check,
    data,
    decay_expression,
    features,
    header,
    layer_names,
    layer_titles,
    loss_lines,
    matrix,
    number,
    report,
    rule,
    settings,
    vector_lines,
)
from tapeviz.models.network.export_torch import torch_script

__all__ = ["Weights", "keras_script", "torch_script"]


def _keras_optimizer(c: Checked) -> list[str]:
    opt, v = c.optimizer, c.optimizer.values
    if opt.kind == "SGD":
        return ["optimizer = keras.optimizers.SGD(learning_rate=LEARNING_RATE)"]
    if opt.kind in ("Momentum", "Nesterov"):
        nesterov = ", nesterov=True" if opt.kind == "Nesterov" else ""
        return [
            "optimizer = keras.optimizers.SGD(learning_rate=LEARNING_RATE, "
            f"momentum={number(v['momentum'])}{nesterov})"
        ]
    args = {
        "Adam": ("beta_1", "beta_2", "epsilon"),
        "RMSprop": ("rho", "momentum", "epsilon"),
        "Adagrad": ("initial_accumulator_value", "epsilon"),
    }[opt.kind]
    lines = [f"optimizer = keras.optimizers.{opt.kind}(", "    learning_rate=LEARNING_RATE,"]
    lines += [f"    {name}={number(v[name])}," for name in args]
    return [*lines, ")"]


def keras_script(
    config: NetworkConfig,
    weights: Weights,
    train_x: np.ndarray,
    train_y: np.ndarray,
    test_x: np.ndarray,
    test_y: np.ndarray,
    epochs: int,
    *,
    run: int = 0,
) -> str:
    """A Keras script that trains this network from these weights to the Network view's numbers.

    ``run`` picks the optimizer of a race (the first by default).
    """
    c = check(config, weights, train_x, train_y, test_x, test_y, epochs, run)
    net, train = config.net, config.train
    has_test = bool(len(c.test))
    lines = header(c, "Keras", "Runs with TensorFlow 2 / Keras 3, and in tapeviz.")
    lines += ["", "import numpy as np", "import tensorflow as tf", "from tensorflow import keras"]
    lines += ["", *settings(c), *data(c), *features(c, "np", "axis")]
    lines += [
        "",
        "",
        "train = np.array(TRAIN, dtype=np.float32)",
        "train_inputs, train_labels = features(train), train[:, 2:]",
    ]
    if has_test:
        lines += [
            "test = np.array(TEST, dtype=np.float32)",
            "test_inputs, test_labels = features(test), test[:, 2:]",
        ]
    lines += ["", rule("The network")]
    reg = ""
    if net.regularization == "L2":
        lines += [
            "# L2 regularisation: rate · Σ ½w² over the weights (not the biases).",
            "penalty = keras.regularizers.L2(REGULARIZATION_RATE / 2)",
        ]
        reg = ", kernel_regularizer=penalty"
    elif net.regularization == "L1":
        lines += [
            "# L1 regularisation: rate · Σ |w| over the weights (not the biases).",
            "penalty = keras.regularizers.L1(REGULARIZATION_RATE)",
        ]
        reg = ", kernel_regularizer=penalty"
    names, titles = layer_names(len(net.sizes) - 1), layer_titles(net.sizes)
    output = net.output_activation(config.problem)
    lines += [
        "model = keras.Sequential(",
        "    [",
        f"        keras.Input(shape=({len(net.features)},)),  # the input features",
    ]
    for i, (n, name) in enumerate(zip((*net.hidden, 1), names, strict=True)):
        act = net.activation if i < len(net.hidden) else output
        what = f"hidden layer {i + 1}: {n} neurons" if i < len(net.hidden) else "the output"
        lines += [
            f"        # {what}, {act}",
            f'        keras.layers.Dense({n}, activation="{act}"{reg}, name="{name}"),',
        ]
    lines += ["    ]", ")", ""]
    lines += [
        "# The Network view's first weights, per layer: its kernel (one row per input, one column",
        "# per neuron) and its bias.",
        "FIRST_WEIGHTS = [",
    ]
    for (w, b), title in zip(c.weights, titles, strict=True):
        lines += [f"    # {title}", *matrix(w, 4), *vector_lines(b, 4)]
    lines += ["]", "model.set_weights([np.array(w, dtype=np.float32) for w in FIRST_WEIGHTS])"]
    lines += ["", "", *loss_lines(c, keras=True), "", "", *_keras_optimizer(c)]
    lines += ["model.compile(optimizer=optimizer, loss=loss_per_point)", "", ""]
    lines += [
        "def loss_on(inputs, labels):",
        '    """The mean loss over a whole data set at the current weights (no regulariser)."""',
        "    return float(tf.reduce_mean(loss_per_point(labels, model(inputs))))",
        "",
        "",
        "def report(epoch, logs=None):",
        '    """Print the train and test loss after `epoch` epochs."""',
        *report(c),
        "",
        "",
    ]
    callbacks = []
    if train.decay == "linear":
        lines += [
            "def learning_rate_at(epoch, lr):",
            '    """Linear decay: the learning rate during `epoch` (counted from 0)."""',
            f"    return {decay_expression()}",
            "",
            "",
        ]
        callbacks.append("keras.callbacks.LearningRateScheduler(learning_rate_at),")
    callbacks.append(
        "keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: report(epoch + 1)),"
    )
    lines += [
        "report(0)",
        "model.fit(",
        "    train_inputs,",
        "    train_labels,",
        "    batch_size=BATCH_SIZE,",
        "    epochs=EPOCHS,",
        "    shuffle=False,  # batches in the stored order, the last one partial",
        "    verbose=0,",
        "    callbacks=[",
        *("        " + cb for cb in callbacks),
        "    ],",
        ")",
    ]
    return "\n".join(lines) + "\n"
