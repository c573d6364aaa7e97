package io.dssync.train;

import io.dssync.errors.Errors;
import java.util.Optional;

/**
 * What a {@link StageCallback} may do after a stage: read where the fit is, ask it to stop (the consensus of this
 * stage, or the best one under early stopping, is the result), or set the learning rate for every following step,
 * replacing the schedule's values until it is set again.
 */
public final class FitControl {
  private final int stage;
  private final int stages;
  private final double nextLearningRate;
  private String stopReason;
  private double learningRate = Double.NaN;

  FitControl(int stage, int stages, double nextLearningRate) {
    this.stage = stage;
    this.stages = stages;
    this.nextLearningRate = nextLearningRate;
  }

  /** The stage that just ended, counted from 0 as {@link io.dssync.metrics.StageMetrics#stage()} is. */
  public int stage() {
    return stage;
  }

  /** How many stages the fit runs in all unless it is stopped. */
  public int stages() {
    return stages;
  }

  /** The learning rate of the next stage's first step, as the schedule (or an earlier callback) sets it. */
  public double learningRate() {
    return Double.isNaN(learningRate) ? nextLearningRate : learningRate;
  }

  /** Ends the fit after this stage; {@code reason} appears in the training result and the logs. */
  public void requestStop(String reason) {
    this.stopReason = reason == null || reason.isBlank() ? "a callback asked to stop" : reason;
  }

  /** Trains every following step at {@code value} (finite, > 0) instead of the schedule's rate. */
  public void setLearningRate(double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw Errors.invalidSetting("learning rate set by a callback", value, "it must be finite and > 0",
          "Return a positive rate from the callback, or leave the schedule's.");
    }
    this.learningRate = value;
  }

  Optional<String> stopReason() {
    return Optional.ofNullable(stopReason);
  }

  /** The rate a callback set, NaN when none did. */
  double learningRateSet() {
    return learningRate;
  }
}
