"""What the real libraries have, by public name: how a missing name is told from a typo.

TensorFlow 2.x, numpy 2.x and ``matplotlib.pyplot`` 3.x, public names only (written down from
their API references; tapeviz never imports them). A name the real library has but tapeviz
lacks gets "not available in tapeviz" instead of "has no attribute ..., did you mean ...".
"""

from __future__ import annotations

from tapeviz.sandbox.runtime.known_sklearn import SKLEARN_API, SKLEARN_WHY_NOT
from tapeviz.sandbox.runtime.known_torch import TORCH_API


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TF = """
AggregationMethod Assert CriticalSection DType DeviceSpec GradientTape Graph IndexedSlices
IndexedSlicesSpec Module Operation OptionalSpec RaggedTensor RaggedTensorSpec RegisterGradient
SparseTensor SparseTensorSpec Tensor TensorArray TensorArraySpec TensorShape TensorSpec TypeSpec
UnconnectedGradients Variable VariableAggregation VariableSynchronization abs acos acosh add
add_n approx_top_k argmax argmin argsort as_dtype as_string asin asinh assert_equal
assert_greater assert_less assert_rank atan atan2 atanh audio autodiff autograph batch_to_space
bitcast bitwise boolean_mask broadcast_dynamic_shape broadcast_static_shape broadcast_to case
cast clip_by_global_norm clip_by_norm clip_by_value compat complex concat cond config constant
constant_initializer control_dependencies conv conv2d_backprop_filter_v2
conv2d_backprop_input_v2 convert_to_tensor cos cosh cumsum custom_gradient data debugging device
distribute divide dtypes dynamic_partition dynamic_stitch edit_distance eig eigvals einsum
ensure_shape equal errors executing_eagerly exp expand_dims experimental extract_volume_patches
eye feature_column fill fingerprint floor foldl foldr function gather gather_nd
get_current_name_scope get_logger get_static_value grad_pass_through gradients graph_util
greater greater_equal group guarantee_const hessians histogram_fixed_width
histogram_fixed_width_bins identity identity_n image import_graph_def init_scope
inside_function io is_symbolic_tensor is_tensor keras less less_equal linalg linspace lite
load_library load_op_library logical_and logical_not logical_or lookup losses make_ndarray
make_tensor_proto map_fn math matmul matrix_square_root maximum meshgrid metrics minimum mlir
multiply name_scope negative nest newaxis nn no_gradient no_op nondifferentiable_batch_function
norm not_equal numpy_function ones ones_initializer ones_like optimizers pad parallel_stack pow
print profiler py_function quantization queue ragged random random_index_shuffle
random_normal_initializer random_uniform_initializer range rank realdiv recompute_grad
reduce_all reduce_any reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum
register_tensor_conversion_function repeat required_space_to_batch_paddings reshape reverse
reverse_sequence roll round saturate_cast saved_model scalar_mul scan scatter_nd searchsorted
sequence_mask sets shape shape_n sigmoid sign signal sin sinh size slice sort space_to_batch
space_to_batch_nd sparse split sqrt square squeeze stack stop_gradient strided_slice string
strings subtract summary switch_case sysconfig tan tanh tensor_scatter_nd_add
tensor_scatter_nd_max tensor_scatter_nd_min tensor_scatter_nd_sub tensor_scatter_nd_update
tensordot test tile timestamp tpu train transpose truediv truncatediv truncatemod tuple
type_spec_from_value types unique unique_with_counts unravel_index unstack
variable_creator_scope vectorized_map version where while_loop xla zeros zeros_initializer
zeros_like bfloat16 bool complex128 complex64 double float16 float32 float64 half int16 int32
int64 int8 qint16 qint32 qint8 quint16 quint8 resource uint16 uint32 uint64 uint8 variant
__version__
"""
_TF_MATH = """
abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin asinh
atan atan2 atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil confusion_matrix
conj cos cosh count_nonzero cumprod cumsum cumulative_logsumexp digamma divide divide_no_nan
equal erf erfc erfcinv erfinv exp expm1 floor floordiv floormod greater greater_equal igamma
igammac imag in_top_k invert_permutation is_finite is_inf is_nan is_non_decreasing
is_strictly_increasing l2_normalize lbeta less less_equal lgamma log log1p log_sigmoid
log_softmax logical_and logical_not logical_or logical_xor maximum minimum mod multiply
multiply_no_nan ndtri negative nextafter not_equal polygamma polyval pow real reciprocal
reciprocal_no_nan reduce_all reduce_any reduce_euclidean_norm reduce_logsumexp reduce_max
reduce_mean reduce_min reduce_prod reduce_std reduce_sum reduce_variance rint round rsqrt
scalar_mul segment_max segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh
sobol_sample softmax softplus softsign special sqrt square squared_difference subtract tan tanh
top_k truediv unsorted_segment_max unsorted_segment_mean unsorted_segment_min
unsorted_segment_prod unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlog1py xlogy zero_fraction
zeta
"""
_TF_NN = """
all_candidate_sampler atrous_conv2d atrous_conv2d_transpose avg_pool avg_pool1d avg_pool2d
avg_pool3d batch_norm_with_global_normalization batch_normalization bias_add
collapse_repeated compute_accidental_hits compute_average_loss conv1d conv1d_transpose conv2d
conv2d_transpose conv3d conv3d_transpose conv_transpose convolution crelu ctc_beam_search_decoder
ctc_greedy_decoder ctc_loss ctc_unique_labels depth_to_space depthwise_conv2d
depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input dilation2d dropout elu
embedding_lookup embedding_lookup_sparse erosion2d experimental fixed_unigram_candidate_sampler
fractional_avg_pool fractional_max_pool gelu in_top_k isotonic_regression l2_loss l2_normalize
leaky_relu learned_unigram_candidate_sampler local_response_normalization log_poisson_loss
log_softmax lrn max_pool max_pool1d max_pool2d max_pool3d max_pool_with_argmax moments nce_loss
normalize_moments pool relu relu6 safe_embedding_lookup_sparse sampled_softmax_loss
scale_regularization_loss selu separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu
softmax softmax_cross_entropy_with_logits softplus softsign space_to_batch space_to_depth
sparse_softmax_cross_entropy_with_logits sufficient_statistics swish tanh top_k
weighted_cross_entropy_with_logits weighted_moments with_space_to_batch zero_fraction
"""
_TF_LINALG = """
LinearOperator adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag
diag_part eig eigh eigh_tridiagonal eigvals eigvalsh einsum experimental expm eye global_norm
inv l2_normalize logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul
matrix_rank matrix_transpose matvec norm normalize pinv qr set_diag slogdet solve sqrtm svd
tensor_diag tensor_diag_part tensordot trace triangular_solve tridiagonal_matmul
tridiagonal_solve
"""
_TF_RANDOM = """
Algorithm Generator all_candidate_sampler categorical create_rng_state
fixed_unigram_candidate_sampler experimental gamma get_global_generator
learned_unigram_candidate_sampler log_uniform_candidate_sampler normal poisson set_global_generator
set_seed shuffle stateless_binomial stateless_categorical stateless_gamma stateless_normal
stateless_parameterized_truncated_normal stateless_poisson stateless_truncated_normal
stateless_uniform truncated_normal uniform uniform_candidate_sampler
"""
_KERAS = """
Input Model Sequential activations applications backend callbacks config constraints datasets
distribution dtype_policies export initializers layers legacy losses metrics mixed_precision
models ops optimizers preprocessing quantizers random regularizers saving tree utils version
"""
_KERAS_OPTIMIZERS = """
Adadelta Adafactor Adagrad Adam AdamW Adamax Ftrl Lamb Lion LossScaleOptimizer Nadam Optimizer
RMSprop SGD deserialize get legacy schedules serialize
"""
_NUMPY = """
abs absolute add all allclose amax amin angle any append apply_along_axis arange arccos arccosh
arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort argwhere around array
array_equal array_split asarray asarray_chkfinite atleast_1d atleast_2d atleast_3d average
bincount bitwise_and bitwise_or bitwise_xor block bool bool_ broadcast broadcast_arrays
broadcast_shapes broadcast_to byte c_ cbrt ceil char choose clip column_stack complex128
complex64 concatenate conj conjugate convolve copy copysign corrcoef correlate cos cosh
count_nonzero cov cross ctypeslib cumprod cumsum deg2rad degrees delete diag diag_indices
diagflat diagonal diff digitize divide divmod dot dsplit dstack dtype e einsum empty empty_like
equal errstate exp exp2 expand_dims expm1 eye fabs fft fill_diagonal finfo fix flatnonzero flip
fliplr flipud float16 float32 float64 float_power floor floor_divide fmax fmin fmod
format_float_positional frexp frombuffer fromfile fromfunction fromstring full full_like gcd
genfromtxt geomspace gradient greater greater_equal heaviside histogram histogram2d
histogramdd hsplit hstack hypot
i0 identity iinfo imag indices inf inner insert int16 int32 int64 int8 interp intersect1d
invert isclose iscomplex isfinite isin isinf isnan isneginf isposinf isreal isscalar issubdtype
ix_ kron lcm ldexp left_shift less less_equal lexsort lib linalg linspace load loadtxt log log10
log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor logspace ma
mask_indices matmul max maximum mean median memmap meshgrid mgrid min minimum mod modf moveaxis
multiply nan nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin
nanpercentile nanprod nanquantile nanstd nansum nanvar ndarray ndim negative newaxis nextafter
nonzero not_equal ogrid ones ones_like outer packbits pad partition percentile pi piecewise place
poly poly1d polyfit polynomial polyval positive power printoptions prod ptp put quantile r_ rad2deg
radians random ravel real reciprocal remainder repeat reshape resize right_shift rint roll
rollaxis roots rot90 round row_stack s_ save savetxt savez savez_compressed searchsorted select
set_printoptions setdiff1d shape sign signbit sin sinc sinh size sort split sqrt square squeeze
stack std subtract sum swapaxes take take_along_axis tan tanh tensordot tile trace transpose
trapezoid trapz tri tril tril_indices trim_zeros triu triu_indices true_divide trunc uint16
uint32 uint64 uint8 union1d unique unpackbits unravel_index vander var vdot vectorize vsplit
vstack where zeros zeros_like __version__
"""
_NUMPY_RANDOM = """
Generator RandomState beta binomial bytes chisquare choice default_rng dirichlet exponential f
gamma geometric get_state gumbel hypergeometric laplace logistic lognormal logseries
multinomial multivariate_normal negative_binomial noncentral_chisquare noncentral_f normal
pareto permutation poisson power rand randint randn random random_integers random_sample
ranf rayleigh sample seed set_state shuffle standard_cauchy standard_exponential standard_gamma
standard_normal standard_t triangular uniform vonmises wald weibull zipf
"""
_NUMPY_LINALG = """
LinAlgError cholesky cond cross det diagonal eig eigh eigvals eigvalsh inv lstsq matmul
matrix_norm matrix_power matrix_rank matrix_transpose multi_dot norm outer pinv qr slogdet solve
svd svdvals tensordot tensorinv tensorsolve trace vecdot vector_norm
"""
_PYPLOT = """
acorr angle_spectrum annotate arrow autoscale axes axhline axhspan axis axline axvline axvspan
bar bar_label barbs barh box boxplot broken_barh cla clabel clf clim close cm cohere colorbar
colormaps connect contour contourf csd delaxes disconnect draw errorbar eventplot figimage
figlegend fignum_exists figtext figure fill fill_between fill_betweenx findobj gca gcf gci get
get_cmap get_figlabels get_fignums getp grid hexbin hist hist2d hlines imread imsave imshow
interactive ioff ion isinteractive legend locator_params loglog magnitude_spectrum margins
matshow minorticks_off minorticks_on pause pcolor pcolormesh phase_spectrum pie plot plot_date
polar psd quiver quiverkey rc rc_context rcParams rcdefaults rgrids savefig sca scatter sci
semilogx semilogy set_cmap setp show specgram spy stackplot stairs stem step streamplot style
subplot subplot2grid subplot_mosaic subplots subplots_adjust suptitle switch_backend table text
thetagrids tick_params ticklabel_format tight_layout title tricontour tricontourf tripcolor
triplot twinx twiny violinplot vlines xcorr xkcd xlabel xlim xscale xticks ylabel ylim yscale
yticks
"""
_MATPLOTLIB = """
animation axes cm colors figure get_backend gridspec image interactive is_interactive lines
patches pyplot rc rcParams rcdefaults style ticker use __version__
"""
_MATH = """
acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees dist e erf erfc
exp exp2 expm1 fabs factorial floor fmod frexp fsum gamma gcd hypot inf isclose isfinite isinf
isnan isqrt lcm ldexp lgamma log log10 log1p log2 modf nan nextafter perm pi pow prod radians
remainder sin sinh sqrt sumprod tan tanh tau trunc ulp
"""

# Real API by the names tapeviz's namespaces go by (``Namespace`` names).
API: dict[str, frozenset[str]] = {
    "tensorflow": _names(_TF),
    "tf.math": _names(_TF_MATH),
    "tf.nn": _names(_TF_NN),
    "tf.linalg": _names(_TF_LINALG),
    "tf.random": _names(_TF_RANDOM),
    "tf.keras": _names(_KERAS),
    "tf.keras.optimizers": _names(_KERAS_OPTIMIZERS),
    "numpy": _names(_NUMPY),
    "numpy.random": _names(_NUMPY_RANDOM),
    "numpy.linalg": _names(_NUMPY_LINALG),
    "matplotlib.pyplot": _names(_PYPLOT),
    "matplotlib": _names(_MATPLOTLIB),
    "math": _names(_MATH),
    **TORCH_API,
    **SKLEARN_API,
}
# How a script spells each namespace (for messages: ``tf.compat``, ``np.load``, ``plt.pie``).
SPELLING = {"tensorflow": "tf", "numpy": "np", "numpy.random": "np.random",
            "numpy.linalg": "np.linalg",
            "matplotlib.pyplot": "plt", "tapeviz": "tv"}  # fmt: skip
# Why a real name is left out on purpose (the rest is simply not built yet).
WHY_NOT: dict[str, str] = {
    **dict.fromkeys(
        "numpy.load numpy.save numpy.savez numpy.savez_compressed numpy.savetxt numpy.loadtxt "
        "numpy.genfromtxt numpy.fromfile numpy.memmap numpy.frombuffer numpy.fromstring "
        "numpy.ctypeslib numpy.lib matplotlib.pyplot.imread matplotlib.pyplot.imsave "
        "tensorflow.io tensorflow.load_library tensorflow.load_op_library "
        "tensorflow.lite".split(),
        "tapeviz scripts have no file access",
    ),
    **dict.fromkeys(
        "numpy.empty numpy.empty_like numpy.vectorize numpy.frompyfunc numpy.piecewise "
        "numpy.apply_along_axis numpy.fromfunction tensorflow.py_function "
        "tensorflow.numpy_function".split(),
        "it would run Python code or expose memory outside tapeviz's checks",
    ),
    **SKLEARN_WHY_NOT,
}
# Real attributes of TensorFlow objects that tapeviz's versions lack (for the same messages).
OBJECT_API: dict[str, frozenset[str]] = {
    "Tensor": _names(
        "graph op value_index consumers eval experimental_ref ref set_shape backing_device"
    ),
    "Variable": _names(
        "device graph op handle constraint aggregation synchronization initializer "
        "initial_value initialized_value scatter_add scatter_sub scatter_update scatter_nd_update "
        "sparse_read load experimental_ref ref count_up_to"
    ),
}

# Names a notebook has bound by the time a cell runs, and what binds them.
IMPORTS: dict[str, str] = {
    "tf": "import tensorflow as tf",
    "np": "import numpy as np",
    "plt": "import matplotlib.pyplot as plt",
    "mpl": "import matplotlib as mpl",
    "matplotlib": "import matplotlib",
    "math": "import math",
    "keras": "from tensorflow import keras",
    "tv": "import tapeviz as tv",
    "random": "import random",
    "torch": "import torch",
    "nn": "from torch import nn",
    "F": "import torch.nn.functional as F",
    "os": "import os",
}
# Libraries people import that tapeviz does not have, and what to use instead.
ELSEWHERE: dict[str, str] = {
    **dict.fromkeys(("pd", "pandas"), "pandas is not available in tapeviz: use numpy arrays"),
    **dict.fromkeys(("jax", "jnp"), "JAX is not available in tapeviz: write it with tf or np"),
    **dict.fromkeys(("sns", "seaborn"), "seaborn is not available in tapeviz: use plt"),
    **dict.fromkeys(("sp", "scipy"), "scipy is not available in tapeviz: use np and tf"),
    **dict.fromkeys(("tfp",), "TensorFlow Probability is not available in tapeviz"),
    **dict.fromkeys(
        ("tfds",),
        "TensorFlow Datasets is not available in tapeviz (no downloads): "
        "sklearn.datasets.load_digits has 8×8 digits, make_moons and make_circles toy sets",
    ),
    **dict.fromkeys(
        ("torchvision", "torchaudio", "torchtext"),
        "torchvision, torchaudio and torchtext are not available in tapeviz (no downloads): make "
        "a small data set in the script (torch.randn, TensorDataset), or use "
        "sklearn.datasets.load_digits (8×8 digits)",
    ),
    **dict.fromkeys(
        ("sys", "subprocess", "shutil", "pickle", "json", "io"),
        "tapeviz scripts have no access to files, the system or the clock",
    ),
    **dict.fromkeys(("display",), "display() is IPython's: use print(), or plt.show() for plots"),
    **dict.fromkeys(
        ("requests", "urllib", "wget"),
        "tapeviz downloads nothing: make the data in the script or take it from sklearn.datasets "
        "(make_circles, make_moons, load_digits, …)",
    ),
    **dict.fromkeys(
        ("helper_functions",),
        "helper_functions.py is a course's own file (downloaded with requests): paste the functio"
        "ns you need into the script; the Network view draws a 2-D model's decision boundary",
    ),
    **dict.fromkeys(
        ("torchmetrics",),
        "torchmetrics is not available in tapeviz: compute the metric with torch ((y_pred == y).f"
        "loat().mean()) or sklearn.metrics",
    ),
    **dict.fromkeys(
        ("torchinfo", "torchsummary"),
        "torchinfo is not available in tapeviz: print(model) lists the layers and sum(p.numel() f"
        "or p in model.parameters()) counts the parameters",
    ),
}
HELP = 'see Help → "Libraries in tapeviz" for what is there'
