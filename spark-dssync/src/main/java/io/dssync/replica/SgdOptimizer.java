package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.List;

/**
 * SGD as {@code torch.optim.SGD} (dampening 0) computes it, so PyTorch hyperparameters carry over:
 * L2 weight decay folded into the gradient, {@code d = g + wd*p}; momentum buffer {@code v = momentum*v + d};
 * then {@code p -= lr*v} (heavy ball) or, with Nesterov momentum, {@code p -= lr*(d + momentum*v)}. With
 * momentum 0 it is plain SGD and keeps no state; otherwise the state is the buffers in parameter order.
 */
final class SgdOptimizer extends LocalOptimizer {
  private final float momentum;
  private final float weightDecay;
  private final boolean nesterov;
  private final FlatTensors velocity;

  SgdOptimizer(OptimizerSpec spec, boolean nesterov, List<NDArray> params, NDManager manager) {
    super(spec);
    this.momentum = (float) spec.momentum();
    this.weightDecay = (float) spec.weightDecay();
    this.nesterov = nesterov;
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
        // A zero buffer times momentum plus d is d: PyTorch's first step, which copies d into the buffer.
        NDArray v = velocity.arrays().get(i).muli(momentum).addi(d);
        d = nesterov ? d.add(v.mul(momentum)) : v;
      }
      p.subi(d.mul(learningRate));
    }
  }

  @Override
  FlatTensors state() {
    return velocity;
  }
}
