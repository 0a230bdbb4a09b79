"""``compile`` for models with several outputs: a loss (and metrics) per output, as Keras 3.

``loss`` may be one loss (used for every output), a list (one per output, ``None`` for an
output without a loss) or a dict by output name (the output layer's name); ``loss_weights``
likewise. Targets come as a list in the outputs' order, a list for the outputs that have a
loss, or a dict by output name. The total is the weighted sum; with more than one loss each
output's unweighted loss is tracked too (``class_output_loss``), as Keras 3 logs it.
``metrics`` may be a list of lists or a dict of lists by output name; each metric is logged as
``<output>_<metric>`` (``class_output_categorical_accuracy``).
"""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.engine import nest
from tapeviz.tf.keras_src import losses as loss_mod
from tapeviz.tf.keras_src import metrics as metric_mod

__all__ = ["OutputLosses", "OutputMetrics", "is_per_output", "output_names"]


def output_names(model: Any) -> list[str]:
    """The names of a model's outputs: the layers that make them (Keras 3's ``output_names``)."""
    outs = model.__dict__.get("_graph_outputs") or []
    names = []
    for t in outs:
        node = getattr(t, "_node", None)
        names.append(node.layer.name if node is not None else t.name)
    return names


def is_per_output(model: Any, loss: Any, metrics: Any) -> bool:
    """Whether compile() needs a loss per output (several outputs, or losses by output)."""
    return (
        len(output_names(model)) > 1
        or isinstance(loss, dict)
        or (isinstance(loss, list | tuple) and not callable(loss))
        or isinstance(metrics, dict)
    )


def _by_output(value: Any, names: list[str], what: str, fill: Any = None) -> list[Any]:
    """``value`` as one entry per output: a dict by name, a list in order, or one for all."""
    n = len(names)
    if isinstance(value, dict):
        unknown = [k for k in value if k not in names]
        if unknown:
            raise ValueError(
                f"In the dict argument `{what}`, key '{unknown[0]}' does not correspond to any "
                f"model output. Received:\n{what}={value}"
            )
        return [value.get(name, fill) for name in names]
    if isinstance(value, list | tuple):
        if len(value) != n:
            raise ValueError(
                f"For a model with multiple outputs, when providing the `{what}` argument as a "
                f"list, it should have as many entries as the model has outputs. Received:\n"
                f"{what}={value}\nof length {len(value)} whereas the model has {n} outputs."
            )
        return list(value)
    return [value] * n


class OutputLosses:
    """The compiled loss of a multi-output model: ``(y_true, y_pred, sample_weight) -> total``."""

    def __init__(self, loss: Any, loss_weights: Any, names: list[str]) -> None:
        self.names = list(names) or ["output"]
        self._user_loss = loss
        per_output = _by_output(loss, self.names, "loss")
        self.losses = [None if x is None else loss_mod.as_loss_object(x) for x in per_output]
        weights = _by_output(loss_weights, self.names, "loss_weights", 1.0)
        self.weights = [1.0 if w is None else float(w) for w in weights]
        used = [i for i, x in enumerate(self.losses) if x is not None]
        self.trackers: list[Any] = []
        if len(used) > 1:  # Keras 3 logs each output's own (unweighted) loss
            self.trackers = [metric_mod.Mean(name=f"{self.names[i]}_loss") for i in used]
        self.name = "compile_loss"

    def _targets(self, y_true: Any) -> list[Any]:
        n = len(self.names)
        if isinstance(y_true, dict):
            return [y_true.get(name) for name in self.names]
        if isinstance(y_true, list | tuple):
            flat = list(y_true)
            if len(flat) == n:
                return flat
            used = [i for i, x in enumerate(self.losses) if x is not None]
            if len(flat) == len(used):
                out: list[Any] = [None] * n
                for i, y in zip(used, flat, strict=True):
                    out[i] = y
                return out
            raise ValueError(
                f"y_true has {len(flat)} entries but the model has {n} outputs "
                f"({', '.join(self.names)})"
            )
        return [y_true] + [None] * (n - 1)

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        preds = nest.flatten(y_pred) if isinstance(y_pred, list | tuple | dict) else [y_pred]
        targets = self._targets(y_true)
        total: Any = None
        k = 0
        for i, loss in enumerate(self.losses):
            if loss is None:
                continue
            if targets[i] is None:
                raise ValueError(f"No target (y) given for the output '{self.names[i]}'")
            sw = sample_weight[i] if isinstance(sample_weight, list | tuple) else sample_weight
            value = loss(targets[i], preds[i], sw)
            if self.trackers:
                size = int(preds[i].shape[0]) if preds[i].shape else 1
                self.trackers[k].update_state(value, sample_weight=size)
                k += 1
            if self.weights[i] != 1.0:
                value = value * E.constant(self.weights[i], dtype=value.dtype)
            total = value if total is None else total + value
        return total


class OutputMetrics(metric_mod.Metric):
    """The compiled metrics of a multi-output model, logged as ``<output>_<metric>``."""

    def __init__(self, metrics: Any, names: list[str], losses: OutputLosses) -> None:
        super().__init__("compile_metrics")
        self.names, self._losses = list(names), losses
        per_output = _by_output(metrics, self.names, "metrics") if metrics else []
        self._ids = [[] if m is None else list(m) if isinstance(m, list | tuple) else [m]
                     for m in per_output]  # fmt: skip
        self._built: list[list[Any]] = []

    @property
    def metrics(self) -> list[Any]:  # type: ignore[override]
        """Every output's metrics, in order."""
        return [m for group in self._built for m in group]

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update each output's metrics with its targets and predictions."""
        preds = nest.flatten(y_pred) if isinstance(y_pred, list | tuple | dict) else [y_pred]
        targets = self._losses._targets(y_true)
        if not self._built:
            for i, ids in enumerate(self._ids):
                loss = self._losses.losses[i]
                name = getattr(loss, "name", "")
                self._built.append([metric_mod.for_compile(m, name, targets[i], preds[i])
                                    for m in ids])  # fmt: skip
        for i, group in enumerate(self._built):
            for m in group:
                m.update_state(targets[i], preds[i], sample_weight)

    def result(self) -> dict[str, Any]:  # type: ignore[override]
        """Each metric's value by ``<output>_<metric>``."""
        out: dict[str, Any] = {}
        for name, group in zip(self.names, self._built, strict=False):
            for m in group:
                out[f"{name}_{m.name}"] = m.result()
        return out

    def reset_state(self) -> None:
        """Reset every output's metrics."""
        for m in self.metrics:
            m.reset_state()
