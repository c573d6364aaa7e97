"""The built-in "cnn" model (io.dssync.models.SmallCnn) written as a PyTorch module.

Same layers, shapes and activations, so a TorchScript export of it and the built-in block do the
same arithmetic and have the same parameter count (421,834 for 1x28x28 and 10 classes): two
blocks of 3x3 convolution with padding 1 (with bias, as DJL's Conv2d), BatchNorm, ReLU and 2x2
max pooling, of 32 and 64 filters, then dense 128 with ReLU and a linear layer to the classes.
No dropout. Used by the TorchScript-versus-built-in throughput benchmark.
"""

from torch import Tensor, nn


def _conv_block(in_channels: int, filters: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, filters, 3, padding=1),
        nn.BatchNorm2d(filters),
        nn.ReLU(),
        nn.MaxPool2d(2),
    )


class SmallCnn(nn.Module):
    def __init__(self, classes: int = 10, channels: int = 1, height: int = 28, width: int = 28):
        super().__init__()
        # Each 2x2 pool floors odd sides, as DJL's max pool does.
        flat = 64 * ((height // 2) // 2) * ((width // 2) // 2)
        self.features = nn.Sequential(_conv_block(channels, 32), _conv_block(32, 64))
        self.fc1 = nn.Linear(flat, 128)
        self.fc2 = nn.Linear(128, classes)

    def forward(self, x: Tensor) -> Tensor:
        y = self.features(x).flatten(1)
        return self.fc2(self.fc1(y).relu())
