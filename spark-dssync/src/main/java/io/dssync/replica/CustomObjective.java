package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.errors.Errors;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;

/**
 * The TorchScript file's own loss, {@code dssync_loss(output, label)}: it gets the model's output and the
 * labels as float32 (batch, label width) and returns the mean loss of the batch. The metric is that loss on
 * the test set; the accuracy is NaN (the file alone knows what its outputs mean).
 */
final class CustomObjective extends Objective {
  private final ReplicaModel model;

  CustomObjective(ReplicaModel model) {
    this.model = model;
  }

  @Override
  NDArray loss(ModelOutput out) {
    NDArray loss = model.ownLoss(out.output(), labels(out));
    if (loss.getShape().size() != 1) {
      throw Errors.invalidFlag("loss", "custom", "dssync_loss returned a tensor of shape " + loss.getShape()
          + ", not one number", "Return the mean loss of the batch (a 0-d tensor) from dssync_loss.");
    }
    return loss.reshape();
  }

  @Override
  int predictionWidth(ModelSpec spec) {
    return ((TorchScriptModel) spec.modelSource()).metadata().outputSize();
  }

  @Override
  float[] probabilities(ModelOutput out) {
    return out.output().toFloatArray();
  }

  @Override
  Scorer scorer() {
    return new Scorer() {
      private double lossSum;
      private long count;

      @Override
      public void add(ModelOutput out) {
        lossSum += loss(out).getFloat() * (double) out.n();
        count += out.n();
      }

      @Override
      public Evaluation result() {
        double mean = count == 0 ? Double.NaN : lossSum / count;
        return new Evaluation(mean, Double.NaN, count, LossKind.CUSTOM.metricName(), mean);
      }
    };
  }
}
