package io.dssync.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.models.ModelSpec;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.StepFootprint;
import io.dssync.schedule.ProbeScope;
import io.dssync.schedule.RackLayout;
import io.dssync.schedule.SchedulePlan;
import io.dssync.schedule.ScheduleSpec;
import java.io.Serializable;

/**
 * Everything a worker needs to run one barrier stage: steps [firstStep, endStep), the schedule
 * plan (computed identically everywhere from its seed and the ranks' hosts), model, optimizer and
 * learning-rate settings, and whether to probe the links first (the auto schedule), in about how many ms at most
 * ({@code probeBudgetMs}), with each pair's bandwidth messages starting at
 * {@code probeStartFloats[rank][peer]} floats (null: the first probe), in the rounds
 * {@code probeScope} gives for the stage's hosts (null when the stage does not probe); with a
 * {@code firstPlanSpec} (the auto spec for the stage's N) the ranks then make auto's first plan
 * themselves ({@link FirstPlan}) and run it from the stage's first step, judging candidates in
 * stages of {@code stepsPerStage} steps, the fit's (as the driver does when it re-plans); its group
 * averages run {@code allReduce}, with {@code crossRack} on every average across the racks of
 * {@code racks} (the schedule's own racks where it has them). With a {@code memoryCheck} (the fit's
 * first stage, where the driver cannot see the hosts) each rank first checks that the steps of
 * its host's ranks fit in that host's memory ({@link StepMemoryCheck}). Where all ranks average (the stage end,
 * and the steps whose group is everyone), {@code outer} moves the consensus ({@link OuterOptimizer}).
 */
record StageWork(
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
    long syncTimeoutMs,
    boolean probeLinks,
    double probeBudgetMs,
    int[][] probeStartFloats,
    ProbeScope probeScope,
    ScheduleSpec firstPlanSpec,
    int stepsPerStage,
    AllReduceAlgorithm allReduce,
    CrossRackPrecision crossRack,
    RackLayout racks,
    StepFootprint memoryCheck,
    OuterOptimizer outer)
    implements Serializable {
  /** A stage that does not probe the links. */
  public StageWork(String runId, int stage, long firstStep, long endStep, SchedulePlan schedule, ModelSpec model,
      OptimizerSpec optimizer, LearningRateSchedule learningRate, int batchSize, long seed, long syncTimeoutMs) {
    this(runId, stage, firstStep, endStep, schedule, model, optimizer, learningRate, batchSize, seed, syncTimeoutMs,
        false, 0, null, null, null, (int) (endStep - firstStep), AllReduceAlgorithm.AUTO,
        CrossRackPrecision.FP32, RackLayout.byHost(), null, OuterOptimizer.NONE);
  }

  public int steps() {
    return (int) (endStep - firstStep);
  }
}
