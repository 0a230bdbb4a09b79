"""torch's legacy tensor types (``torch.LongTensor`` …) and ``torch.__version__``.

The course's notebook 02 writes ``torch.from_numpy(y_blob).type(torch.LongTensor)`` and prints
``torch.__version__`` first; torch documents ``Tensor.type(dtype)`` as taking a type or its name.
"""

from __future__ import annotations

from collections.abc import Callable

from tapeviz.sandbox import run

PREFIX = "import torch\nimport numpy as np\n"  # (every script here starts so)
Lines = Callable[[str], list[str]]  # (the lines_of fixture: tests/conftest.py)


def test_a_legacy_type_casts_makes_and_checks(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX + "y = torch.from_numpy(np.array([3, 2])).type(torch.LongTensor)\n"
        "print(y, y.dtype, y.type())\n"
        "a = torch.FloatTensor([1, 2])\n"
        "print(a, isinstance(a, torch.FloatTensor), isinstance(a, torch.LongTensor))\n"
        "print(torch.DoubleTensor(2, 3).dtype, torch.LongTensor, y.type('torch.DoubleTensor'))"
    ) == [
        "tensor([3, 2]) torch.int64 torch.LongTensor",
        "tensor([1., 2.]) True False",
        "torch.float64 <class 'torch.LongTensor'> tensor([3., 2.], dtype=torch.float64)",
    ]


def test_a_wrong_type_name_and_private_fields_are_refused() -> None:
    r = run("import torch\nx = torch.zeros(2).type('torch.NopeTensor')")
    assert r.error is not None and "invalid type: 'torch.NopeTensor'" in r.error.message
    r = run("import torch\nprint(torch.FloatTensor._dtype)")
    assert r.error is not None


def test_torch_has_a_version(lines_of: Lines) -> None:
    (line,) = lines_of(PREFIX + "print(torch.__version__)")
    assert line.split(".")[0] == "2"
