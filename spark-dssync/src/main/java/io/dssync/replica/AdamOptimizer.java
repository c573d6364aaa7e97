package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.ArrayList;
import java.util.List;

/**
 * Adam with bias correction and <em>decoupled</em> weight decay: AdamW as {@code torch.optim.AdamW}
 * computes it ({@code p *= 1 - lr*wd} before the Adam step, so decay does not pass through the moment
 * estimates). It serves both "adamw" and "adam": the library's Adam always decayed this way, so runs
 * that name "adam" keep their results. State: all first moments in parameter order, then all second
 * moments.
 */
final class AdamOptimizer extends LocalOptimizer {
  private final double beta1;
  private final double beta2;
  private final float epsilon;
  private final double weightDecay;
  private final List<NDArray> m;
  private final List<NDArray> v;
  private final FlatTensors state;

  AdamOptimizer(OptimizerSpec spec, List<NDArray> params, NDManager manager) {
    super(spec);
    this.beta1 = spec.beta1();
    this.beta2 = spec.beta2();
    this.epsilon = (float) spec.epsilon();
    this.weightDecay = spec.weightDecay();
    this.m = zerosLike(params, manager);
    this.v = zerosLike(params, manager);
    List<NDArray> all = new ArrayList<>(m);
    all.addAll(v);
    this.state = new FlatTensors(all);
  }

  @Override
  void update(List<NDArray> params, List<NDArray> grads, float learningRate, long step) {
    // Computed in double from the step count, so a replica restored with setOptimizerSteps
    // continues with exactly the same corrections.
    float correction1 = (float) (1 - Math.pow(beta1, step));
    float correction2 = (float) (1 - Math.pow(beta2, step));
    float stepSize = learningRate / correction1;
    for (int i = 0; i < params.size(); i++) {
      NDArray p = params.get(i);
      NDArray g = grads.get(i);
      if (weightDecay != 0) {
        p.muli((float) (1 - learningRate * weightDecay));
      }
      m.get(i).muli((float) beta1).addi(g.mul((float) (1 - beta1)));
      v.get(i).muli((float) beta2).addi(g.square().muli((float) (1 - beta2)));
      NDArray denominator = v.get(i).div(correction2).sqrt().addi(epsilon);
      p.subi(m.get(i).div(denominator).muli(stepSize));
    }
  }

  @Override
  FlatTensors state() {
    return state;
  }
}
