"""PyTorch 2.x's public names (from its API reference; tapeviz never imports torch).

A name torch has but tapeviz.torch lacks gets "torch.fft is not available in tapeviz" instead
of "has no attribute ..., did you mean ...".
"""

from __future__ import annotations

_TORCH = """
Generator Size Tensor abs absolute acos acosh adaptive_avg_pool1d add addbmm addcdiv addcmul
addmm addmv addr all allclose amax amin aminmax angle any arange arccos arccosh arcsin arcsinh
arctan arctan2 arctanh argmax argmin argsort argwhere as_strided as_tensor asin asinh atan atan2
atanh atleast_1d atleast_2d atleast_3d autocast autograd backends baddbmm bartlett_window
bernoulli bfloat16 bincount bitwise_and bitwise_not bitwise_or bitwise_xor block_diag bmm bool
broadcast_shapes broadcast_tensors broadcast_to bucketize cartesian_prod cat cdist ceil chain_matmul
cholesky chunk clamp clamp_max clamp_min clip clone column_stack compile complex complex64
complex128 concat concatenate conj copysign corrcoef cos cosh count_nonzero cov cpu cross
cuda cummax cummin cumprod cumsum cumulative_trapezoid deg2rad det device diag diag_embed
diagflat diagonal diff digamma dist distributions div divide dot double dsplit dstack dtype
einsum empty empty_like enable_grad eq equal erf erfc erfinv exp exp2 expm1 eye fft finfo fix
flatten flip fliplr flipud float float16 float32 float64 float_power floor floor_divide fmax
fmin fmod frac frexp from_numpy full full_like func gather gcd ge get_default_dtype
get_num_threads get_rng_state gradient greater greater_equal gt half hamming_window
hann_window heaviside histc histogram hsplit hstack hub hypot i0 iinfo imag index_add
index_copy index_fill index_put index_reduce index_select inference_mode initial_seed inner
int int8 int16 int32 int64 inverse is_complex is_floating_point is_grad_enabled is_nonzero
is_tensor isclose isfinite isin isinf isnan isneginf isposinf isreal jit kron kthvalue lcm ldexp
le lerp less less_equal lgamma linalg linspace load log log10 log1p log2 logaddexp logaddexp2
logcumsumexp logdet logical_and logical_not logical_or logical_xor logit logspace logsumexp
long lt lu manual_seed masked_fill masked_scatter masked_select matmul matrix_exp matrix_power
max maximum mean median meshgrid min minimum mm mode moveaxis movedim msort mul multinomial
multiply mv mvlgamma nan_to_num nanmean nanmedian nanquantile nansum narrow narrow_copy ne neg
negative nextafter nn no_grad nonzero norm normal not_equal numel ones ones_like optim outer
pdist permute pinverse poisson polar polygamma positive pow prod promote_types quantile rad2deg
rand rand_like randint randint_like randn randn_like randperm range ravel real reciprocal
remainder renorm repeat_interleave reshape result_type roll rot90 round rsqrt save scatter
scatter_add scatter_reduce searchsorted seed select select_scatter set_default_dtype
set_default_tensor_type set_grad_enabled set_num_threads set_printoptions set_rng_state sgn short
sigmoid sign signbit sin sinc sinh slice_scatter softmax sort sparse special split sqrt square
squeeze stack std std_mean stft sub subtract sum svd swapaxes swapdims t take take_along_dim tan
tanh tensor tensor_split tensordot testing tile topk trace transpose trapezoid trapz
triangular_solve tril tril_indices triu triu_indices true_divide trunc uint8 unbind unflatten
unique unique_consecutive unravel_index unsqueeze utils vander var var_mean vdot view_as_complex
view_as_real vmap vsplit vstack where xlogy zeros zeros_like
"""
_TORCH_NN = """
AdaptiveAvgPool1d AdaptiveAvgPool2d AvgPool1d AvgPool2d BCELoss BCEWithLogitsLoss BatchNorm1d
BatchNorm2d Bilinear CELU CTCLoss ConstantPad1d Conv1d Conv2d Conv3d ConvTranspose1d
ConvTranspose2d CosineEmbeddingLoss CosineSimilarity CrossEntropyLoss Dropout Dropout2d ELU
Embedding EmbeddingBag Flatten Fold GELU GRU GRUCell GaussianNLLLoss GroupNorm Hardshrink
Hardsigmoid Hardswish Hardtanh HuberLoss Identity InstanceNorm1d InstanceNorm2d KLDivLoss L1Loss
LSTM LSTMCell LayerNorm LazyLinear LeakyReLU Linear LogSigmoid LogSoftmax MSELoss MarginRankingLoss
MaxPool1d MaxPool2d Mish Module ModuleDict ModuleList MultiheadAttention NLLLoss PReLU
Parameter ParameterDict ParameterList PixelShuffle PoissonNLLLoss RNN RNNCell RReLU ReLU ReLU6
ReflectionPad2d SELU Sequential SiLU Sigmoid SmoothL1Loss Softmax Softmax2d Softmin Softplus
Softshrink Softsign Tanh Tanhshrink Threshold Transformer TransformerDecoder
TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer TripletMarginLoss Unflatten
Unfold Upsample ZeroPad2d functional init parallel utils
"""
_TORCH_NN_FUNCTIONAL = """
adaptive_avg_pool2d adaptive_max_pool2d avg_pool2d batch_norm binary_cross_entropy
binary_cross_entropy_with_logits celu conv1d conv2d conv_transpose2d cosine_similarity
cross_entropy dropout elu embedding gelu glu grid_sample group_norm gumbel_softmax hardswish
hardtanh huber_loss instance_norm interpolate kl_div l1_loss layer_norm leaky_relu linear
log_softmax logsigmoid max_pool2d mish mse_loss nll_loss normalize one_hot pad pairwise_distance
pixel_shuffle prelu relu relu6 scaled_dot_product_attention selu sigmoid silu smooth_l1_loss
softmax softmin softplus softsign tanh threshold triplet_margin_loss unfold
"""
_TORCH_OPTIM = """
ASGD Adadelta Adafactor Adagrad Adam AdamW Adamax LBFGS NAdam Optimizer RAdam RMSprop Rprop SGD
SparseAdam lr_scheduler swa_utils
"""

_TORCH_LR_SCHEDULER = """
ChainedScheduler ConstantLR CosineAnnealingLR CosineAnnealingWarmRestarts CyclicLR ExponentialLR
LRScheduler LambdaLR LinearLR MultiStepLR MultiplicativeLR OneCycleLR PolynomialLR
ReduceLROnPlateau SequentialLR StepLR
"""
_TORCH_UTILS_DATA = """
BatchSampler ChainDataset ConcatDataset DataLoader Dataset DistributedSampler IterableDataset
RandomSampler Sampler SequentialSampler StackDataset Subset SubsetRandomSampler TensorDataset
WeightedRandomSampler default_collate get_worker_info random_split
"""

TORCH_API: dict[str, frozenset[str]] = {
    "torch": frozenset(_TORCH.split()),
    "torch.nn": frozenset(_TORCH_NN.split()),
    "torch.nn.functional": frozenset(_TORCH_NN_FUNCTIONAL.split()),
    "torch.optim": frozenset(_TORCH_OPTIM.split()),
    "torch.optim.lr_scheduler": frozenset(_TORCH_LR_SCHEDULER.split()),
    "torch.utils.data": frozenset(_TORCH_UTILS_DATA.split()),
}
