package io.dssync.models;

import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;
import io.dssync.errors.Errors;

/**
 * "cnn": two conv blocks (3x3 conv with padding 1 so H and W are kept, BatchNorm, ReLU, 2x2 max
 * pool) of 32 and 64 filters, then dense 128 ReLU and numClasses logits. Works for any C x H x W
 * with H, W >= 4 (1x28x28 Fashion-MNIST, 3x32x32 CIFAR-10). No dropout, so a step is a
 * deterministic function of the state and the batch.
 */
final class SmallCnn {
  static final String NAME = "cnn";

  private SmallCnn() {}

  static Block build(ModelSpec spec) {
    // Two 2x2 pools need at least 4 pixels per side, or the second pool has nothing to pool.
    if (spec.height() < 4 || spec.width() < 4) {
      throw Errors.invalidSetting("model input height x width", spec.height() + "x" + spec.width(),
          "the cnn model needs at least 4x4 pixels", "Use the mlp model for smaller inputs.");
    }
    return new SequentialBlock()
        .add(convBlock(32))
        .add(convBlock(64))
        .add(Blocks.batchFlattenBlock())
        .add(Linear.builder().setUnits(128).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(spec.outputSize()).build());
  }

  private static Block convBlock(int filters) {
    return new SequentialBlock()
        .add(Conv2d.builder()
            .setKernelShape(new Shape(3, 3))
            .optPadding(new Shape(1, 1))
            .setFilters(filters)
            .build())
        .add(BatchNorm.builder().build())
        .add(Activation.reluBlock())
        .add(Pool.maxPool2dBlock(new Shape(2, 2)));
  }
}
