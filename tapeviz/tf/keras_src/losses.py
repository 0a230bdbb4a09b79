"""``keras.losses``: loss classes and functions, computed with recorded ops (differentiable).

A loss object reduces the per-sample values with Keras 3's default, ``"sum_over_batch_size"``
(the mean over every element), and casts ``y_true`` to ``y_pred``'s dtype. The functions
(``keras.losses.mean_squared_error``) return the per-sample values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapeviz import engine as E
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import Tensor, TensorLike
from tapeviz.tf.keras_src import backend

__all__ = ["LOSSES", "Loss", "get"]


def _pair(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
    """Tensors of y_pred's float dtype, ranks matched (a trailing size-1 axis squeezed)."""
    yp = y_pred if isinstance(y_pred, TensorLike) else E.convert_to_tensor(y_pred)
    if not yp.dtype.is_floating:
        yp = E.cast(yp, backend.default_float())
    yt = y_true if isinstance(y_true, TensorLike) else E.constant(y_true)
    if yt.dtype is not yp.dtype:
        yt = E.cast(yt, yp.dtype)
    rt, rp = len(yt.shape), len(yp.shape)
    if rt == rp + 1 and yt.shape[-1] == 1:
        yt = E.squeeze(yt, -1)
    elif rp == rt + 1 and yp.shape[-1] == 1:
        yp = E.squeeze(yp, -1)
    return yt, yp


def mean_squared_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean((y_true − y_pred)², axis=-1)``."""
    yt, yp = _pair(y_true, y_pred)
    return E.reduce_mean(E.square(yp - yt), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(|y_true − y_pred|, axis=-1)``."""
    yt, yp = _pair(y_true, y_pred)
    return E.reduce_mean(E.abs(yp - yt), axis=-1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``100 · mean(|(y_true − y_pred) / y_true|, axis=-1)``."""
    yt, yp = _pair(y_true, y_pred)
    diff = E.abs((yt - yp) / E.maximum(E.abs(yt), backend.epsilon()))
    return 100.0 * E.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean((log(1 + y_pred) − log(1 + y_true))², axis=-1)``."""
    yt, yp = _pair(y_true, y_pred)
    eps = backend.epsilon()
    first = E.log(E.maximum(yp, eps) + 1.0)
    second = E.log(E.maximum(yt, eps) + 1.0)
    return E.reduce_mean(E.square(first - second), axis=-1)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Tensor:
    """Per sample: quadratic below ``delta``, linear above."""
    yt, yp = _pair(y_true, y_pred)
    err = E.abs(yp - yt)
    quad = 0.5 * E.square(err)
    lin = delta * err - 0.5 * delta * delta
    return E.reduce_mean(E.where(E.less_equal(err, delta), quad, lin), axis=-1)


def binary_crossentropy(
    y_true: Any,
    y_pred: Any,
    from_logits: bool = False,
    label_smoothing: float = 0.0,
    axis: int = -1,
) -> Tensor:
    """Per sample: the mean over ``axis`` of the elementwise binary cross-entropy."""
    yt, yp = _pair(y_true, y_pred)
    if label_smoothing:
        yt = yt * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        bce = E.sigmoid_cross_entropy_with_logits(labels=yt, logits=yp)
    else:
        eps = backend.epsilon()
        p = E.clip_by_value(yp, eps, 1.0 - eps)
        bce = -(yt * E.log(p) + (1.0 - yt) * E.log(1.0 - p))
    return E.reduce_mean(bce, axis=axis)


def categorical_crossentropy(
    y_true: Any,
    y_pred: Any,
    from_logits: bool = False,
    label_smoothing: float = 0.0,
    axis: int = -1,
) -> Tensor:
    """Per sample: ``−Σ y_true · log(y_pred)`` over ``axis`` (one-hot labels)."""
    yt, yp = _pair(y_true, y_pred)
    if label_smoothing:
        n = yp.shape[axis]
        yt = yt * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        return E.softmax_cross_entropy_with_logits(labels=yt, logits=yp, axis=axis)
    eps = backend.epsilon()
    p = yp / E.reduce_sum(yp, axis=axis, keepdims=True)
    p = E.clip_by_value(p, eps, 1.0 - eps)
    return -E.reduce_sum(yt * E.log(p), axis=axis)


def sparse_categorical_crossentropy(
    y_true: Any,
    y_pred: Any,
    from_logits: bool = False,
    ignore_class: int | None = None,
    axis: int = -1,
) -> Tensor:
    """Per sample: ``−log(y_pred[label])`` for integer class labels."""
    yp = y_pred if isinstance(y_pred, TensorLike) else E.convert_to_tensor(y_pred)
    labels = y_true if isinstance(y_true, TensorLike) else E.constant(y_true)
    if len(labels.shape) == len(yp.shape) and labels.shape and labels.shape[-1] == 1:
        labels = E.squeeze(labels, -1)
    if not labels.dtype.is_integer:
        labels = E.cast(labels, "int64")
    if from_logits:
        return E.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=yp)
    eps = backend.epsilon()
    p = E.clip_by_value(yp / E.reduce_sum(yp, axis=-1, keepdims=True), eps, 1.0 - eps)
    return E.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=E.log(p))


def kl_divergence(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``Σ y_true · log(y_true / y_pred)``."""
    yt, yp = _pair(y_true, y_pred)
    eps = backend.epsilon()
    yt = E.clip_by_value(yt, eps, 1.0)
    yp = E.clip_by_value(yp, eps, 1.0)
    return E.reduce_sum(yt * E.log(yt / yp), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Per sample: ``−cos(angle between y_true and y_pred)``."""
    yt, yp = _pair(y_true, y_pred)
    return -E.reduce_sum(E.l2_normalize(yt, axis=axis) * E.l2_normalize(yp, axis=axis), axis=axis)


def hinge(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(max(1 − y_true·y_pred, 0))`` (0/1 labels become −1/1)."""
    yt, yp = _pair(y_true, y_pred)
    yt = E.where(E.equal(yt, 0.0), -E.ones_like(yt), yt)
    return E.reduce_mean(E.relu(1.0 - yt * yp), axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(log(cosh(y_pred − y_true)))``."""
    yt, yp = _pair(y_true, y_pred)
    x = yp - yt
    return E.reduce_mean(x + E.softplus(-2.0 * x) - 0.6931471805599453, axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(y_pred − y_true · log(y_pred))``."""
    yt, yp = _pair(y_true, y_pred)
    return E.reduce_mean(yp - yt * E.log(yp + backend.epsilon()), axis=-1)


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` is a scalar."""

    fn: Callable[..., Tensor] = staticmethod(mean_squared_error)
    default_name = "loss"

    def __init__(
        self,
        name: str | None = None,
        reduction: str = "sum_over_batch_size",
        dtype: Any = None,
        **fn_kwargs: Any,
    ) -> None:
        if reduction not in ("sum_over_batch_size", "sum", "none", "mean", None):
            raise ValueError(
                "Invalid value for argument `reduction`. Expected one of {'sum', "
                "'sum_over_batch_size', 'none', 'mean'}. Received: "
                f"reduction={reduction!r}"
            )
        self.name = name or self.default_name
        self.reduction = reduction
        self.dtype = dtype
        self._fn_kwargs = fn_kwargs

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The per-sample losses."""
        return type(self).fn(y_true, y_pred, **self._fn_kwargs)

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Tensor:
        values = self.call(y_true, y_pred)
        if sample_weight is not None:
            w = (
                E.constant(sample_weight)
                if not isinstance(sample_weight, TensorLike)
                else (sample_weight)
            )
            w = E.cast(w, values.dtype) if w.dtype is not values.dtype else w
            if len(w.shape) > len(values.shape):
                w = E.reshape(w, tuple(values.shape))
            values = values * w
        if self.reduction in ("none", None):
            return values
        total = E.reduce_sum(values)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean":
            return E.reduce_mean(values)
        n = max(1, int(E.size(values).numpy()))
        return total / float(n)

    def get_config(self) -> dict[str, Any]:
        """Name, reduction and the loss' own arguments."""
        return {"name": self.name, "reduction": self.reduction, **self._fn_kwargs}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


def _loss_class(cls_name: str, name: str, fn: Callable[..., Tensor]) -> type:
    doc = f"``{name}`` as a loss object (reduced over the batch)."
    return type(cls_name, (Loss,), {"fn": staticmethod(fn), "default_name": name, "__doc__": doc})


MeanSquaredError = _loss_class("MeanSquaredError", "mean_squared_error", mean_squared_error)
MeanAbsoluteError = _loss_class("MeanAbsoluteError", "mean_absolute_error", mean_absolute_error)
MeanAbsolutePercentageError = _loss_class(
    "MeanAbsolutePercentageError", "mean_absolute_percentage_error",
    mean_absolute_percentage_error,
)  # fmt: skip
MeanSquaredLogarithmicError = _loss_class(
    "MeanSquaredLogarithmicError", "mean_squared_logarithmic_error",
    mean_squared_logarithmic_error,
)  # fmt: skip
KLDivergence = _loss_class("KLDivergence", "kl_divergence", kl_divergence)
Hinge = _loss_class("Hinge", "hinge", hinge)
LogCosh = _loss_class("LogCosh", "log_cosh", log_cosh)
Poisson = _loss_class("Poisson", "poisson", poisson)


class Huber(Loss):
    """The Huber loss: quadratic within ``delta`` of the target, linear beyond."""

    fn = staticmethod(huber)
    default_name = "huber_loss"

    def __init__(
        self,
        delta: float = 1.0,
        reduction: str = "sum_over_batch_size",
        name: str = "huber_loss",
        dtype: Any = None,
    ) -> None:
        super().__init__(name, reduction, dtype, delta=delta)


class CosineSimilarity(Loss):
    """Minus the cosine similarity along ``axis``."""

    fn = staticmethod(cosine_similarity)
    default_name = "cosine_similarity"

    def __init__(
        self,
        axis: int = -1,
        reduction: str = "sum_over_batch_size",
        name: str = "cosine_similarity",
        dtype: Any = None,
    ) -> None:
        super().__init__(name, reduction, dtype, axis=axis)


class BinaryCrossentropy(Loss):
    """Binary cross-entropy of probabilities (or of logits with ``from_logits=True``)."""

    fn = staticmethod(binary_crossentropy)
    default_name = "binary_crossentropy"

    def __init__(
        self,
        from_logits: bool = False,
        label_smoothing: float = 0.0,
        axis: int = -1,
        reduction: str = "sum_over_batch_size",
        name: str = "binary_crossentropy",
        dtype: Any = None,
    ) -> None:
        super().__init__(
            name,
            reduction,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class CategoricalCrossentropy(Loss):
    """Cross-entropy of one-hot labels and class probabilities (or logits)."""

    fn = staticmethod(categorical_crossentropy)
    default_name = "categorical_crossentropy"

    def __init__(
        self,
        from_logits: bool = False,
        label_smoothing: float = 0.0,
        axis: int = -1,
        reduction: str = "sum_over_batch_size",
        name: str = "categorical_crossentropy",
        dtype: Any = None,
    ) -> None:
        super().__init__(
            name,
            reduction,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy of integer class labels and class probabilities (or logits)."""

    fn = staticmethod(sparse_categorical_crossentropy)
    default_name = "sparse_categorical_crossentropy"

    def __init__(
        self,
        from_logits: bool = False,
        ignore_class: int | None = None,
        reduction: str = "sum_over_batch_size",
        name: str = "sparse_categorical_crossentropy",
        dtype: Any = None,
    ) -> None:
        if ignore_class is not None:
            raise InvalidArgumentError("ignore_class is not available in tapeviz", "losses")
        super().__init__(name, reduction, dtype, from_logits=from_logits)
        self.from_logits = from_logits


LOSSES: dict[str, Any] = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "MSE": mean_squared_error, "mean_absolute_error": mean_absolute_error,
    "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error,
    "mape": mean_absolute_percentage_error, "MAPE": mean_absolute_percentage_error,
    "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
    "msle": mean_squared_logarithmic_error, "MSLE": mean_squared_logarithmic_error,
    "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "kl_divergence": kl_divergence, "kld": kl_divergence, "KLD": kl_divergence,
    "huber": huber, "cosine_similarity": cosine_similarity, "hinge": hinge,
    "log_cosh": log_cosh, "logcosh": log_cosh, "poisson": poisson,
}  # fmt: skip
_CLASS_FOR: dict[Any, type] = {
    mean_squared_error: MeanSquaredError, mean_absolute_error: MeanAbsoluteError,
    mean_absolute_percentage_error: MeanAbsolutePercentageError,
    mean_squared_logarithmic_error: MeanSquaredLogarithmicError,
    binary_crossentropy: BinaryCrossentropy, categorical_crossentropy: CategoricalCrossentropy,
    sparse_categorical_crossentropy: SparseCategoricalCrossentropy, kl_divergence: KLDivergence,
    huber: Huber, cosine_similarity: CosineSimilarity, hinge: Hinge, log_cosh: LogCosh,
    poisson: Poisson,
}  # fmt: skip


def get(identifier: Any) -> Any:
    """A loss function by name (``"mse"``), or the loss object or function itself."""
    if identifier is None or isinstance(identifier, Loss) or callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in LOSSES:
        return LOSSES[identifier]
    raise InvalidArgumentError(f"Could not interpret loss identifier: {identifier}", "losses")


def as_loss_object(identifier: Any) -> Loss | Callable[..., Any]:
    """What compile() keeps: a Loss object for names and built-in functions."""
    fn = get(identifier)
    cls = _CLASS_FOR.get(fn)
    if cls is not None:
        obj = cls()
        if isinstance(identifier, str):
            obj.name = identifier if identifier in LOSSES else obj.name
        return obj
    return fn
