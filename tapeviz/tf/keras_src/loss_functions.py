"""Keras' loss functions (``keras.losses.mean_squared_error`` ...): per-sample values.

Each casts ``y_true`` to ``y_pred``'s dtype and matches their ranks, as Keras 3 does, and is
computed with recorded ops, so it is differentiable.
"""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.engine.tensor import Tensor, TensorLike
from tapeviz.tf.keras_src import backend

__all__ = [
    "binary_crossentropy", "categorical_crossentropy", "cosine_similarity", "hinge", "huber",
    "kl_divergence", "log_cosh", "match", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "poisson", "sparse_categorical_crossentropy",
]  # fmt: skip


def match(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
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
    yt, yp = match(y_true, y_pred)
    return E.reduce_mean(E.square(yp - yt), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(|y_true − y_pred|, axis=-1)``."""
    yt, yp = match(y_true, y_pred)
    return E.reduce_mean(E.abs(yp - yt), axis=-1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``100 · mean(|(y_true − y_pred) / y_true|, axis=-1)``."""
    yt, yp = match(y_true, y_pred)
    diff = E.abs((yt - yp) / E.maximum(E.abs(yt), backend.epsilon()))
    return 100.0 * E.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean((log(1 + y_pred) − log(1 + y_true))², axis=-1)``."""
    yt, yp = match(y_true, y_pred)
    eps = backend.epsilon()
    first = E.log(E.maximum(yp, eps) + 1.0)
    second = E.log(E.maximum(yt, eps) + 1.0)
    return E.reduce_mean(E.square(first - second), axis=-1)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Tensor:
    """Per sample: quadratic below ``delta``, linear above."""
    yt, yp = match(y_true, y_pred)
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
    yt, yp = match(y_true, y_pred)
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
    yt, yp = match(y_true, y_pred)
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
    yt, yp = match(y_true, y_pred)
    eps = backend.epsilon()
    yt = E.clip_by_value(yt, eps, 1.0)
    yp = E.clip_by_value(yp, eps, 1.0)
    return E.reduce_sum(yt * E.log(yt / yp), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Per sample: ``−cos(angle between y_true and y_pred)``."""
    yt, yp = match(y_true, y_pred)
    return -E.reduce_sum(E.l2_normalize(yt, axis=axis) * E.l2_normalize(yp, axis=axis), axis=axis)


def hinge(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(max(1 − y_true·y_pred, 0))`` (0/1 labels become −1/1)."""
    yt, yp = match(y_true, y_pred)
    yt = E.where(E.equal(yt, 0.0), -E.ones_like(yt), yt)
    return E.reduce_mean(E.relu(1.0 - yt * yp), axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(log(cosh(y_pred − y_true)))``."""
    yt, yp = match(y_true, y_pred)
    x = yp - yt
    return E.reduce_mean(x + E.softplus(-2.0 * x) - 0.6931471805599453, axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Tensor:
    """Per sample: ``mean(y_pred − y_true · log(y_pred))``."""
    yt, yp = match(y_true, y_pred)
    return E.reduce_mean(yp - yt * E.log(yp + backend.epsilon()), axis=-1)
