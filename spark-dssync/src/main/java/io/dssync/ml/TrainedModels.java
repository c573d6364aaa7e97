package io.dssync.ml;

import io.dssync.train.TrainingResult;
import org.apache.spark.ml.util.MLWritable;

/** The Spark ML model of a training result, by its loss: what {@code dssync train --save-model} writes. */
public final class TrainedModels {
  private TrainedModels() {}

  /**
   * A {@link DsSyncRegressionModel} for mse, l1 and huber; otherwise a {@link DsSyncClassificationModel} (which
   * for a loss that scores no classes still saves, with model.pt and the weights, but refuses to transform).
   */
  public static MLWritable of(TrainingResult result) {
    return result.model().spec().lossKind().regression() ? DsSyncRegressionModel.fromTraining(result)
        : DsSyncClassificationModel.fromTraining(result);
  }
}
