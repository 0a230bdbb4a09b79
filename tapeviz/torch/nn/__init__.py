"""``torch.nn``: modules, parameters, layers (convolution, pooling, ...), losses, ``functional``.

``import tapeviz.torch.nn as nn`` works on its own; ``tapeviz.torch`` exposes it as ``torch.nn``.
A module's forward runs in an engine name scope named after it and its parameters' engine
tensors are named by ``named_parameters()``, so the graph folds modules and the timeline names
parameters (``fc1.weight``) as torch does.
"""

from __future__ import annotations

from tapeviz.torch.nn import _net_view as _net_view  # (registers the Network view's watch)
from tapeviz.torch.nn import functional, init, utils
from tapeviz.torch.nn.activation import (
    ELU,
    GELU,
    SELU,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from tapeviz.torch.nn.containers import ModuleDict, ModuleList, ParameterList, Sequential
from tapeviz.torch.nn.conv import Conv1d, Conv2d
from tapeviz.torch.nn.layers import Dropout, Embedding, Flatten, Identity, Linear, Unflatten
from tapeviz.torch.nn.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from tapeviz.torch.nn.module import Module
from tapeviz.torch.nn.normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from tapeviz.torch.nn.parameter import Buffer, Parameter
from tapeviz.torch.nn.pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from tapeviz.torch.nn.recurrent import GRU, LSTM, RNN

__all__ = [
    "ELU", "GELU", "GRU", "LSTM", "RNN", "SELU", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
    "AvgPool1d", "AvgPool2d",
    "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Buffer", "Conv1d", "Conv2d",
    "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "Hardtanh", "HuberLoss", "Identity",
    "L1Loss", "LayerNorm", "LeakyReLU", "Linear", "LogSigmoid", "LogSoftmax", "MSELoss",
    "MaxPool1d", "MaxPool2d", "Module", "ModuleDict", "ModuleList", "NLLLoss", "Parameter",
    "ParameterList", "ReLU", "ReLU6", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax",
    "Softplus", "Tanh", "Unflatten", "functional", "init", "utils",
]  # fmt: skip
