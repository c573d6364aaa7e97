package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import io.dssync.models.AutogradScalars;

/** Classification: softmax cross-entropy on (batch, numClasses) logits; metric accuracy. */
final class SoftmaxObjective extends Objective {
  @Override
  NDArray loss(ModelOutput out) {
    NDArray logits = out.output();
    // Mean over the batch of -log softmax(logits)[label], via a one-hot mask (no gather).
    return AutogradScalars.div(logits.logSoftmax(1).mul(oneHot(out)).sum().neg(), (float) out.n());
  }

  @Override
  Scorer scorer() {
    return new Scorer() {
      private double lossSum;
      private long correct;
      private long count;

      @Override
      public void add(ModelOutput out) {
        lossSum += loss(out).getFloat() * (double) out.n();
        long[] predicted = out.output().argMax(1).toLongArray();
        for (int i = 0; i < out.n(); i++) {
          correct += predicted[i] == (long) out.labels()[out.from() + i] ? 1 : 0;
        }
        count += out.n();
      }

      @Override
      public Evaluation result() {
        return count == 0 ? new Evaluation(0, 0, 0) : new Evaluation(lossSum / count, (double) correct / count, count);
      }
    };
  }

  @Override
  float[] probabilities(ModelOutput out) {
    return out.output().softmax(1).toFloatArray();
  }

  private static NDArray oneHot(ModelOutput out) {
    int classes = out.spec().numClasses();
    float[] mask = new float[out.n() * classes];
    for (int i = 0; i < out.n(); i++) {
      mask[i * classes + (int) out.labels()[out.from() + i]] = 1f;
    }
    return out.output().getManager().create(mask, new Shape(out.n(), classes));
  }
}
