package io.dssync.replica;

import io.dssync.models.ModelSpec;

/** Creates model replicas. The only engine today is DJL on PyTorch (CPU). */
public final class Replicas {
  private Replicas() {}

  /**
   * A replica of {@code model} with parameters initialised from {@code model.seed()} and a fresh
   * {@code optimizer}; the PyTorch engine uses at most {@code threads} intra-op threads (the value
   * is fixed per JVM at the first call and only ever lowered by later calls).
   */
  public static ModelReplica create(ModelSpec model, OptimizerSpec optimizer, int threads) {
    return new DjlReplica(model, optimizer, threads);
  }
}
