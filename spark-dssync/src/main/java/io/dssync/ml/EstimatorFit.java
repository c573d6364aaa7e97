package io.dssync.ml;

import io.dssync.metrics.MetricsLog;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.SparkUiMetrics;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.StageCallback;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import org.apache.spark.sql.SparkSession;

/**
 * The training both Spark ML estimators run once they have read their input: the trainer with the estimator's
 * progress listener, the Spark UI's accumulators, the optional metrics file and the optional stage callback.
 */
final class EstimatorFit {
  private EstimatorFit() {}

  static TrainingResult run(SparkSession spark, TrainerConfig config, TrainingData data, String uid,
      ProgressListener progress, StageCallback callback, String metricsPath) {
    ProgressListener listener = progress.andThen(new SparkUiMetrics(spark.sparkContext()));
    try (MetricsLog log = metricsPath.isEmpty() ? null
        : MetricsLog.open(metricsPath, config.runHeader(uid), spark.sparkContext().hadoopConfiguration())) {
      DsSyncTrainer trainer = new DsSyncTrainer(spark, config)
          .withProgress(log == null ? listener : listener.andThen(log));
      if (callback != null) {
        trainer.withCallback(callback);
      }
      return trainer.fit(data);
    }
  }
}
