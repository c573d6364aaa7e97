package io.dssync.models;

import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;

/**
 * "mlp": a multi-layer perceptron, flatten -> 256 ReLU -> 128 ReLU -> numClasses logits. The
 * smallest model of the project; used for quick runs and collective benchmarks (~235k parameters on
 * 28x28 input).
 */
final class Mlp {
  static final String NAME = "mlp";

  private Mlp() {}

  static Block build(ModelSpec spec) {
    return new SequentialBlock()
        .add(Blocks.batchFlattenBlock())
        .add(Linear.builder().setUnits(256).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(128).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(spec.outputSize()).build());
  }
}
