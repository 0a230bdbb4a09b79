"""tapeviz.torch._format prints tensors exactly as PyTorch 2.x does.

The expected strings come from PyTorch itself: ``test/test_torch.py::test_print`` (ported case by
case, marked "test_print"), the ``torch.set_printoptions`` docstring and its documented outputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tapeviz.torch import _format
from tapeviz.torch._format import (
    get_printoptions,
    printoptions,
    reset_printoptions,
    set_printoptions,
    tensor_repr,
    tensor_str,
)

inf, nan = float("inf"), float("nan")


@pytest.fixture(autouse=True)
def default_options() -> Iterator[None]:
    reset_printoptions()
    yield
    reset_printoptions()


def r(values: object, dtype: str = "float32", **kwargs: object) -> str:
    return tensor_repr(np.asarray(values), dtype, **kwargs)  # type: ignore[arg-type]


# --- test_print (test/test_torch.py) -------------------------------------------------------------


def test_print_complex_half() -> None:
    expected = "tensor([ 1.2500+4.j, -7.0000+6.j], dtype=torch.complex32)"
    assert r([1.25 + 4j, -7.0 + 6j], "complex32") == expected


def test_print_complex_scientific() -> None:
    expected = "tensor([1.0000e+28+2.0000e+00j, -0.0000e+00-1.0000e-28j])"
    assert r([1e28 + 2j, -1e-28j], "complex64") == expected


def test_print_sci_mode_forced_on_and_off() -> None:
    set_printoptions(sci_mode=True)
    assert r([1e2, 1e-2]) == "tensor([1.0000e+02, 1.0000e-02])"
    set_printoptions(sci_mode=False)
    assert r([1e2, 1e-2]) == "tensor([100.0000,   0.0100])"
    set_printoptions(sci_mode=None)
    assert r([1e2, 1e-2]) == "tensor([1.0000e+02, 1.0000e-02])"


def test_print_inf_and_nan() -> None:
    expected = "tensor([4.0000,    inf, 1.5000,   -inf, 0.0000,    nan, 1.0000])"
    assert r([4, inf, 1.5, -inf, 0, nan, 1]) == expected


def test_print_complex_inf_and_nan_wraps() -> None:
    y = [4, inf, complex(1.5, inf), complex(-inf, 4), 0, complex(nan, inf), complex(3, nan)]
    expected = (
        "tensor([4.0000+0.j,    inf+0.j, 1.5000+infj,   -inf+4.j, 0.0000+0.j,    nan+infj,\n"
        "        3.0000+nanj])"
    )
    assert r(y, "complex64") == expected


def test_print_float64_denormals_wrap_with_dtype() -> None:
    x = [1e-324, 1e-323, 1e-322, 1e307, 1e308, 1e309]
    expected = (
        "tensor([ 0.0000e+00, 9.8813e-324, 9.8813e-323, 1.0000e+307, 1.0000e+308,\n"
        "                inf], dtype=torch.float64)"
    )
    assert r(x, "float64") == expected


def test_print_internal_summary_function() -> None:
    x = np.random.default_rng(0).random((1, 20, 5, 30)).astype(np.float32)
    summary = _format._summarized_data(x)
    assert summary.shape == (1, 6, 5, 6)
    first_and_last = [0, 1, 2, -3, -2, -1]
    np.testing.assert_array_equal(summary, x[:, first_and_last][..., first_and_last])


_BLOCK = "[[1., 1., 1.,  ..., 1., 1., 1.],\n         [1., 1., 1.,  ..., 1., 1., 1.]]"


def test_print_summarized_3d() -> None:
    blocks = ",\n\n        ".join([_BLOCK] * 3 + ["..."] + [_BLOCK] * 3)
    assert r(np.ones((100, 2, 10))) == "tensor([" + blocks + "])"


def test_print_summarized_3d_complex() -> None:
    row = "[1.+1.j, 1.+1.j, 1.+1.j,  ..., 1.+1.j, 1.+1.j, 1.+1.j]"
    block = "[" + row + ",\n         " + row + "]"
    blocks = ",\n\n        ".join([block] * 3 + ["..."] + [block] * 3)
    assert r(np.ones((100, 2, 10)) * (1 + 1j), "complex64") == "tensor([" + blocks + "])"


def test_print_bool() -> None:
    assert r([True], "bool") == "tensor([True])"
    assert r(True, "bool") == "tensor(True)"


@pytest.mark.parametrize(
    ("values", "dtype", "expected"),
    [
        pytest.param(
            [2.3 + 4j, 7 + 6j], "complex64", "tensor([2.3000+4.j, 7.0000+6.j])", id="complex"
        ),
        pytest.param(2341234123412341, "int64", "tensor(2341234123412341)", id="big_integer"),
        pytest.param(
            [1e28, 1e-28], "float32", "tensor([1.0000e+28, 1.0000e-28])", id="scientific_notation"
        ),
        pytest.param([1, 2], "int64", "tensor([1, 2])", id="ints_no_leading_space_when_positive"),
        pytest.param([1, -2], "int64", "tensor([ 1, -2])", id="ints_leading_space_for_negatives"),
        pytest.param(
            np.zeros(10000), "float32", "tensor([0., 0., 0.,  ..., 0., 0., 0.])", id="summary"
        ),
        pytest.param(0.00002, "float32", "tensor(2.0000e-05)", id="0d_small_float"),
        pytest.param([0.00002], "float32", "tensor([2.0000e-05])", id="sci_when_min_below_1e_4"),
        pytest.param(
            np.array([0.00002]) * (1 + 1j),
            "complex64",
            "tensor([2.0000e-05+2.0000e-05j])",
            id="complex_sci_min",
        ),
        pytest.param([123456789.0], "float32", "tensor([1.2346e+08])", id="sci_when_max_above_1e8"),
        pytest.param([0.01, 11], "float32", "tensor([1.0000e-02, 1.1000e+01])", id="sci_ratio"),
        pytest.param([1, 1010], "int64", "tensor([   1, 1010])", id="int_ratio_above_1000_no_sci"),
        pytest.param([1000000000], "int64", "tensor([1000000000])", id="int_above_1e8_no_sci"),
        pytest.param([1.0, 1000.0], "float32", "tensor([   1., 1000.])", id="float_int_mode"),
        pytest.param(
            [1.0, 1010.0], "float32", "tensor([1.0000e+00, 1.0100e+03])", id="int_mode_sci"
        ),
    ],
)
def test_print_cases(values: object, dtype: str, expected: str) -> None:
    assert r(values, dtype) == expected


def test_print_integral_floats_requires_grad() -> None:
    assert r([123.0], suffixes=["requires_grad=True"]) == "tensor([123.], requires_grad=True)"


# --- torch.set_printoptions docstring ------------------------------------------------------------


def test_doc_precision() -> None:
    set_printoptions(precision=2)
    assert r([1.12345]) == "tensor([1.12])"


def test_doc_threshold() -> None:
    # The docstring shows "2, ...," but torch's _vector_str joins a " ..." element with ", "
    # (as in every summary in test_print), so the real output has two spaces.
    set_printoptions(threshold=5)
    assert r(np.arange(10), "int64") == "tensor([0, 1, 2,  ..., 7, 8, 9])"


def test_doc_profile_default_restores() -> None:
    set_printoptions(precision=2, threshold=5)
    set_printoptions(profile="default")
    assert r([1.12345]) == "tensor([1.1235])"
    assert r(np.arange(10), "int64") == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"


# --- everyday outputs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "dtype", "expected"),
    [
        (6.0, "float32", "tensor(6.)"),
        ([1.0, 2.0], "float32", "tensor([1., 2.])"),
        ([1.5, 2.0], "float32", "tensor([1.5000, 2.0000])"),
        ([1e-5, 1e5], "float32", "tensor([1.0000e-05, 1.0000e+05])"),
        ([[1, 2], [3, 4]], "int64", "tensor([[1, 2],\n        [3, 4]])"),
        ([True, False], "bool", "tensor([ True, False])"),
        (
            [[True, False], [False, True]],
            "bool",
            "tensor([[ True, False],\n        [False,  True]])",
        ),
        (3, "int32", "tensor(3, dtype=torch.int32)"),
        ([1.0, 2.0], "float64", "tensor([1., 2.], dtype=torch.float64)"),
        ([nan, inf], "float32", "tensor([nan, inf])"),
        ([-inf], "float32", "tensor([-inf])"),
        (nan, "float32", "tensor(nan)"),
        (-0.0, "float32", "tensor(-0.)"),
        ([1.0, -1.0], "float32", "tensor([ 1., -1.])"),
        (0.1, "float32", "tensor(0.1000)"),
        (
            [0.0, 0.25, 0.5, 0.75, 1.0],
            "float32",
            "tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])",
        ),
        ([1, 2], "uint8", "tensor([1, 2], dtype=torch.uint8)"),
        ([-128, 127], "int8", "tensor([-128,  127], dtype=torch.int8)"),
        ([7, -7], "int16", "tensor([ 7, -7], dtype=torch.int16)"),
        (0.1, "bfloat16", "tensor(0.1001, dtype=torch.bfloat16)"),
    ],
)
def test_everyday(values: object, dtype: str, expected: str) -> None:
    assert r(values, dtype) == expected


def test_zeros_2d() -> None:
    assert r(np.zeros((2, 3))) == "tensor([[0., 0., 0.],\n        [0., 0., 0.]])"


def test_arange_3d_blank_lines_between_blocks() -> None:
    expected = (
        "tensor([[[ 0,  1,  2,  3],\n"
        "         [ 4,  5,  6,  7],\n"
        "         [ 8,  9, 10, 11]],\n"
        "\n"
        "        [[12, 13, 14, 15],\n"
        "         [16, 17, 18, 19],\n"
        "         [20, 21, 22, 23]]])"
    )
    assert r(np.arange(24).reshape(2, 3, 4), "int64") == expected


def test_arange_100_wraps_18_per_line() -> None:
    lines = r(np.arange(100), "int64").split("\n")
    assert lines[0] == (
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,"
    )
    assert lines[1].startswith("        18, 19, 20,")
    assert lines[-1] == "        90, 91, 92, 93, 94, 95, 96, 97, 98, 99])"
    assert all(len(line) <= 80 for line in lines)


def test_summarized_data_sets_the_width() -> None:
    assert r(np.arange(10000), "int64") == "tensor([   0,    1,    2,  ..., 9997, 9998, 9999])"


def test_summarized_2d() -> None:
    row = "[0., 0., 0.,  ..., 0., 0., 0.]"
    rows = ",\n        ".join([row] * 3 + ["..."] + [row] * 3)
    assert r(np.zeros((100, 100))) == "tensor([" + rows + "])"


def test_linewidth() -> None:
    set_printoptions(linewidth=20)
    assert r(np.arange(10), "int64") == "tensor([0, 1, 2, 3,\n        4, 5, 6, 7,\n        8, 9])"


# --- empty tensors -------------------------------------------------------------------------------


def test_empty() -> None:
    assert r(np.zeros(0)) == "tensor([])"
    assert r(np.zeros((0, 3))) == "tensor([], size=(0, 3))"
    assert r(np.zeros(0), "int64") == "tensor([], dtype=torch.int64)"
    assert r(np.zeros(0), "bool") == "tensor([], dtype=torch.bool)"
    assert r(np.zeros((2, 0)), "float64") == "tensor([], size=(2, 0), dtype=torch.float64)"


def test_empty_size_hint_off() -> None:
    assert r(np.zeros((0, 3)), size_hint=False) == "tensor([])"


# --- suffixes ------------------------------------------------------------------------------------


def test_suffixes() -> None:
    assert r([1.0, 2.0], suffixes=["requires_grad=True"]) == "tensor([1., 2.], requires_grad=True)"
    assert r(6.0, suffixes=["grad_fn=<MulBackward0>"]) == "tensor(6., grad_fn=<MulBackward0>)"


def test_dtype_suffix_comes_first() -> None:
    expected = "tensor([1., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)"
    assert r([1.0, 2.0], "float64", suffixes=["grad_fn=<MulBackward0>"]) == expected


def test_suffix_breaks_to_new_line_when_long() -> None:
    # the one-line repr is 79 characters; torch counts it as 81 (rfind("\n") is -1) and breaks
    expected = "tensor([" + ", ".join(["1."] * 18) + "],\n       requires_grad=True)"
    assert r(np.ones(18), suffixes=["requires_grad=True"]) == expected


def test_suffix_on_last_line_of_multiline_tensor() -> None:
    text = r(np.zeros((2, 2)), suffixes=["requires_grad=True"])
    assert text == "tensor([[0., 0.],\n        [0., 0.]], requires_grad=True)"


def test_each_suffix_wraps_on_its_own() -> None:
    set_printoptions(linewidth=40)
    text = r([1.0, 2.0], "float64", suffixes=["grad_fn=<AddBackward0>"])
    assert text == "tensor([1., 2.], dtype=torch.float64,\n       grad_fn=<AddBackward0>)"


# --- float16 and float32 precision ---------------------------------------------------------------


def test_float16() -> None:
    assert r(0.1, "float16") == "tensor(0.1000, dtype=torch.float16)"
    assert r([1.0, 2.0], "float16") == "tensor([1., 2.], dtype=torch.float16)"
    assert r(65504.0, "float16") == "tensor(65504., dtype=torch.float16)"
    assert r(70000.0, "float16") == "tensor(inf, dtype=torch.float16)"


def test_float32_prints_its_double_value() -> None:
    set_printoptions(precision=10)
    assert r(0.1) == "tensor(0.1000000015)"
    assert r(0.1, "float64") == "tensor(0.1000000000, dtype=torch.float64)"


# --- print options -------------------------------------------------------------------------------


def test_get_printoptions_defaults() -> None:
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_set_printoptions_resets_sci_mode_when_omitted() -> None:
    set_printoptions(sci_mode=True)
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None
    assert get_printoptions()["precision"] == 3


def test_profiles() -> None:
    set_printoptions(profile="short")
    assert get_printoptions()["precision"] == 2
    assert r(np.arange(2000), "int64") == "tensor([   0,    1,  ..., 1998, 1999])"
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == float("inf")
    assert "..." not in r(np.arange(2000), "int64")


def test_edgeitems_zero() -> None:
    set_printoptions(threshold=3, edgeitems=0)
    assert r(np.arange(10), "int64") == "tensor([...])"
    assert r(np.ones((4, 4))) == "tensor([...])"


def test_sci_mode_ignored_without_nonzero_finite_values() -> None:
    set_printoptions(sci_mode=True)
    assert r([0.0, 0.0]) == "tensor([0., 0.])"


def test_sci_mode_false_sizes_fixed_notation() -> None:
    set_printoptions(sci_mode=False)
    assert r([1e-5, 1e5]) == "tensor([     0.0000, 100000.0000])"


def test_printoptions_context_manager_restores() -> None:
    with printoptions(precision=1):
        assert r([1.25, 2.0]) == "tensor([1.2, 2.0])"
    assert r([1.25, 2.0]) == "tensor([1.2500, 2.0000])"


def test_reset_printoptions() -> None:
    set_printoptions(precision=1, threshold=2, edgeitems=1, linewidth=10, sci_mode=True)
    reset_printoptions()
    assert get_printoptions() == _format._PrintOptions().__dict__


# --- API details ---------------------------------------------------------------------------------


def test_tensor_str_equals_repr() -> None:
    x = np.arange(6.0).reshape(2, 3) / 7
    assert tensor_str(x, "float32") == tensor_repr(x, "float32")


def test_dtype_aliases_and_prefix() -> None:
    assert r([1.0], "torch.float64") == "tensor([1.], dtype=torch.float64)"
    assert r([1.0], "double") == "tensor([1.], dtype=torch.float64)"
    assert r([1], "long") == "tensor([1])"


def test_values_are_cast_to_the_dtype() -> None:
    assert r([1.7, -2.2], "int32") == "tensor([ 1, -2], dtype=torch.int32)"


def test_unknown_dtype_raises() -> None:
    with pytest.raises(ValueError, match="dtype"):
        r([1], "float128")
