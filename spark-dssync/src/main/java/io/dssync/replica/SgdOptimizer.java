package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.List;

/**
 * SGD with heavy-ball momentum and L2 weight decay folded into the gradient (PyTorch's convention):
 * {@code v = momentum*v + (g + wd*p); p -= lr*v}. With momentum 0 it is plain SGD and keeps no state.
 */
final class SgdOptimizer extends LocalOptimizer {
  private final float momentum;
  private final float weightDecay;
  private final FlatTensors velocity;

  SgdOptimizer(OptimizerSpec spec, List<NDArray> params, NDManager manager) {
    this.momentum = (float) spec.momentum();
    this.weightDecay = (float) spec.weightDecay();
    this.velocity = new FlatTensors(momentum == 0 ? List.of() : zerosLike(params, manager));
  }

  @Override
  void update(List<NDArray> params, List<NDArray> grads, float learningRate, long step) {
    for (int i = 0; i < params.size(); i++) {
      NDArray p = params.get(i);
      NDArray d = grads.get(i);
      if (weightDecay != 0) {
        d = d.add(p.mul(weightDecay));
      }
      if (momentum != 0) {
        d = velocity.arrays().get(i).muli(momentum).addi(d);
      }
      p.subi(d.mul(learningRate));
    }
  }

  @Override
  FlatTensors state() {
    return velocity;
  }
}
