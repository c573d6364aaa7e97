package io.dssync.train;

import java.io.Serializable;

/**
 * User code run inside every worker task after a step is computed and before the rank averages it with its group:
 * instrumentation, or a fault injected on purpose to test recovery (the reliability tests make one rank throw or
 * stop answering). It travels to the executors with the stage's tasks, so it must be serializable and on their
 * class path. An exception it throws fails the stage as any task failure does; a
 * {@link io.dssync.errors.DsSyncException} of a retryable kind reruns the stage from the last consensus
 * (see {@link DsSyncTrainer}).
 *
 * <p>Register with {@link DsSyncTrainer#withWorkerHook}.
 */
@FunctionalInterface
public interface WorkerHook extends Serializable {
  /** {@code attempt} counts the attempts of this stage from 1: a rerun after a failure is attempt 2. */
  void beforeAveraging(int rank, long step, int attempt);
}
