package io.dssync.train;

import io.dssync.models.ModelSpec;
import io.dssync.replica.OptimizerSpec;
import io.dssync.schedule.SchedulePlan;
import java.io.Serializable;

/**
 * Everything a worker needs to run one barrier stage: steps [firstStep, endStep), the schedule
 * plan (computed identically everywhere from its seed and the ranks' hosts), model, optimizer and learning-rate settings.
 */
public record StageWork(
    String runId,
    int stage,
    long firstStep,
    long endStep,
    SchedulePlan schedule,
    ModelSpec model,
    OptimizerSpec optimizer,
    LearningRateSchedule learningRate,
    int batchSize,
    long seed,
    long syncTimeoutMs)
    implements Serializable {
  public int steps() {
    return (int) (endStep - firstStep);
  }
}
