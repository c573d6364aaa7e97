package io.dssync.train;

import java.io.Serializable;

/**
 * The outer optimizer applied where all N replicas average (DiLoCo, Douillard et al. 2023): instead of taking the
 * plain average, the new consensus is the previous one ({@code anchor}) moved by SGD with momentum along the
 * averaged change of the replicas. The outer gradient is {@code g = anchor - average}; the momentum buffer
 * {@code b = momentum * b + g}; the step is {@code g + momentum * b} (Nesterov, as PyTorch's SGD with
 * {@code nesterov=True}) or {@code b}; the new consensus {@code anchor - learningRate * step}.
 *
 * <p>Only the trainable parameters take the outer step (a BatchNorm running variance moved past the average could
 * turn negative); the buffers keep the plain average. The buffer is state of the fit, the same on every rank
 * because every rank computes it from the same floats: it is averaged nowhere, travels in the consensus after the
 * replicas' optimizer state, and is checkpointed with it. With learning rate 1 and momentum 0 the outer step is the
 * plain average, and the engine skips it, so that setting is today's training bit for bit.
 *
 * <p>With {@code inGroups} (the NoLoCo form, arXiv 2506.10911) the rule runs at every group average instead, each
 * replica from its own anchor (its state after its last group average) with its own buffer: members of a group
 * then hold different floats. The stage end stays a plain average of everything (model, optimizer state and the
 * buffers), so every stage starts from one consensus and one buffer. Groups of one average nothing and so leave
 * replicas untouched.
 */
record OuterOptimizer(double learningRate, double momentum, boolean nesterov, boolean inGroups)
    implements Serializable {
  static final OuterOptimizer NONE = new OuterOptimizer(1.0, 0.0, true, false);

  /** At averages of all ranks (DiLoCo). */
  OuterOptimizer(double learningRate, double momentum, boolean nesterov) {
    this(learningRate, momentum, nesterov, false);
  }

  /** Whether the outer step changes nothing: the consensus is the plain average. */
  boolean plainAverage() {
    return learningRate == 1.0 && momentum == 0.0;
  }

  /** Floats of outer state for a model of {@code trainable} trainable parameters: its momentum buffer. */
  int stateSize(int trainable) {
    return plainAverage() ? 0 : trainable;
  }

  /**
   * Replaces the first {@code trainable} floats of {@code average} (the replicas' mean) by the outer step from
   * {@code anchor} (the consensus at the previous global average), updating {@code buffer} in place.
   */
  void step(float[] anchor, float[] average, float[] buffer, int trainable) {
    float lr = (float) learningRate;
    float mu = (float) momentum;
    for (int i = 0; i < trainable; i++) {
      float g = anchor[i] - average[i];
      float b = mu * buffer[i] + g;
      buffer[i] = b;
      float update = nesterov ? g + mu * b : b;
      average[i] = anchor[i] - lr * update;
    }
  }
}
