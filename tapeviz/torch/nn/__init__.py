"""``torch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``.

``import tapeviz.torch.nn as nn`` works on its own; ``tapeviz.torch`` exposes it as ``torch.nn``.
A module's forward runs in an engine name scope named after it and its parameters' engine
tensors are named by ``named_parameters()``, so the graph folds modules and the timeline names
parameters (``fc1.weight``) as torch does.
"""

from __future__ import annotations

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

__all__ = [
    "ELU", "GELU", "SELU", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Buffer",
    "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "Hardtanh", "HuberLoss", "Identity",
    "L1Loss", "LayerNorm", "LeakyReLU", "Linear", "LogSigmoid", "LogSoftmax", "MSELoss", "Module",
    "ModuleDict", "ModuleList", "NLLLoss", "Parameter", "ParameterList", "ReLU", "ReLU6",
    "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "Unflatten",
    "functional", "init", "utils",
]  # fmt: skip
