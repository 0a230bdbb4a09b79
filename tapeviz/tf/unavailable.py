"""What tapeviz does not offer: files, downloads and saved models, as a clear error.

``tf.saved_model.save``, ``tf.io.read_file``, ``keras.datasets.mnist.load_data``,
``keras.utils.get_file``, ``model.save`` ... exist (so scripts get past the attribute) and raise
:class:`NotAvailableInTapeviz` when called: a ``tf.errors.UnimplementedError`` (and a
``NotImplementedError``) that says what to do instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tapeviz.engine.errors import UnimplementedError
from tapeviz.engine.namespace import Namespace

__all__ = ["NotAvailableInTapeviz", "is_unavailable", "unavailable", "unavailable_namespace"]

_HINT = {
    "file": "tapeviz runs without files: build the data in the script (tf.constant, numpy, "
    "tf.random) instead of reading it",
    "download": "tapeviz does not download data sets: make a small one in the script "
    "(for example with tf.random.normal) instead",
    "save": "tapeviz keeps models in memory only: there is nothing to save or load; use "
    "model.get_weights() / set_weights() to copy weights",
}


class NotAvailableInTapeviz(UnimplementedError, NotImplementedError):
    """A TensorFlow API that tapeviz does not offer (files, downloads, saved models)."""

    def __init__(self, name: str, kind: str) -> None:
        message = f"{name} is not available in tapeviz: {_HINT[kind]}"
        super().__init__(message, name)


def unavailable(name: str, kind: str) -> Callable[..., Any]:
    """A stand-in for ``name`` that raises :class:`NotAvailableInTapeviz` when called."""

    def stub(*args: Any, **kwargs: Any) -> Any:
        raise NotAvailableInTapeviz(name, kind)

    stub.__name__ = stub.__qualname__ = name.rsplit(".", 1)[-1]
    stub.__doc__ = f"Not available in tapeviz ({kind} access)."
    stub._tapeviz_unavailable = True  # type: ignore[attr-defined]
    return stub


def is_unavailable(obj: Any) -> bool:
    """Whether ``obj`` is a stand-in made by :func:`unavailable`."""
    return bool(getattr(obj, "_tapeviz_unavailable", False))


def unavailable_namespace(
    name: str, kind: str, names: Iterable[str], extra: dict[str, Any] | None = None
) -> Namespace:
    """A namespace whose ``names`` are stand-ins (``extra``: real entries beside them)."""
    entries: dict[str, Any] = {n: unavailable(f"{name}.{n}", kind) for n in names}
    entries.update(extra or {})
    return Namespace(name, entries)


SAVED_MODEL = unavailable_namespace(
    "tf.saved_model", "save", ["save", "load", "contains_saved_model", "SaveOptions",
                               "LoadOptions", "Asset"],
)  # fmt: skip
IO = unavailable_namespace(
    "tf.io", "file",
    ["read_file", "write_file", "decode_csv", "decode_image", "decode_jpeg", "decode_png",
     "encode_jpeg", "encode_png", "parse_example", "parse_single_example", "serialize_tensor",
     "parse_tensor", "TFRecordWriter", "FixedLenFeature", "VarLenFeature", "matching_files"],
    {"gfile": unavailable_namespace(
        "tf.io.gfile", "file",
        ["exists", "glob", "listdir", "makedirs", "mkdir", "remove", "rmtree", "walk", "copy",
         "rename", "isdir", "GFile"])},
)  # fmt: skip
TRAIN = unavailable_namespace(
    "tf.train", "save", ["Checkpoint", "CheckpointManager", "latest_checkpoint",
                         "load_checkpoint", "list_variables"],
)  # fmt: skip
SUMMARY = unavailable_namespace(
    "tf.summary", "file", ["create_file_writer", "scalar", "histogram", "image", "text", "trace_on",
                           "trace_export"],
)  # fmt: skip
FILE_DATASETS = {
    n: unavailable(f"tf.data.{n}", "file")
    for n in ("TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset")
}
_DATASETS = (
    "mnist",
    "fashion_mnist",
    "cifar10",
    "cifar100",
    "imdb",
    "reuters",
    "boston_housing",
    "california_housing",
)
KERAS_DATASETS = Namespace(
    "tf.keras.datasets",
    {n: unavailable_namespace(f"tf.keras.datasets.{n}", "download", ["load_data"])
     for n in _DATASETS},
)  # fmt: skip
KERAS_UTILS_FILES = {
    n: unavailable(f"tf.keras.utils.{n}", kind)
    for n, kind in (("get_file", "download"), ("image_dataset_from_directory", "file"),
                    ("text_dataset_from_directory", "file"), ("load_img", "file"),
                    ("timeseries_dataset_from_array", "file"), ("plot_model", "file"))
}  # fmt: skip


def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Any:
    """A decorator that returns the class unchanged (nothing is ever serialised here)."""
    return lambda obj: obj


KERAS_SAVING = unavailable_namespace(
    "tf.keras.saving", "save", ["save_model", "load_model"],
    {"register_keras_serializable": register_keras_serializable},
)  # fmt: skip
