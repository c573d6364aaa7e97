package io.dssync.train;

import io.dssync.metrics.StageMetrics;

/**
 * User code called on the driver after every stage of a fit, with the stage's metrics (validation values when the
 * stage was evaluated), after its checkpoint is written and its progress reported. Through {@link FitControl} it
 * can stop the fit or set the learning rate of the stages that follow. An exception it throws ends the fit with a
 * {@link io.dssync.errors.DsSyncException} of kind {@code CALLBACK}; the checkpoints written so far stay as they are.
 *
 * <p>Register with {@link DsSyncTrainer#withCallback} or the Spark ML estimators' {@code setCallback}.
 */
@FunctionalInterface
public interface StageCallback {
  void afterStage(StageMetrics metrics, FitControl control);
}
