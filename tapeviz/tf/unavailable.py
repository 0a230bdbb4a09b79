"""What tapeviz does not offer: reading files, downloads, as a clear error.

``tf.io.read_file``, ``keras.datasets.mnist.load_data``, ``keras.utils.get_file`` ... exist (so
scripts get past the attribute) and raise :class:`NotAvailableInTapeviz` when called: a
``tf.errors.UnimplementedError`` (and a ``NotImplementedError``) that says what to do instead.
Saving works, in the run's own folder (:mod:`tapeviz.tf.run_files`): ``tf.io.gfile``'s
``exists``, ``listdir``, ``glob``, ``makedirs``, ``remove``, ``rmtree`` look there too.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from typing import Any

from tapeviz.engine.errors import UnimplementedError
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.string_ops import decode_raw
from tapeviz.tf import run_files

__all__ = ["NotAvailableInTapeviz", "is_unavailable", "unavailable", "unavailable_namespace"]

_HINT = {
    "file": "tapeviz runs without files: build the data in the script (tf.constant, numpy, "
    "tf.random) instead of reading it",
    "download": "tapeviz does not download data sets: make a small one in the script "
    "(for example with tf.random.normal) instead",
    "save": "tapeviz saves in Keras 3's formats only, in the run's own folder: "
    "model.save('model.keras'), model.save_weights('model.weights.h5'), tf.train.Checkpoint",
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


IO = unavailable_namespace(
    "tf.io", "file",
    ["read_file", "write_file", "decode_csv", "decode_image", "decode_jpeg", "decode_png",
     "encode_jpeg", "encode_png", "parse_example", "parse_single_example", "serialize_tensor",
     "parse_tensor", "TFRecordWriter", "FixedLenFeature", "VarLenFeature", "matching_files"],
    {"gfile": unavailable_namespace(
        "tf.io.gfile", "file", ["walk", "copy", "rename", "GFile"],
        {"exists": run_files.exists, "glob": run_files.glob, "listdir": run_files.listdir,
         "makedirs": lambda path: run_files.makedirs(path, exist_ok=True),
         "mkdir": run_files.mkdir, "remove": run_files.remove, "rmtree": run_files.rmtree,
         "isdir": run_files.isdir, "join": lambda path, *paths: posixpath.join(path, *paths)}),
     "decode_raw": decode_raw},
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
                    ("timeseries_dataset_from_array", "file"))
}  # fmt: skip
