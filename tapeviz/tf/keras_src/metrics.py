"""``keras.metrics``: running statistics (Mean, accuracies, MSE/MAE) over batches.

A metric keeps its state in non-trainable variables (``metric.variables``) and updates them
with numpy, so updating one inside a GradientTape records nothing. ``result()`` is a float32
scalar tensor, as in Keras.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.keras_variable import KerasVariable
from tapeviz.engine.tensor import Tensor, TensorLike, constant
from tapeviz.tf.keras_src import backend, loss_functions

__all__ = ["METRICS", "Metric", "get"]


def _np(x: Any) -> np.ndarray:
    return np.asarray(x._value if isinstance(x, TensorLike) else x, dtype=np.float64)


def _same_rank(x1: np.ndarray, x2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keras' ``squeeze_or_expand_to_same_rank``: a trailing 1 is squeezed or added."""
    if x1.ndim == x2.ndim + 1 and x1.shape[-1] == 1:
        if x2.ndim == 1:
            x2 = x2[..., None]
        else:
            x1 = x1[..., 0]
    if x2.ndim == x1.ndim + 1 and x2.shape[-1] == 1:
        if x1.ndim == 1:
            x1 = x1[..., None]
        else:
            x2 = x2[..., 0]
    return x1, x2


def samplewise(v: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Keras 3's ``reduce_to_samplewise_values``: per-sample means, weighted, and the weights."""
    if w is not None:
        v, w = _same_rank(v, w)
        v_ndim, w_ndim = v.ndim, w.ndim
        if v_ndim > w_ndim:
            v = v.mean(axis=tuple(range(w_ndim, v_ndim)))
        try:
            w = np.broadcast_to(w, v.shape)
        except ValueError:
            raise InvalidArgumentError(
                f"sample_weight of shape {w.shape} does not broadcast to the values' shape "
                f"{v.shape}",
                "update_state",
            ) from None
        v = v * w
        if v_ndim > 1:
            w = w.mean(axis=tuple(range(1, w_ndim)))
    if v.ndim > 1:
        v = v.mean(axis=tuple(range(1, v.ndim)))
    return v, w


class Metric:
    """Base class: ``update_state(...)``, ``result()``, ``reset_state()``; calling updates."""

    default_name = "metric"

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        self.name = name or self.default_name
        self.dtype = dtype or "float32"
        self._variables: list[KerasVariable] = []

    def add_variable(
        self,
        shape: Any = (),
        initializer: Any = "zeros",
        dtype: Any = None,
        name: str | None = None,
    ) -> KerasVariable:
        """A state variable (non-trainable, zeros), under ``name/`` as in Keras."""
        value = np.zeros(tuple(shape), dtype=np.dtype(dtype or self.dtype))
        v = KerasVariable(
            value,
            trainable=False,
            name=name or "variable",
            path=f"{self.name}/{name or 'variable'}",
        )
        self._variables.append(v)
        return v

    @property
    def variables(self) -> list[KerasVariable]:
        """The state variables."""
        return list(self._variables)

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        """Add a batch to the running state."""
        raise NotImplementedError

    def result(self) -> Tensor:
        """The metric's value so far."""
        raise NotImplementedError

    def reset_state(self) -> None:
        """Zero the state."""
        for v in self._variables:
            v.assign(np.zeros(tuple(v.shape), dtype=v.dtype.np))

    def __call__(self, *args: Any, **kwargs: Any) -> Tensor:
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict[str, Any]:
        """Name and dtype."""
        return {"name": self.name, "dtype": self.dtype}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


class Mean(Metric):
    """The (weighted) mean of the values given to ``update_state``."""

    default_name = "mean"

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        """Add ``values`` (weighted by ``sample_weight``) to the mean."""
        v, w = samplewise(_np(values), None if sample_weight is None else _np(sample_weight))
        total = float(np.sum(v))
        count = float(np.sum(w)) if w is not None else float(v.shape[0] if v.ndim else 1)
        self.total.assign(np.float32(float(self.total._value) + total))
        self.count.assign(np.float32(float(self.count._value) + count))

    def result(self) -> Tensor:
        """``total / count`` (0 before any update)."""
        count = float(self.count._value)
        return constant(np.float32(float(self.total._value) / count if count else 0.0))


class Sum(Metric):
    """The running sum of the values given."""

    default_name = "sum"

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        """Add the values."""
        v = _np(values) * (1.0 if sample_weight is None else _np(sample_weight))
        self.total.assign(np.float32(float(self.total._value) + float(np.sum(v))))

    def result(self) -> Tensor:
        """The sum."""
        return constant(np.float32(self.total._value))


class MeanMetricWrapper(Mean):
    """The mean over samples of ``fn(y_true, y_pred)`` (accuracies, errors)."""

    def __init__(
        self, fn: Callable[..., Any], name: str | None = None, dtype: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(name, dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Add the batch's per-sample values."""
        super().update_state(self._fn(_np(y_true), _np(y_pred), **self._fn_kwargs), sample_weight)


def _match(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if y_true.ndim == y_pred.ndim + 1 and y_true.shape[-1] == 1:
        y_true = y_true[..., 0]
    elif y_pred.ndim == y_true.ndim + 1 and y_pred.shape[-1] == 1:
        y_pred = y_pred[..., 0]
    return y_true, y_pred


def accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """1 where the prediction equals the label."""
    y_true, y_pred = _match(y_true, y_pred)
    return (y_true == y_pred).astype(np.float64)


def binary_accuracy(y_true: np.ndarray, y_pred: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Per sample: the mean of ``(y_pred > threshold) == y_true``."""
    y_true, y_pred = _match(y_true, y_pred)
    hits = (y_true == (y_pred > threshold)).astype(np.float64)
    return hits.mean(axis=-1) if hits.ndim > 1 else hits


def categorical_accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """1 where the largest prediction is at the one-hot label."""
    return (np.argmax(y_true, axis=-1) == np.argmax(y_pred, axis=-1)).astype(np.float64)


def sparse_categorical_accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """1 where the largest prediction is at the integer label."""
    if y_true.ndim == y_pred.ndim and y_true.shape[-1:] == (1,):
        y_true = y_true[..., 0]
    return (y_true.astype(np.int64) == np.argmax(y_pred, axis=-1)).astype(np.float64)


def top_k_categorical_accuracy(y_true: np.ndarray, y_pred: np.ndarray, k: int = 5) -> np.ndarray:
    """1 where the one-hot label is among the ``k`` largest predictions."""
    top = np.argsort(-y_pred, axis=-1, kind="stable")[..., :k]
    return (top == np.argmax(y_true, axis=-1)[..., None]).any(axis=-1).astype(np.float64)


def _errors(kind: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
        y_true, y_pred = _match(y_true, y_pred)
        d = y_pred - y_true
        if kind == "mse":
            e = d * d
        elif kind == "mae":
            e = np.abs(d)
        else:  # mape
            e = 100.0 * np.abs(d / np.maximum(np.abs(y_true), backend.epsilon()))
        return e.mean(axis=-1) if e.ndim > 1 else e

    return fn


def _crossentropy(kind: str) -> Callable[..., np.ndarray]:
    """The per-sample cross-entropy loss ``kind`` on arrays (labels cast to the predictions')."""
    loss = getattr(loss_functions, kind)

    def fn(y_true: np.ndarray, y_pred: np.ndarray, **kw: Any) -> np.ndarray:
        p = np.asarray(y_pred)
        t = np.asarray(y_true) if kind.startswith("sparse") else np.asarray(y_true, p.dtype)
        return _np(loss(constant(t), constant(p), **kw))

    fn.__name__ = kind
    return fn


def _wrapper(cls_name: str, name: str, fn: Callable[..., Any]) -> type:
    def init(self: MeanMetricWrapper, name: str = name, dtype: Any = None, **kw: Any) -> None:
        MeanMetricWrapper.__init__(self, fn, name, dtype, **kw)

    doc = f"The mean of ``{fn.__name__}`` over the samples seen."
    return type(
        cls_name, (MeanMetricWrapper,), {"__init__": init, "__doc__": doc, "default_name": name}
    )


Accuracy = _wrapper("Accuracy", "accuracy", accuracy)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", "categorical_accuracy", categorical_accuracy)
SparseCategoricalAccuracy = _wrapper(
    "SparseCategoricalAccuracy", "sparse_categorical_accuracy", sparse_categorical_accuracy
)
MeanSquaredError = _wrapper("MeanSquaredError", "mean_squared_error", _errors("mse"))
MeanAbsoluteError = _wrapper("MeanAbsoluteError", "mean_absolute_error", _errors("mae"))
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", "mean_absolute_percentage_error", _errors("mape")
)
BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy = (
    _wrapper(cls, kind, _crossentropy(kind))  # from_logits=, label_smoothing=, axis= as Keras'
    for cls, kind in (
        ("BinaryCrossentropy", "binary_crossentropy"),
        ("CategoricalCrossentropy", "categorical_crossentropy"),
        ("SparseCategoricalCrossentropy", "sparse_categorical_crossentropy"),
    )
)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``(y_pred > threshold)`` equals the 0/1 label."""

    default_name = "binary_accuracy"

    def __init__(self, name: str = "binary_accuracy", dtype: Any = None, threshold: float = 0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the label is among the ``k`` top predictions."""

    default_name = "top_k_categorical_accuracy"

    def __init__(self, k: int = 5, name: str = "top_k_categorical_accuracy", dtype: Any = None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class RootMeanSquaredError(Mean):
    """``sqrt(mean((y_true − y_pred)²))`` over every value seen."""

    default_name = "root_mean_squared_error"

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:  # type: ignore[override]
        """Add the batch's squared errors."""
        t, p = _match(_np(y_true), _np(y_pred))
        super().update_state((p - t) ** 2, sample_weight)

    def result(self) -> Tensor:
        """The root of the mean squared error."""
        return constant(np.float32(np.sqrt(float(super().result().numpy()))))


METRICS: dict[str, Any] = {
    "accuracy": Accuracy, "acc": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "top_k_categorical_accuracy": TopKCategoricalAccuracy,
    "mean_squared_error": MeanSquaredError, "mse": MeanSquaredError,
    "mean_absolute_error": MeanAbsoluteError, "mae": MeanAbsoluteError,
    "mean_absolute_percentage_error": MeanAbsolutePercentageError,
    "mape": MeanAbsolutePercentageError, "root_mean_squared_error": RootMeanSquaredError,
}  # fmt: skip


def get(identifier: Any) -> Any:
    """A metric from a name (``"mae"``, ``"precision"``), a class or an instance."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if isinstance(identifier, str) and identifier in METRICS:
        return METRICS[identifier](name=identifier)
    if callable(identifier):
        return MeanMetricWrapper(
            lambda t, p: _np(identifier(constant(t), constant(p))),
            name=getattr(identifier, "__name__", "metric"),
        )
    raise InvalidArgumentError(f"Could not interpret metric identifier: {identifier}", "metrics")


def for_compile(identifier: Any, loss_name: str, y_true: Any, y_pred: Any) -> Metric:
    """A compiled metric: ``"accuracy"`` picks binary, categorical or sparse as Keras does."""
    if identifier in ("accuracy", "acc"):
        t, p = _np(y_true), _np(y_pred)
        if "binary" in loss_name or (p.ndim and p.shape[-1] == 1):
            return BinaryAccuracy(name=identifier)
        if "sparse" in loss_name or t.ndim < p.ndim or (t.ndim == p.ndim and t.shape[-1] == 1):
            return SparseCategoricalAccuracy(name=identifier)
        return CategoricalAccuracy(name=identifier)
    return get(identifier)
