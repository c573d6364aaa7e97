package io.dssync.train;

import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.errors.SparkFailures;
import io.dssync.errors.TrainingErrors;
import io.dssync.models.ModelSpec;
import io.dssync.replica.StepFootprint;
import io.dssync.schedule.ScheduleSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.reflect.ClassTag$;

/**
 * Runs a fit's stages as barrier jobs. A stage that fails because an executor or a barrier task was lost (or a
 * peer timed out) is run again from the same consensus, up to {@code maxStageAttempts} times: the consensus did
 * not change, so no step is counted twice. Data, configuration and divergence errors are not retried.
 */
final class StageRunner {
  private static final Logger LOG = LoggerFactory.getLogger(StageRunner.class);

  private final JavaSparkContext jsc;
  private final TrainerConfig config;
  private final WorkerPool pool;
  /** The auto schedule's state under --schedule auto, else null. */
  private final AutoSchedule auto;
  private final WorkerHook hook;
  private final String runId;
  private final ModelSpec shippedSpec;
  private final List<StageRetry> retries = new ArrayList<>();

  StageRunner(JavaSparkContext jsc, TrainerConfig config, WorkerPool pool, AutoSchedule auto, WorkerHook hook,
      String runId, ModelSpec shippedSpec) {
    this.jsc = jsc;
    this.config = config;
    this.pool = pool;
    this.auto = auto;
    this.hook = hook;
    this.runId = runId;
    this.shippedSpec = shippedSpec;
  }

  /**
   * One stage to run: steps [first, end) at {@code learningRate}, with {@code outer} where all ranks average;
   * {@code memoryCheck} for the ranks of its first attempt to check their hosts against (null: none); whether
   * the ranks probe their links for the auto schedule, in about {@code probeBudgetMs}.
   */
  record Stage(int index, long first, long end, LearningRateSchedule learningRate, OuterOptimizer outer,
      StepFootprint memoryCheck, boolean probe, double probeBudgetMs) {}

  /** The work of the stage attempt that succeeded, and what its workers returned. */
  record Done(StageWork work, List<WorkerResult> results) {}

  /** The stage attempts retried so far, in order. */
  List<StageRetry> retries() {
    return List.copyOf(retries);
  }

  /**
   * Runs {@code stage} from {@code consensus}, which came from the stage attempt {@code consensusFrom} (null while
   * only the driver has it), again after each failure a rerun can cure.
   */
  Done run(Stage stage, ConsensusState consensus, String consensusFrom) {
    int maxAttempts = config.get(TrainerConfig.MAX_STAGE_ATTEMPTS);
    for (int attempt = 1; ; attempt++) {
      StageWork work = work(stage, attempt);
      try {
        return new Done(work, runAttempt(work, attempt, consensus, consensusFrom));
      } catch (DsSyncException e) {
        if (!retryable(e.kind())) {
          throw e;
        }
        if (attempt >= maxAttempts) {
          throw TrainingErrors.stageAttemptsExhausted(stage.index() + 1, attempt, e);
        }
        retries.add(new StageRetry(stage.index() + 1, attempt, e.kind(), e.getMessage()));
        LOG.warn("dssync stage {} attempt {}/{} failed [{}]: {} -- retrying from the consensus after step {}",
            stage.index() + 1, attempt, maxAttempts, e.kind(), e.getMessage(), stage.first());
        // A lost executor is normally replaced by the cluster manager; elastic runs go on with fewer.
        pool.awaitSlotsAfterFailure(stage.first());
      }
    }
  }

  /** Failures a rerun can cure; bad data, bad settings and divergence would fail the same way again. */
  static boolean retryable(ErrorKind kind) {
    return kind == ErrorKind.STAGE_FAILED || kind == ErrorKind.SYNC_TIMEOUT || kind == ErrorKind.TRANSPORT;
  }

  private StageWork work(Stage stage, int attempt) {
    // A fresh run id per attempt: a retry's block ids can never meet the failed attempt's leftovers.
    String attemptRunId = attempt == 1 ? runId : runId + ".a" + attempt;
    int size = pool.size();
    ScheduleSpec firstPlan = auto == null ? null : auto.firstPlanSpec(size);
    // A retry on an elastic pool that shrank has no plan for its size: its ranks probe and plan now.
    boolean probes = stage.probe() || firstPlan != null;
    double budgetMs = stage.probe() ? stage.probeBudgetMs() : probes ? auto.firstProbeBudgetMs(size) : 0;
    return new StageWork(attemptRunId, stage.index(), stage.first(), stage.end(), pool.plan(), shippedSpec,
        config.optimizerSpec(), stage.learningRate(), config.get(TrainerConfig.BATCH_SIZE),
        config.get(TrainerConfig.SEED), config.get(TrainerConfig.SYNC_TIMEOUT_MS), probes, budgetMs,
        probes ? auto.probeStartFloats(size) : null, probes ? auto.probeScope(size) : null, firstPlan,
        config.get(TrainerConfig.STEPS_PER_STAGE), config.allReduceAlgorithm(), config.crossRackPrecision(),
        config.rackLayout(), attempt == 1 ? stage.memoryCheck() : null, stage.outer());
  }

  private List<WorkerResult> runAttempt(StageWork work, int attempt, ConsensusState consensus,
      String consensusFrom) {
    SparkContext sc = jsc.sc();
    // A description, never a job group: notebooks such as Zeppelin own the job group.
    sc.setJobDescription(String.format("dssync stage %d: steps %d-%d, %s g=%d, %d workers",
        work.stage() + 1, work.firstStep(), work.endStep() - 1, config.get(TrainerConfig.SCHEDULE),
        config.groupSize(), pool.size()));
    // Executors fetch the broadcast only when they do not hold the consensus themselves.
    Broadcast<ConsensusState> start = jsc.broadcast(consensus);
    StageStart from = new StageStart(start, runId, consensusFrom, work.firstStep(),
        consensusFrom == null ? 0 : consensus.fingerprint());
    try {
      JavaFutureAction<List<WorkerResult>> job = pool.shards().rdd().barrier()
          .mapPartitions(new WorkerTask(work, from, hook, attempt), false,
              ClassTag$.MODULE$.apply(WorkerResult.class))
          .toJavaRDD().collectAsync();
      return awaitStage(job);
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      // The future wraps Spark's failure in an ExecutionException; its message is the useful one.
      Throwable failure = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      // Interrupted while waiting for the job, submitting it or broadcasting its start (Spark throws it
      // undeclared): training ends. Catching the exception cleared the flag; the caller still sees it.
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw Thread.currentThread().isInterrupted()
          ? TrainingErrors.interrupted(String.format("during stage %d (steps %d-%d), whose Spark job was cancelled",
              work.stage() + 1, work.firstStep(), work.endStep() - 1), work.firstStep() - 1)
          : SparkFailures.fromTaskFailure(failure);
    } finally {
      // destroy() asks the block manager synchronously: under an interrupt it would throw and hide
      // the stage's own outcome, so it runs with the flag cleared and the flag is set again after.
      boolean interrupted = Thread.interrupted();
      try {
        start.destroy();
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * Waits for a stage's job. Spark launches a barrier stage only when all its slots are free, and
   * waits for ever when an executor is lost after the job was submitted; so when the cluster offers
   * fewer slots than the stage needs for longer than --slot-wait-ms, the job is cancelled and the
   * stage fails (retryable: the retry waits for the slots, or an elastic pool shrinks). An interrupt
   * (a notebook's stop button) ends the wait, and the caller ends training; whatever ends the wait
   * before the job does cancels it, so no stage trains on after its fit is gone.
   */
  private List<WorkerResult> awaitStage(JavaFutureAction<List<WorkerResult>> job)
      throws InterruptedException, ExecutionException {
    long slotWaitNanos = config.get(TrainerConfig.SLOT_WAIT_MS) * 1_000_000L;
    long shortSince = -1;
    try {
      while (true) {
        try {
          return job.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          int available = pool.availableSlots();
          if (available >= pool.size()) {
            shortSince = -1;
          } else if (shortSince < 0) {
            shortSince = System.nanoTime();
          } else if (System.nanoTime() - shortSince > slotWaitNanos) {
            throw ClusterErrors.slotsLost(pool.size(), available, config.get(TrainerConfig.SLOT_WAIT_MS));
          }
        }
      }
    } finally {
      if (!job.isDone()) {
        job.cancel(true);
      }
    }
  }
}
