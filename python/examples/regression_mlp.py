"""A small MLP for tabular regression, e.g. sklearn's diabetes data (10 standardized features,
one target). No BatchNorm: its file has no averaged buffers, the other case of the contract."""

import torch
from torch import Tensor, nn


class RegressionMlp(nn.Module):
    def __init__(self, inputs: int = 10, hidden: int = 32, outputs: int = 1):
        super().__init__()
        self.hidden1 = nn.Linear(inputs, hidden)
        self.hidden2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, outputs)

    def forward(self, x: Tensor) -> Tensor:
        y = torch.relu(self.hidden1(x))
        y = torch.relu(self.hidden2(y))
        return self.out(y)
