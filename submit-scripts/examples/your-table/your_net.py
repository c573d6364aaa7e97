"""The network your-table.sh trains: stands for your own nn.Module.

A small CNN for 1x28x28 images: two convolution blocks with BatchNorm (whose running statistics
the replicas average with the weights), dropout (active only in training mode, which the engine
sets per step), and a linear layer to the classes. Replace it with your module and change the
export line in your-table.sh (--module, --args, --input-shape, --output-size).
"""

from torch import Tensor, nn


class YourNet(nn.Module):
    def __init__(self, classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 7 * 7, classes))

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.features(x))
