"""Code export of an optimization: the same loss, optimizer, hyper-parameters and steps (no Qt).

:func:`tapeviz.models.export.code.export` uses this when the session carries the studio's
settings: the selected run's optimizer trains the trainable variables for ``steps`` steps in
TensorFlow (Keras optimizers, tapeviz's own rules), PyTorch (``torch.optim``) or JAX (optax).
Where a framework's optimizer differs from Keras in a detail, the script says so in a comment.
"""

from __future__ import annotations

from typing import Any

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.descent.studio_config import StudioConfig

# What differs from Keras (tapeviz follows Keras): printed as a comment in the script.
DIFFERENCES = {
    ("pytorch", "Adam"): "torch adds ε to √v̂; Keras adds ε̂ = ε·√(1−β2ᵗ) to √v (tiny difference)",
    ("jax", "Adam"): "optax adds ε to √v̂; Keras adds ε̂ = ε·√(1−β2ᵗ) to √v (tiny difference)",
    ("jax", "Adagrad"): "optax takes ε inside the square root; Keras outside (tiny difference)",
}


def selected_run(session: Any) -> tuple[OptimizerConfig, int, str]:
    """The optimizer of the studio's selected run, the step count, and a line saying which."""
    config = StudioConfig.from_dict(session.optimizer)
    index = min(config.selected, len(config.runs) - 1)
    run = config.runs[index]
    which = f"run {index + 1} of {len(config.runs)}" if len(config.runs) > 1 else "run"
    return run.optimizer, config.steps, f"{which}: {run.optimizer.label()}, {config.steps} steps"


def _num(value: float) -> str:
    return repr(float(value))


def optimizer_expr(framework: str, opt: OptimizerConfig, params: str) -> str:
    """The framework's optimizer with ``opt``'s hyper-parameters (``params``: torch's list)."""
    v, kind = opt.values, opt.kind
    lr = _num(v["learning_rate"])
    if kind in ("SGD", "Momentum", "Nesterov"):
        m, nesterov = _num(v.get("momentum", 0.0)), kind == "Nesterov"
        if framework == "tensorflow":
            return f"tf.keras.optimizers.SGD(learning_rate={lr}, momentum={m}, nesterov={nesterov})"
        if framework == "pytorch":
            return f"torch.optim.SGD({params}, lr={lr}, momentum={m}, nesterov={nesterov})"
        momentum = m if kind != "SGD" else "None"
        return f"optax.sgd({lr}, momentum={momentum}, nesterov={nesterov})"
    eps = _num(v["epsilon"])
    if kind == "Adam":
        b1, b2 = _num(v["beta_1"]), _num(v["beta_2"])
        if framework == "tensorflow":
            return (f"tf.keras.optimizers.Adam(learning_rate={lr}, beta_1={b1}, beta_2={b2}, "
                    f"epsilon={eps})")  # fmt: skip
        if framework == "pytorch":
            return f"torch.optim.Adam({params}, lr={lr}, betas=({b1}, {b2}), eps={eps})"
        return f"optax.adam({lr}, b1={b1}, b2={b2}, eps={eps})"
    if kind == "RMSprop":
        rho, m = _num(v["rho"]), _num(v["momentum"])
        if framework == "tensorflow":
            return (f"tf.keras.optimizers.RMSprop(learning_rate={lr}, rho={rho}, momentum={m}, "
                    f"epsilon={eps})")  # fmt: skip
        if framework == "pytorch":
            return f"torch.optim.RMSprop({params}, lr={lr}, alpha={rho}, eps={eps}, momentum={m})"
        momentum = m if v["momentum"] else "None"
        return (f"optax.rmsprop({lr}, decay={rho}, eps={eps}, eps_in_sqrt=False, "
                f"momentum={momentum})")  # fmt: skip
    acc = _num(v["initial_accumulator_value"])
    if framework == "tensorflow":
        return (f"tf.keras.optimizers.Adagrad(learning_rate={lr}, "
                f"initial_accumulator_value={acc}, epsilon={eps})")  # fmt: skip
    if framework == "pytorch":
        return f"torch.optim.Adagrad({params}, lr={lr}, initial_accumulator_value={acc}, eps={eps})"
    return f"optax.adagrad({lr}, initial_accumulator_value={acc}, eps={eps})"


def note(framework: str, opt: OptimizerConfig) -> list[str]:
    """The comment line about a difference from Keras, if any."""
    text = DIFFERENCES.get((framework, opt.kind))
    return [f"# Note: {text}."] if text else []


def tensorflow_loop(
    opt: OptimizerConfig, steps: int, trainable: list[str], expr: str, out: str, prefix: str = ""
) -> list[str]:
    """Lines training ``trainable`` with a Keras optimizer (tapeviz.tf runs them too).

    The loop's own names (``opt``, ``step``, ``tape``, ``grads``) start with ``prefix``.
    """
    params = f"[{', '.join(trainable)}]"
    o, tape, grads = f"{prefix}opt", f"{prefix}tape", f"{prefix}grads"
    return [
        f"{o} = {optimizer_expr('tensorflow', opt, params)}",
        f"for {prefix}step in range({steps}):",
        f"    with tf.GradientTape() as {tape}:",
        f"        {out} = {expr}",
        f"    {grads} = {tape}.gradient({out}, {params})",
        f"    {o}.apply_gradients(zip({grads}, {params}))",
        "",
        f'print("after {steps} steps: f =", ({expr}).numpy())',
        *[f'print("{n} =", {n}.numpy())' for n in trainable],
    ]


def pytorch_loop(
    opt: OptimizerConfig, steps: int, trainable: list[str], expr: str, out: str
) -> list[str]:
    """Lines training ``trainable`` with torch.optim."""
    return [
        f"opt = {optimizer_expr('pytorch', opt, '[' + ', '.join(trainable) + ']')}",
        f"for step in range({steps}):",
        "    opt.zero_grad()",
        f"    {out} = {expr}",
        f"    {out}.backward()",
        "    opt.step()",
        "",
        "with torch.no_grad():",
        f'    print("after {steps} steps: f =", ({expr}).numpy())',
        *[f'    print("{n} =", {n}.detach().numpy())' for n in trainable],
    ]


def jax_loop(
    opt: OptimizerConfig, steps: int, names: list[str], trainable: list[str], fn: str
) -> list[str]:
    """Lines training ``trainable`` (a tuple of arrays) with optax."""
    unpack = ", ".join(trainable) + ("," if len(trainable) == 1 else "")
    return [
        "",
        "",
        "def loss(params):",
        f"    {unpack} = params",
        f"    return {fn}({', '.join(names)})",
        "",
        "",
        f"opt = {optimizer_expr('jax', opt, '')}",
        f"params = ({unpack})",
        "state = opt.init(params)",
        "grad = jax.jit(jax.grad(loss))",
        f"for step in range({steps}):",
        "    updates, state = opt.update(grad(params), state, params)",
        "    params = optax.apply_updates(params, updates)",
        "",
        f'print("after {steps} steps: f =", loss(params))',
        *[f'print("{n} =", params[{i}])' for i, n in enumerate(trainable)],
    ]
