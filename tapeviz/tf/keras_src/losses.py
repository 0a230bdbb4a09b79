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
from tapeviz.tf.keras_src.loss_functions import (
    binary_crossentropy,
    categorical_crossentropy,
    cosine_similarity,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    match,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    poisson,
    sparse_categorical_crossentropy,
)

__all__ = ["LOSSES", "Loss", "LossFunctionWrapper", "get"]


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


class _Crossentropy(Loss):
    """Binary and categorical cross-entropy take the same arguments (Keras's signature)."""

    def __init__(
        self,
        from_logits: bool = False,
        label_smoothing: float = 0.0,
        axis: int = -1,
        reduction: str = "sum_over_batch_size",
        name: str | None = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            name,  # Loss falls back to default_name
            reduction,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class BinaryCrossentropy(_Crossentropy):
    """Binary cross-entropy of probabilities (or of logits with ``from_logits=True``)."""

    fn = staticmethod(binary_crossentropy)
    default_name = "binary_crossentropy"


class CategoricalCrossentropy(_Crossentropy):
    """Cross-entropy of one-hot labels and class probabilities (or logits)."""

    fn = staticmethod(categorical_crossentropy)
    default_name = "categorical_crossentropy"


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


class LossFunctionWrapper(Loss):
    """A loss function as a loss object: y_true cast to y_pred's dtype, ranks matched, mean."""

    def __init__(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        reduction: str = "sum_over_batch_size",
        **kwargs: Any,
    ) -> None:
        super().__init__(name or getattr(fn, "__name__", "loss"), reduction, **kwargs)
        self._user_fn = fn

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The function on matched tensors."""
        yt, yp = match(y_true, y_pred)
        return self._user_fn(yt, yp, **self._fn_kwargs)


def as_loss_object(identifier: Any) -> Loss:
    """What compile() keeps: a Loss object (built-in ones by name, functions wrapped)."""
    fn = get(identifier)
    if isinstance(fn, Loss):
        return fn
    cls = _CLASS_FOR.get(fn)
    if cls is not None:
        obj = cls()
        if isinstance(identifier, str):
            obj.name = identifier if identifier in LOSSES else obj.name
        return obj
    return LossFunctionWrapper(fn)
