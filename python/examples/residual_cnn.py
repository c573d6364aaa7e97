"""A small residual CNN for 1x28x28 grey images (Fashion-MNIST), 10 classes by default.

Sized to be cheap on one CPU thread while reaching about 0.90 test accuracy on Fashion-MNIST in
three epochs of SGD with momentum 0.9 at lr 0.05, batch 64: a 16-channel stem at 28x28, one
residual block of 32 channels at 14x14 (the shortcut is a 1x1 convolution because the width
changes), pooling to 7x7, a 64-channel convolution there, dropout and one linear layer.

The 7x7 convolution is what makes lr 0.05 work: without it (block -> pool -> linear) the same
schedule ended at 0.87-0.88 with a training loss stuck near 0.38, against 0.90 and 0.26 with it,
for about 1.5 times the compute. BatchNorm after every convolution gives the file running
statistics to average, and dropout makes train and eval mode differ, which is what the export
checks exercise.
"""

import torch
from torch import Tensor, nn


class ResidualBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.shortcut = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, 1, bias=False),
            nn.BatchNorm2d(out_channels),
        )

    def forward(self, x: Tensor) -> Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + self.shortcut(x))


class ResidualCnn(nn.Module):
    def __init__(self, classes: int = 10, width: int = 16, dropout: float = 0.25):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 28 -> 14
        )
        self.block = ResidualBlock(width, 2 * width)
        self.pool = nn.MaxPool2d(2)  # 14 -> 7
        self.head = nn.Sequential(
            nn.Conv2d(2 * width, 4 * width, 3, padding=1, bias=False),
            nn.BatchNorm2d(4 * width),
            nn.ReLU(),
        )
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(4 * width * 7 * 7, classes)

    def forward(self, x: Tensor) -> Tensor:
        y = self.head(self.pool(self.block(self.stem(x))))
        return self.fc(self.dropout(torch.flatten(y, 1)))
