package io.dssync.train;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.TrainingErrors;
import io.dssync.metrics.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.SparkSession;

/**
 * The driver side of DS-Sync training. Training runs as a sequence of barrier stages of K steps;
 * the driver owns the consensus model between stages (evaluation, progress, checkpoints) and stays
 * off the per-step data path: workers exchange parameters with each other through the transport.
 *
 * <p>A stage that fails because an executor or a barrier task was lost (or a peer timed out) is
 * run again from the same consensus, up to {@code maxStageAttempts} times: the consensus did not
 * change, so no step is counted twice. Data, configuration and divergence errors are not retried.
 *
 * <p>A trainer holds settings only; each {@link #fit} keeps its state apart, so one trainer may fit again.
 */
public final class DsSyncTrainer {
  private final SparkSession spark;
  private final TrainerConfig config;
  private ProgressListener progress = ProgressListener.printing();
  private final List<StageCallback> callbacks = new ArrayList<>();
  private WorkerHook workerHook;

  public DsSyncTrainer(SparkSession spark, TrainerConfig config) {
    this.spark = spark;
    this.config = config;
  }

  public DsSyncTrainer withProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  /** Adds a callback run on the driver after every stage, in the order added; see {@link StageCallback}. */
  public DsSyncTrainer withCallback(StageCallback callback) {
    callbacks.add(Objects.requireNonNull(callback, "callback"));
    return this;
  }

  /** Sets the code every worker runs between a step and its averaging; see {@link WorkerHook}. */
  public DsSyncTrainer withWorkerHook(WorkerHook hook) {
    this.workerHook = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /**
   * Trains on {@code data}. A non-finite loss stops training with a {@link DsSyncException} whose
   * message names the step; the last consensus model is kept as its partial result. Retries,
   * skipped records and the resume step come back in the {@link TrainingResult}.
   */
  public TrainingResult fit(TrainingData data) {
    try {
      return newFit().run(data);
    } catch (Exception e) {
      // Spark's own waits (the sharding job, broadcasts) throw InterruptedException undeclared.
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        DsSyncException interrupted = TrainingErrors.interrupted("outside a training stage", -1);
        interrupted.initCause(e);
        throw interrupted;
      }
      throw e;
    }
  }

  /** A fit with this trainer's settings, to run once. */
  Fit newFit() {
    return new Fit(spark.sparkContext(), config, progress, callbacks, workerHook);
  }
}
