"""Losses to export with a model (--loss losses:NAME), for the tests of a file's own dssync_loss.

Each takes the model's output and the labels as float32 (batch, label_width) and returns the mean
loss of the batch; class labels are exact integers in column 0.
"""

import torch
from torch import Tensor
from torch.nn import functional as F


def cross_entropy(output: Tensor, label: Tensor) -> Tensor:
    """Softmax cross-entropy, the loss the engine computes itself for class labels."""
    return F.cross_entropy(output, label[:, 0].long())


def sqrt_of_excess_cross_entropy(output: Tensor, label: Tensor) -> Tensor:
    """Finite while a batch's cross-entropy exceeds 0.7, NaN once the model has learnt that much: a loss
    that breaks partway through training, as a user's loss can."""
    return torch.sqrt(F.cross_entropy(output, label[:, 0].long()) - 0.7)
