"""Keras 3 as ``tf.keras`` (and what a script's ``import keras`` should give): :data:`KERAS`.

Layers, models (Sequential, functional and subclassed), compile/fit/evaluate/predict, losses,
metrics, optimizers, activations, initializers, regularizers and callbacks, all over the
tapeviz engine; saving (``model.save``, ``keras.saving``, ``ModelCheckpoint``) writes to the
run's own folder (:mod:`tapeviz.tf.run_files`); downloads (datasets) raise
``NotAvailableInTapeviz``.
"""

from __future__ import annotations

from tapeviz.engine import optimizers as _opt
from tapeviz.engine import schedules as _schedules
from tapeviz.engine.keras_variable import KerasVariable
from tapeviz.engine.namespace import Namespace
from tapeviz.tf.keras_src import activations as _act
from tapeviz.tf.keras_src import backend as _backend
from tapeviz.tf.keras_src import callbacks as _cb
from tapeviz.tf.keras_src import conv_layers as _conv
from tapeviz.tf.keras_src import core_layers as _core
from tapeviz.tf.keras_src import functional_config as _functional_config  # noqa: F401 (saving)
from tapeviz.tf.keras_src import initializers as _init
from tapeviz.tf.keras_src import legacy_backend as _legacy
from tapeviz.tf.keras_src import losses as _losses
from tapeviz.tf.keras_src import metrics as _metrics
from tapeviz.tf.keras_src import metrics_confusion as _confusion
from tapeviz.tf.keras_src import normalization as _norm
from tapeviz.tf.keras_src import object_registration as _reg_objects
from tapeviz.tf.keras_src import regularizers as _reg
from tapeviz.tf.keras_src import rnn_layers as _rnn
from tapeviz.tf.keras_src import saving as _saving
from tapeviz.tf.keras_src import serialization as _ser
from tapeviz.tf.keras_src import spatial_layers as _spatial
from tapeviz.tf.keras_src import utils as _utils
from tapeviz.tf.keras_src.functional import Input, InputLayer, KerasTensor
from tapeviz.tf.keras_src.layer import InputSpec, Layer
from tapeviz.tf.keras_src.model_checkpoint import ModelCheckpoint
from tapeviz.tf.keras_src.models import Functional, Model, Sequential
from tapeviz.tf.unavailable import KERAS_DATASETS, unavailable_namespace

__all__ = ["KERAS", "VERSION"]

VERSION = "3.15.1+tapeviz"


def _public(module: object, names: list[str]) -> dict[str, object]:
    return {n: getattr(module, n) for n in names}


LAYERS = Namespace(
    "tf.keras.layers",
    {
        "Layer": Layer, "InputLayer": InputLayer, "Input": Input, "InputSpec": InputSpec,
        **_public(_core, _core.__all__),
        **_public(_conv, _conv.__all__), **_conv.ALIASES, **_public(_spatial, _spatial.__all__),
        **_public(_rnn, _rnn.__all__), "BatchNormalization": _norm.BatchNormalization,
        "LayerNormalization": _norm.LayerNormalization, "Normalization": _norm.Normalization,
        "add": lambda inputs, **kw: _core.Add(**kw)(inputs),
        "concatenate": lambda inputs, axis=-1, **kw: _core.Concatenate(axis=axis, **kw)(inputs),
        "multiply": lambda inputs, **kw: _core.Multiply(**kw)(inputs),
        "average": lambda inputs, **kw: _core.Average(**kw)(inputs),
        "subtract": lambda inputs, **kw: _core.Subtract(**kw)(inputs),
    },
)  # fmt: skip
SAVING = Namespace(
    "tf.keras.saving",
    {"save_model": _saving.save_model, "load_model": _saving.load_model,
     "save_weights": _saving.save_weights, "load_weights": _saving.load_weights,
     "register_keras_serializable": _reg_objects.register_keras_serializable,
     "get_registered_name": _reg_objects.get_registered_name,
     "get_registered_object": _reg_objects.get_registered_object,
     "get_custom_objects": _reg_objects.get_custom_objects,
     "custom_object_scope": _reg_objects.CustomObjectScope,
     "CustomObjectScope": _reg_objects.CustomObjectScope, "serialize_keras_object": _ser.serialize,
     "deserialize_keras_object": _ser.deserialize},
)  # fmt: skip
MODELS = Namespace(
    "tf.keras.models",
    {"Model": Model, "Sequential": Sequential, "load_model": _saving.load_model,
     "save_model": _saving.save_model, "model_from_json": _ser.model_from_json,
     "clone_model": _ser.clone_model},
)  # fmt: skip
LOSSES = Namespace(
    "tf.keras.losses",
    {
        "Loss": _losses.Loss,
        **{n: getattr(_losses, n) for n in (
            "MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
            "MeanSquaredLogarithmicError", "BinaryCrossentropy", "CategoricalCrossentropy",
            "SparseCategoricalCrossentropy", "Huber", "KLDivergence", "CosineSimilarity",
            "Hinge", "LogCosh", "Poisson")},
        **_losses.LOSSES,
        "get": _losses.get,
    },
)  # fmt: skip
METRICS = Namespace(
    "tf.keras.metrics",
    {
        **{n: getattr(_metrics, n) for n in (
            "Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
            "CategoricalAccuracy", "SparseCategoricalAccuracy", "TopKCategoricalAccuracy",
            "MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
            "RootMeanSquaredError", "BinaryCrossentropy", "CategoricalCrossentropy",
            "SparseCategoricalCrossentropy")},
        **{n: getattr(_confusion, n) for n in _confusion.__all__},
        "mean_squared_error": _losses.mean_squared_error, "mse": _losses.mean_squared_error,
        "mean_absolute_error": _losses.mean_absolute_error, "mae": _losses.mean_absolute_error,
        "binary_crossentropy": _losses.binary_crossentropy,
        "categorical_crossentropy": _losses.categorical_crossentropy,
        "sparse_categorical_crossentropy": _losses.sparse_categorical_crossentropy,
        "get": _metrics.get,
    },
)  # fmt: skip
SCHEDULES = Namespace(
    "tf.keras.optimizers.schedules",
    {n: getattr(_schedules, n) for n in _schedules.__all__},
)
OPTIMIZERS = Namespace(
    "tf.keras.optimizers",
    {"SGD": _opt.SGD, "Adam": _opt.Adam, "RMSprop": _opt.RMSprop, "Adagrad": _opt.Adagrad,
     "Adadelta": _opt.Adadelta, "Optimizer": _opt.Optimizer, "get": _opt.get,
     "schedules": SCHEDULES},
)  # fmt: skip
ACTIVATIONS = Namespace(
    "tf.keras.activations",
    {**_act.ACTIVATIONS, "get": _act.get, "serialize": _act.serialize},
)
INITIALIZERS = Namespace(
    "tf.keras.initializers",
    {
        **{n: getattr(_init, n) for n in (
            "Initializer", "Zeros", "Ones", "Constant", "Identity", "RandomNormal",
            "RandomUniform", "TruncatedNormal", "VarianceScaling", "GlorotUniform",
            "GlorotNormal", "HeUniform", "HeNormal", "LecunUniform", "LecunNormal",
            "Orthogonal")},
        **{k: v for k, v in _init.INITIALIZERS.items() if k not in ("uniform", "normal")},
        "get": _init.get,
    },
)  # fmt: skip
REGULARIZERS = Namespace(
    "tf.keras.regularizers",
    {"Regularizer": _reg.Regularizer, "L1": _reg.L1, "L2": _reg.L2, "L1L2": _reg.L1L2,
     "l1": _reg.L1, "l2": _reg.L2, "l1_l2": _reg.L1L2, "get": _reg.get},
)  # fmt: skip
CALLBACKS = Namespace(
    "tf.keras.callbacks",
    {**{n: getattr(_cb, n) for n in _cb.__all__ if n != "CallbackList"},
     "ModelCheckpoint": ModelCheckpoint, **_cb.FILE_CALLBACKS},
)  # fmt: skip
BACKEND = Namespace(
    "tf.keras.backend",
    {"clear_session": _backend.clear_session, "floatx": _backend.floatx,
     "set_floatx": _backend.set_floatx, "epsilon": _backend.epsilon,
     "set_epsilon": _backend.set_epsilon, "image_data_format": _backend.image_data_format,
     "backend": lambda: "tensorflow", **_legacy.LEGACY},
)  # fmt: skip
APPLICATIONS = unavailable_namespace(
    "tf.keras.applications", "download",
    ["MobileNet", "MobileNetV2", "MobileNetV3Small", "MobileNetV3Large", "ResNet50",
     "ResNet101", "VGG16", "VGG19", "InceptionV3", "Xception", "DenseNet121", "EfficientNetB0",
     "ConvNeXtTiny"],
)  # fmt: skip

KERAS = Namespace(
    "tf.keras",
    {
        "layers": LAYERS, "models": MODELS, "losses": LOSSES, "metrics": METRICS,
        "optimizers": OPTIMIZERS, "activations": ACTIVATIONS, "initializers": INITIALIZERS,
        "regularizers": REGULARIZERS, "callbacks": CALLBACKS, "utils": _utils.UTILS,
        "backend": BACKEND, "random": _utils.RANDOM, "ops": _utils.OPS,
        "config": _utils.CONFIG, "datasets": KERAS_DATASETS, "saving": SAVING,
        "applications": APPLICATIONS,
        "Sequential": Sequential, "Model": Model, "Functional": Functional, "Input": Input,
        "Layer": Layer, "InputSpec": InputSpec, "KerasTensor": KerasTensor,
        "Variable": KerasVariable, "__version__": VERSION,
    },
)  # fmt: skip
