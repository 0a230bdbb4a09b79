"""The PyTorch export: the Network view's network as a ``torch.nn.Sequential`` training loop.

PyTorch's optimizers are set up to take Keras' steps (the Network view trains with Keras 3's
rules): SGD, momentum and Nesterov are the same algebra (torch keeps the velocity in gradient
units, so a learning-rate change rescales it); Adam's ``eps`` is set before each step to
``ε / √(1 − β₂ᵗ)`` (Keras adds ε before the bias correction); Adagrad starts its accumulator at
``initial + ε`` with ``eps=0`` (Keras adds ε inside the root). RMSprop cannot be set up so:
torch divides by ``√v + ε``, Keras by ``√(v + ε)``, which matters where gradients are tiny, so
the script writes Keras' RMSprop out as a small optimizer class with torch's calls.
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
    layer_titles,
    loss_lines,
    matrix,
    number,
    report,
    rule,
    settings,
    vector_lines,
)

__all__ = ["torch_script"]

ACTIVATIONS = {"relu": "nn.ReLU()", "tanh": "nn.Tanh()", "sigmoid": "nn.Sigmoid()"}


def _optimizer(c: Checked) -> list[str]:
    opt, v = c.optimizer, c.optimizer.values
    params = "model.parameters(), lr=LEARNING_RATE"
    if opt.kind == "SGD":
        return [f"optimizer = torch.optim.SGD({params})"]
    if opt.kind in ("Momentum", "Nesterov"):
        # torch refuses Nesterov without momentum; with β = 0 both are plain SGD
        nesterov = ", nesterov=True" if opt.kind == "Nesterov" and v["momentum"] else ""
        return [
            "# Keras' momentum (m = βm − lr·g; w += m) is torch's (b = βb + g; w −= lr·b):",
            "# the same steps, with m = −lr·b.",
            f"optimizer = torch.optim.SGD({params}, momentum={number(v['momentum'])}{nesterov})",
        ]
    if opt.kind == "Adam":
        return [
            f"BETA_2, EPSILON = {number(v['beta_2'])}, {number(v['epsilon'])}",
            "# Keras adds ε to √v before the bias correction, torch after it: the step's ε below",
            "# (ε / √(1 − β₂ᵗ), set before every step) makes torch take Keras' steps exactly.",
            f"optimizer = torch.optim.Adam({params}, betas=({number(v['beta_1'])}, BETA_2))",
        ]
    if opt.kind == "Adagrad":
        return [
            "# Keras divides by √(accumulator + ε), torch by √accumulator + eps: starting torch's",
            "# accumulator ε higher with eps=0 gives Keras' steps exactly.",
            "optimizer = torch.optim.Adagrad(",
            f"    {params},",
            f"    initial_accumulator_value={number(v['initial_accumulator_value'])}"
            f" + {number(v['epsilon'])},",
            "    eps=0.0,",
            ")",
        ]
    return [
        "# Keras' RMSprop, written out: torch.optim.RMSprop divides by √v + ε where Keras",
        "# divides by √(v + ε), which changes the steps of weights whose gradients are tiny",
        "# (≲ √ε ≈ 3e-4) up to tenfold and can move the losses by several per cent within a few",
        "# epochs. This class takes Keras' steps exactly and answers to torch optimizers' calls.",
        "class KerasRMSprop:",
        '    """Keras\' rule: v = ρv + (1 − ρ)g²; s = lr·g / √(v + ε) (or m = μm + s); w −= s."""',
        "",
        "    def __init__(self, params, lr, rho, momentum, epsilon):",
        "        self.params = list(params)",
        '        self.param_groups = [{"params": self.params, "lr": lr}]',
        "        self.rho, self.momentum, self.epsilon = rho, momentum, epsilon",
        "        self.averages = [torch.zeros_like(p) for p in self.params]  # v",
        "        self.velocities = [torch.zeros_like(p) for p in self.params]  # m",
        "",
        "    def zero_grad(self):",
        "        for p in self.params:",
        "            p.grad = None",
        "",
        "    def step(self):",
        '        lr = self.param_groups[0]["lr"]',
        "        with torch.no_grad():",
        "            for p, v, m in zip(self.params, self.averages, self.velocities):",
        "                v.mul_(self.rho).add_((1 - self.rho) * p.grad**2)",
        "                step = lr * p.grad / torch.sqrt(v + self.epsilon)",
        "                if self.momentum:",
        "                    step = m.mul_(self.momentum).add_(step)",
        "                p.sub_(step)",
        "",
        "",
        "optimizer = KerasRMSprop(",
        "    model.parameters(),",
        "    lr=LEARNING_RATE,",
        f"    rho={number(v['rho'])},",
        f"    momentum={number(v['momentum'])},",
        f"    epsilon={number(v['epsilon'])},",
        ")",
    ]


def _has_momentum(c: Checked) -> bool:
    return c.optimizer.kind in ("Momentum", "Nesterov") and bool(c.optimizer.values["momentum"])


def _decay(c: Checked) -> list[str]:
    lines = [
        "def set_learning_rate(lr):",
        '    """Change the learning rate (the linear decay, at the start of each epoch)."""',
        "    for group in optimizer.param_groups:",
    ]
    if _has_momentum(c):
        lines += [
            "        # Keras keeps the velocity in step units (−lr·b), torch in gradient units",
            "        # (b): when lr changes, rescale torch's buffer so that the two stay equal.",
            '        for p in group["params"]:',
            '            buffer = optimizer.state[p].get("momentum_buffer")',
            "            if buffer is not None:",
            '                buffer.mul_(group["lr"] / lr)',
        ]
    return [*lines, '        group["lr"] = lr', "", ""]


def torch_script(
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
    """A PyTorch script that trains this network from these weights to the same numbers.

    ``run`` picks the optimizer of a race (the first by default).
    """
    c = check(config, weights, train_x, train_y, test_x, test_y, epochs, run)
    net, train = config.net, config.train
    has_test = bool(len(c.test))
    adam = c.optimizer.kind == "Adam"
    lines = header(c, "PyTorch", "Runs with PyTorch, and in tapeviz.")
    lines += [
        "",
        *(["import math", ""] if adam else []),
        "import torch",
        "from torch import nn",
    ]
    lines += ["", *settings(c), *data(c), *features(c, "torch", "dim")]
    lines += [
        "",
        "",
        "train = torch.tensor(TRAIN)  # float32, torch's default",
        "train_inputs, train_labels = features(train), train[:, 2:]",
    ]
    if has_test:
        lines += [
            "test = torch.tensor(TEST)",
            "test_inputs, test_labels = features(test), test[:, 2:]",
        ]
    lines += ["", rule("The network"), "model = nn.Sequential("]
    titles = layer_titles(net.sizes)
    output = net.output_activation(config.problem)
    for i, (n_in, n_out) in enumerate(zip(net.sizes, net.sizes[1:], strict=False)):
        act = net.activation if i < len(net.hidden) else output
        what = f"hidden layer {i + 1}: {n_out} neurons" if i < len(net.hidden) else "output"
        lines.append(f"    nn.Linear({n_in}, {n_out}),  # {what}")
        lines.append(
            f"    {ACTIVATIONS[act]}," if act != "linear" else "    # linear: no activation"
        )
    lines += [")", "linears = [layer for layer in model if isinstance(layer, nn.Linear)]", ""]
    lines += [
        "# The Network view's first weights, per layer: torch's weight (one row per neuron, one",
        "# column per input: Keras' kernel transposed) and its bias.",
        "FIRST_WEIGHTS = [",
    ]
    for (w, b), title in zip(c.weights, titles, strict=True):
        lines += [f"    (  # {title}", *matrix(w.T, 8), *vector_lines(b, 8), "    ),"]
    lines += [
        "]",
        "with torch.no_grad():",
        "    for layer, (weight, bias) in zip(linears, FIRST_WEIGHTS):",
        "        layer.weight.copy_(torch.tensor(weight))",
        "        layer.bias.copy_(torch.tensor(bias))",
        "",
        "",
        *loss_lines(c, keras=False),
        "",
        "",
    ]
    penalty = "loss_fn(model(inputs), labels)"
    if net.regularization != "none":
        term = (
            "(layer.weight**2).sum()" if net.regularization == "L2" else "layer.weight.abs().sum()"
        )
        rate = "REGULARIZATION_RATE / 2" if net.regularization == "L2" else "REGULARIZATION_RATE"
        what = "rate · Σ ½w²" if net.regularization == "L2" else "rate · Σ |w|"
        lines += [
            "def penalty():",
            f'    """{net.regularization} regularisation: {what} over the weights (no biases)."""',
            f"    return {rate} * sum({term} for layer in linears)",
            "",
            "",
        ]
        penalty += " + penalty()"
    lines += [*_optimizer(c), "", ""]
    if train.decay == "linear":
        lines += _decay(c)
    lines += [
        "def loss_on(inputs, labels):",
        '    """The mean loss over a whole data set at the current weights (no regulariser)."""',
        "    with torch.no_grad():",
        "        return loss_fn(model(inputs), labels).item()",
        "",
        "",
        "def report(epoch):",
        '    """Print the train and test loss after `epoch` epochs."""',
        *report(c),
        "",
        "",
        "report(0)",
        *(["step = 0"] if adam else []),
        "for epoch in range(EPOCHS):",
    ]
    if train.decay == "linear":
        lines.append(f"    set_learning_rate({decay_expression()})")
    lines += [
        "    # Batches in the stored order, the last one partial (no shuffling).",
        "    for start in range(0, len(train_inputs), BATCH_SIZE):",
        "        inputs = train_inputs[start : start + BATCH_SIZE]",
        "        labels = train_labels[start : start + BATCH_SIZE]",
        f"        loss = {penalty}",
        "        optimizer.zero_grad()",
        "        loss.backward()",
    ]
    if adam:
        lines += [
            "        step += 1",
            "        for group in optimizer.param_groups:",
            '            group["eps"] = EPSILON / math.sqrt(1 - BETA_2**step)',
        ]
    lines += ["        optimizer.step()", "    report(epoch + 1)"]
    return "\n".join(lines) + "\n"
