"""Primitive operations: one named constant per op, in the order the UI lists them.

A formula names the op's inputs a, b, c in order, each a word of its own (``exp(a)``, not
``eᵃ``), so views can write the inputs' own names in their place (``1 / (1 + exp(−z))``) and a
user's variable ``a`` never reads as a placeholder.
"""

from __future__ import annotations


class Primitive:
    """A named primitive op; its forward lives in ``IMPL`` and its gradient in ``VJP``.

    ``bool_args`` are inputs converted to bool, ``int_args`` inputs that keep their own integer
    dtype (indices, labels); neither takes part in the operands' common dtype.
    """

    __slots__ = ("bool_args", "formula", "int_args", "name", "own_dtype_args", "tf_name")

    def __init__(
        self,
        name: str,
        formula: str,
        tf_name: str,
        bool_args: tuple[int, ...] = (),
        int_args: tuple[int, ...] = (),
    ) -> None:
        self.name = name
        self.formula = formula
        self.tf_name = tf_name
        self.bool_args = bool_args
        self.int_args = int_args
        self.own_dtype_args = bool_args + int_args

    def __repr__(self) -> str:
        return self.name


PRIMITIVES: dict[str, Primitive] = {}


def _p(
    name: str,
    formula: str,
    tf_name: str,
    bool_args: tuple[int, ...] = (),
    int_args: tuple[int, ...] = (),
) -> Primitive:
    prim = Primitive(name, formula, tf_name, bool_args, int_args)
    PRIMITIVES[name] = prim
    return prim


# Elementwise arithmetic.
add_p = _p("add", "a + b", "AddV2")
subtract_p = _p("subtract", "a − b", "Sub")
multiply_p = _p("multiply", "a · b", "Mul")
divide_p = _p("divide", "a / b", "RealDiv")
divide_no_nan_p = _p("divide_no_nan", "a / b, 0 where b = 0", "DivNoNan")
floordiv_p = _p("floordiv", "⌊a / b⌋", "FloorDiv")
mod_p = _p("mod", "a mod b", "FloorMod")
negative_p = _p("negative", "−a", "Neg")
pow_p = _p("pow", "a ^ b", "Pow")
square_p = _p("square", "a ^ 2", "Square")
sqrt_p = _p("sqrt", "√a", "Sqrt")
rsqrt_p = _p("rsqrt", "1 / √a", "Rsqrt")
reciprocal_p = _p("reciprocal", "1 / a", "Reciprocal")

# Transcendental and activation functions.
exp_p = _p("exp", "exp(a)", "Exp")
log_p = _p("log", "ln a", "Log")
log1p_p = _p("log1p", "ln(1 + a)", "Log1p")
expm1_p = _p("expm1", "exp(a) − 1", "Expm1")
sin_p = _p("sin", "sin a", "Sin")
cos_p = _p("cos", "cos a", "Cos")
tan_p = _p("tan", "tan a", "Tan")
tanh_p = _p("tanh", "tanh a", "Tanh")
sigmoid_p = _p("sigmoid", "1 / (1 + exp(−a))", "Sigmoid")
softplus_p = _p("softplus", "ln(1 + exp(a))", "Softplus")
relu_p = _p("relu", "max(a, 0)", "Relu")
leaky_relu_p = _p("leaky_relu", "a if a > 0 else α·a", "LeakyRelu")
abs_p = _p("abs", "|a|", "Abs")
sign_p = _p("sign", "sign(a)", "Sign")
floor_p = _p("floor", "⌊a⌋", "Floor")
round_p = _p("round", "round(a), half to even", "Round")

# Selection.
maximum_p = _p("maximum", "max(a, b)", "Maximum")
minimum_p = _p("minimum", "min(a, b)", "Minimum")
clip_by_value_p = _p("clip_by_value", "min(max(a, lo), hi)", "ClipByValue")
where_p = _p("where", "a ? b : c", "SelectV2", bool_args=(0,))

# Comparisons and logic (no gradient path).
less_p = _p("less", "a < b", "Less")
less_equal_p = _p("less_equal", "a ≤ b", "LessEqual")
greater_p = _p("greater", "a > b", "Greater")
greater_equal_p = _p("greater_equal", "a ≥ b", "GreaterEqual")
equal_p = _p("equal", "a = b", "Equal")
not_equal_p = _p("not_equal", "a ≠ b", "NotEqual")
logical_and_p = _p("logical_and", "a ∧ b", "LogicalAnd", bool_args=(0, 1))
logical_or_p = _p("logical_or", "a ∨ b", "LogicalOr", bool_args=(0, 1))
logical_not_p = _p("logical_not", "¬a", "LogicalNot", bool_args=(0,))

# Linear algebra and reductions.
matmul_p = _p("matmul", "a @ b", "MatMul")
reduce_sum_p = _p("reduce_sum", "Σ a", "Sum")
reduce_mean_p = _p("reduce_mean", "mean(a)", "Mean")
reduce_max_p = _p("reduce_max", "max(a)", "Max")
reduce_min_p = _p("reduce_min", "min(a)", "Min")
argmax_p = _p("argmax", "argmax(a)", "ArgMax")
argmin_p = _p("argmin", "argmin(a)", "ArgMin")
norm_p = _p("norm", "‖a‖", "Norm")

# Shapes and structure.
stack_p = _p("stack", "[a, b, …]", "Pack")
concat_p = _p("concat", "a ⧺ b", "ConcatV2")
reshape_p = _p("reshape", "reshape(a)", "Reshape")
transpose_p = _p("transpose", "transpose(a)", "Transpose")
broadcast_to_p = _p("broadcast_to", "broadcast(a)", "BroadcastTo")
getitem_p = _p("getitem", "a[i]", "StridedSlice")
cast_p = _p("cast", "cast(a)", "Cast")
identity_p = _p("identity", "a", "Identity")
stop_gradient_p = _p("stop_gradient", "a (gradient stopped)", "StopGradient")
scatter_p = _p("scatter", "zeros with [i] ← a", "StridedSliceGrad")

# Activations (tf.nn).
elu_p = _p("elu", "a if a > 0 else exp(a) − 1", "Elu")
selu_p = _p("selu", "λ·(a if a > 0 else α·(exp(a) − 1))", "Selu")
gelu_p = _p("gelu", "a·Φ(a)", "Gelu")
relu6_p = _p("relu6", "min(max(a, 0), 6)", "Relu6")
softsign_p = _p("softsign", "a / (1 + |a|)", "Softsign")
silu_p = _p("silu", "a·σ(β·a)", "Swish")
softmax_p = _p("softmax", "exp(a) / Σ exp(a)", "Softmax")
log_softmax_p = _p("log_softmax", "a − ln Σ exp(a)", "LogSoftmax")
softmax_cross_entropy_p = _p(
    "softmax_cross_entropy", "−Σ a · log softmax(b)", "SoftmaxCrossEntropyWithLogits"
)
sparse_softmax_cross_entropy_p = _p(
    "sparse_softmax_cross_entropy",
    "−log softmax(b)[a]",
    "SparseSoftmaxCrossEntropyWithLogits",
    int_args=(0,),
)

# More maths (tf.math).
sinh_p = _p("sinh", "sinh a", "Sinh")
cosh_p = _p("cosh", "cosh a", "Cosh")
asin_p = _p("asin", "asin a", "Asin")
acos_p = _p("acos", "acos a", "Acos")
atan_p = _p("atan", "atan a", "Atan")
asinh_p = _p("asinh", "asinh a", "Asinh")
acosh_p = _p("acosh", "acosh a", "Acosh")
atanh_p = _p("atanh", "atanh a", "Atanh")
atan2_p = _p("atan2", "atan2(a, b)", "Atan2")
erf_p = _p("erf", "erf a", "Erf")
erfc_p = _p("erfc", "erfc a", "Erfc")
ceil_p = _p("ceil", "⌈a⌉", "Ceil")
is_nan_p = _p("is_nan", "a is nan", "IsNan")
is_inf_p = _p("is_inf", "a is ±inf", "IsInf")
is_finite_p = _p("is_finite", "a is finite", "IsFinite")
reduce_prod_p = _p("reduce_prod", "Π a", "Prod")
reduce_logsumexp_p = _p("reduce_logsumexp", "ln Σ exp(a)", "ReduceLogSumExp")
reduce_any_p = _p("reduce_any", "any(a)", "Any", bool_args=(0,))
reduce_all_p = _p("reduce_all", "all(a)", "All", bool_args=(0,))
cumsum_p = _p("cumsum", "running Σ a", "Cumsum")
cumprod_p = _p("cumprod", "running Π a", "Cumprod")

# Linear algebra (tf.linalg) and einsum.
diag_p = _p("diag", "diag(a)", "MatrixDiagV3")
diag_part_p = _p("diag_part", "diagonal of a", "MatrixDiagPartV3")
solve_p = _p("solve", "a⁻¹ · b", "MatrixSolve")
inv_p = _p("inv", "a⁻¹", "MatrixInverse")
det_p = _p("det", "det a", "MatrixDeterminant")
einsum_p = _p("einsum", "einsum(a, b, …)", "Einsum")
svd_p = _p("svd", "svd(a)", "Svd")  # params: part "s", "u" or "v"
qr_p = _p("qr", "qr(a)", "Qr")  # part "q" or "r"
eigh_p = _p("eigh", "eigh(a)", "SelfAdjointEigV2")  # part "e" or "v"

# Indexing and tiling.
pad_p = _p("pad", "pad(a)", "PadV2")
tile_p = _p("tile", "tile(a)", "Tile")
gather_p = _p("gather", "a[b] along an axis", "GatherV2", int_args=(1,))
scatter_add_p = _p("scatter_add", "zeros with [b] += a along an axis", "UnsortedSegmentSum",
                   int_args=(1,))  # fmt: skip

# Convolution and pooling (tf.nn, NHWC; params strides, padding, dilations, ksize).
conv2d_p = _p("conv2d", "conv2d(a, b)", "Conv2D")
conv2d_backprop_input_p = _p("conv2d_backprop_input", "conv2d_transpose(b, a)",
                             "Conv2DBackpropInput")  # fmt: skip
conv2d_backprop_filter_p = _p("conv2d_backprop_filter", "conv2d_backprop_filter(a, b)",
                              "Conv2DBackpropFilter")  # fmt: skip
max_pool_p = _p("max_pool", "max_pool(a)", "MaxPool")
max_pool_grad_p = _p("max_pool_grad", "max_pool_grad(a, b)", "MaxPoolGrad")
max_pool_grad_grad_p = _p("max_pool_grad_grad", "max_pool_grad_grad(a, b)", "MaxPoolGradGrad")
avg_pool_p = _p("avg_pool", "avg_pool(a)", "AvgPool")
avg_pool_grad_p = _p("avg_pool_grad", "avg_pool_grad(a)", "AvgPoolGrad")

# Convolution and pooling in torch's layout (NCHW, torch's window rules; impl_nchw.py).
conv_nchw_p = _p("conv_nchw", "conv2d(a, b)", "Conv2D")
conv_bias_nchw_p = _p("conv_bias_nchw", "conv2d(a, b) + c", "Conv2D")
max_pool_nchw_p = _p("max_pool_nchw", "max_pool(a)", "MaxPool")
avg_pool_nchw_p = _p("avg_pool_nchw", "avg_pool(a)", "AvgPool")
adaptive_avg_pool_nchw_p = _p("adaptive_avg_pool_nchw", "adaptive_avg_pool(a)", "AdaptiveAvgPool")

# A function with its own gradient (tf.custom_gradient).
custom_gradient_p = _p("custom_gradient", "f(a, …) with its own gradient", "IdentityN")

# Fused ops (fused.py): a dense layer f(a · W + w₀) whose kernel and bias come as one matrix
# b = [W; w₀] (the bias its last row), one op per activation f, and a batch's mean loss: the
# Network view trains with them (the same floats as the ops they fuse, bit for bit); the tapes it
# shows record the unfused ops with the kernel and bias apart (models/network).
dense_linear_p = _p("dense_linear", "a · b[:−1] + b[−1]", "Dense")
dense_relu_p = _p("dense_relu", "max(a · b[:−1] + b[−1], 0)", "Dense")
dense_tanh_p = _p("dense_tanh", "tanh(a · b[:−1] + b[−1])", "Dense")
dense_sigmoid_p = _p("dense_sigmoid", "1 / (1 + exp(−(a · b[:−1] + b[−1])))", "Dense")
square_loss_p = _p("square_loss", "mean((a − b)²) / 2", "SquareLoss")
hinge_loss_p = _p("hinge_loss", "mean(max(1 − b · a, 0))", "HingeLoss")
