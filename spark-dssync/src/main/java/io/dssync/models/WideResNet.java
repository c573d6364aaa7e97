package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.ParallelBlock;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;
import io.dssync.errors.Errors;
import java.util.List;

/**
 * "wrn-d-k": Wide ResNet (Zagoruyko and Komodakis) of depth d and widening factor k. A 3x3 stem
 * conv of 16 filters, then three groups of (d-4)/6 pre-activation basic blocks (BN, ReLU, 3x3 conv,
 * BN, ReLU, 3x3 conv, plus the shortcut) of 16k, 32k and 64k filters, the second and third group
 * starting with stride 2; then BN, ReLU, global average pooling and the numClasses logits. A
 * shortcut is the identity, or a 1x1 conv where the width or resolution changes. No dropout, so a
 * step is a deterministic function of the state and the batch. Any C x H x W with H, W >= 4
 * (1x28x28 Fashion-MNIST: 28, 14, 7; 3x32x32 CIFAR-10: 32, 16, 8).
 */
final class WideResNet {
  static final String PREFIX = "wrn-";

  private WideResNet() {}

  static Block build(ModelSpec spec, int depth, int widen) {
    if (depth < 10 || (depth - 4) % 6 != 0) {
      throw Errors.invalidSetting("model", spec.name(), "WRN depth must be 6n+4 with n >= 1 (10, 16, 22, 28, ...)",
          "Use for example wrn-16-4 or wrn-10-2.");
    }
    if (widen < 1) {
      throw Errors.invalidSetting("model", spec.name(), "the widening factor k must be at least 1",
          "Use for example wrn-16-4.");
    }
    if (spec.height() < 4 || spec.width() < 4) {
      throw Errors.invalidSetting("model input height x width", spec.height() + "x" + spec.width(),
          "a WRN halves the resolution twice and needs at least 4x4 pixels", "Use the mlp model for smaller inputs.");
    }
    int blocks = (depth - 4) / 6;
    SequentialBlock net = new SequentialBlock().add(conv(16, 3, 1));
    int in = 16;
    int[] widths = {16 * widen, 32 * widen, 64 * widen};
    for (int g = 0; g < widths.length; g++) {
      for (int b = 0; b < blocks; b++) {
        int stride = g > 0 && b == 0 ? 2 : 1;
        net.add(basicBlock(in, widths[g], stride));
        in = widths[g];
      }
    }
    return net.add(BatchNorm.builder().build())
        .add(Activation.reluBlock())
        .add(Pool.globalAvgPool2dBlock())
        .add(Linear.builder().setUnits(spec.outputSize()).build());
  }

  private static Block basicBlock(int in, int out, int stride) {
    Block residual = new SequentialBlock()
        .add(BatchNorm.builder().build())
        .add(Activation.reluBlock())
        .add(conv(out, 3, stride))
        .add(BatchNorm.builder().build())
        .add(Activation.reluBlock())
        .add(conv(out, 3, 1));
    Block shortcut = in == out && stride == 1 ? Blocks.identityBlock() : conv(out, 1, stride);
    return new ParallelBlock(WideResNet::sum, List.of(residual, shortcut));
  }

  private static NDList sum(List<NDList> branches) {
    NDArray total = branches.get(0).singletonOrThrow().add(branches.get(1).singletonOrThrow());
    return new NDList(total);
  }

  /** A bias-free conv (BatchNorm follows) with "same" padding for odd kernels. */
  private static Block conv(int filters, int kernel, int stride) {
    return Conv2d.builder()
        .setKernelShape(new Shape(kernel, kernel))
        .optStride(new Shape(stride, stride))
        .optPadding(new Shape(kernel / 2, kernel / 2))
        .optBias(false)
        .setFilters(filters)
        .build();
  }
}
