package io.dssync.train;

/**
 * A worker task that fails on purpose where {@link TestFault} says, for the reliability tests.
 * Production stages run a plain {@link WorkerTask}: the fault is not a field of every task.
 */
final class FaultInjectingTask extends WorkerTask {
  private final TestFault fault;

  private FaultInjectingTask(StageWork work, StageStart start, TestFault fault) {
    super(work, start);
    this.fault = fault;
  }

  /** The task for a stage: a plain one unless a test fault is set for it. */
  static WorkerTask orPlain(StageWork work, StageStart start, TestFault fault) {
    return fault == TestFault.NONE ? new WorkerTask(work, start) : new FaultInjectingTask(work, start, fault);
  }

  @Override
  void beforeAveraging(int rank, long step) {
    fault.beforeAveraging(rank, step);
  }
}
