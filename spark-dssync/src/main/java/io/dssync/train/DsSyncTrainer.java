package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.data.frame.ShardedData;
import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import io.dssync.errors.SparkFailures;
import io.dssync.errors.TrainingErrors;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.models.ModelSpec;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.Replicas;
import io.dssync.replica.StepFootprint;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.SchedulePlan;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import io.dssync.spark.ExecutorHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.reflect.ClassTag$;

/**
 * The driver side of DS-Sync training. Training runs as a sequence of barrier stages of K steps;
 * the driver owns the consensus model between stages (evaluation, progress, checkpoints) and stays
 * off the per-step data path: workers exchange parameters with each other through the transport.
 *
 * <p>A stage that fails because an executor or a barrier task was lost (or a peer timed out) is
 * run again from the same consensus, up to {@code maxStageAttempts} times: the consensus did not
 * change, so no step is counted twice. Data, configuration and divergence errors are not retried.
 */
public final class DsSyncTrainer {
  private static final Logger LOG = LoggerFactory.getLogger(DsSyncTrainer.class);
  /** Settings that do not change what is computed, so a resumed run may change them. */
  private static final List<String> FREE_ON_RESUME = List.of(
      TrainerConfig.THREADS_PER_WORKER.name(), TrainerConfig.SYNC_TIMEOUT_MS.name(),
      TrainerConfig.SLOT_WAIT_MS.name(), TrainerConfig.EVAL_EVERY.name(), TrainerConfig.CHECKPOINT_DIR.name(),
      TrainerConfig.CHECKPOINT_EVERY.name(), TrainerConfig.CHECKPOINT_KEEP.name(), TrainerConfig.RESUME.name(),
      TrainerConfig.MAX_STAGE_ATTEMPTS.name(), TrainerConfig.MIN_WORKERS.name());

  private final SparkSession spark;
  private final TrainerConfig config;
  private ProgressListener progress = ProgressListener.printing();
  private final List<StageCallback> callbacks = new ArrayList<>();
  /** The auto schedule's state during a fit with --schedule auto, else null. */
  private AutoSchedule auto;
  private final List<Integer> startFetches = new ArrayList<>();

  public DsSyncTrainer(SparkSession spark, TrainerConfig config) {
    this.spark = spark;
    this.config = config;
  }

  /**
   * Per stage of the last fit: how many workers read their start state from the driver's broadcast
   * (all of them in local mode, where that costs no fetch).
   */
  List<Integer> startFetches() {
    return List.copyOf(startFetches);
  }

  /** The last fit's auto schedule state (its plan and measurements), or null when it ran another schedule. */
  AutoSchedule autoSchedule() {
    return auto;
  }

  public DsSyncTrainer withProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  /** Adds a callback run on the driver after every stage, in the order added; see {@link StageCallback}. */
  public DsSyncTrainer withCallback(StageCallback callback) {
    callbacks.add(java.util.Objects.requireNonNull(callback, "callback"));
    return this;
  }

  /**
   * Trains on {@code data}. A non-finite loss stops training with a {@link DsSyncException} whose
   * message names the step; the last consensus model is kept as its partial result. Retries,
   * skipped records and the resume step come back in the {@link TrainingResult}.
   */
  public TrainingResult fit(TrainingData data) {
    try {
      return train(data);
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

  private TrainingResult train(TrainingData data) {
    SparkContext sc = spark.sparkContext();
    int n = config.workers();
    auto = config.scheduleKind() == ScheduleKind.AUTO
        ? new AutoSchedule(config.scheduleSpec(), config.get(TrainerConfig.REPLAN_EVERY),
        config.get(TrainerConfig.STEPS_PER_STAGE), config.allReduceAlgorithm(), config.crossRackPrecision()) : null;
    ClusterSlots.requireStaticAllocation(sc.conf());
    Duration slotWait = Duration.ofMillis(config.get(TrainerConfig.SLOT_WAIT_MS));
    ClusterSlots.await(sc, n, slotWait);
    if (config.usesRacks()) {
      config.rackLayout().requireListed(ExecutorHosts.of(sc));
    }
    Preflight.oversubscription(sc.master(), n, config.get(TrainerConfig.THREADS_PER_WORKER),
        Runtime.getRuntime().availableProcessors()).ifPresent(LOG::warn);
    config.ignoredSettings().forEach(LOG::warn);
    FileErrors.unsupportedJava(Runtime.version().feature(), org.apache.hadoop.util.VersionInfo.getVersion())
        .ifPresent(LOG::warn);
    Map<String, String> executorEnv = new java.util.HashMap<>();
    for (scala.Tuple2<String, String> e : sc.conf().getAllWithPrefix("spark.executorEnv.")) {
      executorEnv.put(e._1(), e._2());
    }
    Preflight.allocatorWarning(sc.master(), executorEnv, System.getenv(), System.getProperty("os.name"))
        .ifPresent(LOG::warn);
    EarlyStopping early = EarlyStopping.of(config);
    if (early.enabled() && data.test() == null && data.holdOut() == null) {
      throw Errors.invalidFlag(TrainerConfig.EARLY_STOP_PATIENCE.name(), early.patience(),
          "early stopping watches validation data and this fit has none",
          "Pass --test-data, --validation-fraction or --validation-col (Spark ML: setValidationFraction or"
              + " setValidationIndicatorCol), or set it to 0.");
    }
    if (early.enabled() && config.get(TrainerConfig.SWA_START) > 0) {
      throw Errors.invalidFlag(TrainerConfig.SWA_START.name(), config.get(TrainerConfig.SWA_START),
          "SWA makes the result the mean of the late stages' models and early stopping the best stage's; one fit"
              + " cannot return both", "Set either --swa-start or --early-stop-patience to 0.");
    }
    ModelSpec spec = ModelFiles.spec(config, data, ModelFiles.source(config, sc.hadoopConfiguration()));
    Labels labels = spec.lossKind().classLabels() ? Labels.classes(data.numClasses())
        : Labels.values(data.labelWidth());
    if (data.test() != null) {
      ShardedData.checkTestSplit(data.test()); // before the shards are cut: nothing to release yet
    }
    boolean skipBad = "skip".equals(config.get(TrainerConfig.BAD_RECORDS));
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    WorkerPool pool;
    long examples;
    LabeledArrays test;
    long inputRows = 0;
    try {
      Dataset<Row> input = data.frame();
      if (skipBad) {
        inputRows = input.count();
        input = DataFrames.dropBadRecords(input, data.featuresCol(), data.labelCol(), data.featureSize(), labels);
      }
      Dataset<Row> frame = input;
      // Examples already in this JVM are cut into shards directly (same shards, without reading the
      // rows back); skipping bad records needs the frame's row-by-row path. A hold-out is taken while
      // the frame's shards are cut; the first cut's is kept (a re-shard holds out the same examples).
      AtomicReference<LabeledArrays> heldOut = new AtomicReference<>();
      IntFunction<JavaRDD<LabeledArrays>> cutting = data.inMemory() != null && !skipBad
          ? size -> ShardedData.shard(jsc, data.inMemory(), size)
          : size -> {
            ShardedData.Cut cut = ShardedData.shard(frame, data.featuresCol(), data.labelCol(), data.featureSize(),
                labels, size, data.holdOut());
            heldOut.compareAndSet(null, cut.heldOut());
            return cut.training();
          };
      IntFunction<JavaRDD<LabeledArrays>> sharding = size -> {
        try {
          return cutting.apply(size);
        } finally {
          dropExecutorCopies(data.inMemory());
        }
      };
      pool = new WorkerPool(WorkerPool.Slots.of(sc), n, config.minWorkers(), slotWait, sharding,
          this::schedulePlan);
      examples = pool.shards().map(LabeledArrays::size).reduce(Integer::sum);
      test = data.holdOut() == null ? data.test() : requireHeldOut(heldOut.get(), data.holdOut(), examples);
    } catch (DsSyncException e) {
      throw e;
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      // Bad records are found on executors; their DsSyncException reaches us as text.
      throw SparkFailures.fromTaskFailure(e, "Cutting the training data into shards");
    }
    if (test != null) {
      Preflight.evaluationAllocatorWarning(sc.master(), System.getenv(), System.getProperty("os.name"))
          .ifPresent(LOG::warn);
    }
    long skippedRecords = skipBad ? inputRows - examples - (data.holdOut() == null ? 0 : test.size()) : 0;
    if (skippedRecords > 0) {
      LOG.warn("Skipped {} of {} input rows as bad records (--bad-records skip); executor logs show the first"
          + " few per partition", skippedRecords, inputRows);
    }
    int batch = config.get(TrainerConfig.BATCH_SIZE);
    Preflight.requireBatchFitsShard(batch, n, examples);
    long stepsPerEpoch = examples / ((long) n * batch);
    long totalSteps = stepsPerEpoch * config.get(TrainerConfig.EPOCHS);
    int k = config.get(TrainerConfig.STEPS_PER_STAGE);
    int stages = (int) ((totalSteps + k - 1) / k);
    String runId = UUID.randomUUID().toString().substring(0, 8);
    int threads = config.get(TrainerConfig.THREADS_PER_WORKER);
    int evalThreads = EvaluationThreads.of(sc.master(), sc.getConf().get("spark.submit.deployMode", "client"),
        sc.getConf().contains("spark.driver.cores") ? sc.getConf().get("spark.driver.cores") : null,
        Runtime.getRuntime().availableProcessors());
    SwaAverage swa = SwaAverage.of(config.get(TrainerConfig.SWA_START), totalSteps, k);
    LearningRates lr = new LearningRates(config.learningRateSchedule(totalSteps), swa.startStep(),
        config.get(TrainerConfig.SWA_LEARNING_RATE), Double.NaN);
    CheckpointStore store = checkpointStore(sc);
    // Once per run: a TorchScript file's digest is the same at every checkpoint.
    CheckpointedModel checkpointed = store == null ? null : CheckpointedModel.of(spec);

    List<StageMetrics> history = new ArrayList<>();
    long started = System.nanoTime();
    try (pool; ModelFiles.Shipped shipped = ModelFiles.ship(spec, jsc);
        ModelReplica driverReplica = Replicas.create(spec, config.optimizerSpec(), threads)) {
      StepFootprint ranksCheckMemory = Preflight.checkStepMemory(sc, pool, batch, driverReplica, spec);
      ConsensusState consensus = initialState(driverReplica);
      // The stage attempt whose end produced the consensus; null while only the driver has it.
      String consensusFrom = null;
      startFetches.clear();
      int firstStage = 0;
      long resumedAtStep = -1;
      Checkpoint resumed = resume(totalSteps, consensus);
      if (resumed != null) {
        consensus = resumed.toConsensusState();
        firstStage = resumed.stagesDone();
        resumedAtStep = resumed.step();
        early.restore(resumed.fit().earlyStop());
        lr.set(resumed.fit().learningRateOverride());
        swa.restore(resumed.fit().swaMean(), resumed.fit().swaCount());
      }
      Run run = new Run(jsc, pool, runId, spec, shipped.spec(), lr, batch, totalSteps, new ArrayList<>(),
          skippedRecords, resumedAtStep, ranksCheckMemory);
      FitStop stop = early.outOfPatience()
          ? new FitStop(firstStage - 1, early.progress().bestStage(), early.reasonOnResume()) : null;
      for (int stage = firstStage; stage < stages && stop == null; stage++) {
        long first = (long) stage * k;
        long end = Math.min(totalSteps, first + k);
        if (Thread.currentThread().isInterrupted()) {
          // Interrupted while the driver evaluated or checkpointed: no further stage starts.
          throw TrainingErrors.interrupted("before stage " + (stage + 1), first - 1)
              .withPartialResult(run.result(consensus, history, config.describe(), Double.NaN, null));
        }
        pool.fitToSlots(first);
        long t0 = System.nanoTime();
        double lastStageSeconds = history.isEmpty() ? Double.NaN : history.get(history.size() - 1).wallSeconds();
        // Training time as the benchmarks count it: the stages' wall times, not the evaluations between.
        double trainedSeconds = history.stream().mapToDouble(StageMetrics::wallSeconds).sum();
        boolean probe = auto != null
            && auto.probesAt(stage, firstStage, stages, lastStageSeconds, trainedSeconds, pool.size());
        double probeBudgetMs = probe
            ? auto.probeBudgetMs(lastStageSeconds, trainedSeconds, stages - stage, pool.size()) : 0;
        StageAttempt done = runWithRetries(run, stage, first, end, consensus, consensusFrom, history, probe,
            probeBudgetMs);
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<WorkerResult> results = done.results();
        consensus = ConsensusPart.assemble(results.stream().map(WorkerResult::consensus).toList());
        consensusFrom = done.work().runId();
        swa.add(end, consensus.state());
        int fetched = (int) results.stream().filter(WorkerResult::fetchedStart).count();
        startFetches.add(fetched);
        LOG.debug("dssync stage {}: {} of {} workers fetched the start state from the driver", stage + 1, fetched,
            results.size());
        boolean evaluate = test != null && ((stage + 1) % config.get(TrainerConfig.EVAL_EVERY) == 0
            || stage == stages - 1);
        Evaluation eval = evaluate ? evaluate(driverReplica, consensus, test, evalThreads) : null;
        StageMetrics metrics = StageSummaries.summarize(done.work(), results, seconds,
            (double) end / stepsPerEpoch, (long) results.size() * batch, eval);
        history.add(metrics);
        final int finished = stage;
        stop = early.observe(metrics, consensus.state())
            .map(why -> new FitStop(finished, early.progress().bestStage(), why)).orElse(null);
        boolean checkpointDue = (stage + 1) % config.get(TrainerConfig.CHECKPOINT_EVERY) == 0 || stage == stages - 1;
        if (store != null && (checkpointDue || stop != null)) {
          writeCheckpoint(store, checkpointed, end, stage, totalSteps, runId, consensus, early, lr, swa);
        }
        progress.onStage(metrics, StageSummaries.steps(done.work(), results), stages, totalSteps);
        if (stop == null && !callbacks.isEmpty()) {
          FitControl control = new FitControl(stage, stages, lr.at(end));
          runCallbacks(metrics, control, run.result(consensus, history, config.describe(), Double.NaN, null));
          if (!Double.isNaN(control.learningRateSet())) {
            lr.set(control.learningRateSet());
          }
          stop = control.stopReason().map(why -> new FitStop(finished, finished, why)).orElse(null);
          if (stop != null && store != null && !checkpointDue) {
            writeCheckpoint(store, checkpointed, end, stage, totalSteps, runId, consensus, early, lr, swa);
          }
        }
        if (stop == null && done.work().probeLinks() && auto.update(results, metrics.computeMsPerStep(),
            (long) consensus.state().length * Float.BYTES, seconds, trainedSeconds + seconds, end)) {
          pool.replan();
        }
      }
      if (stop != null) {
        LOG.warn("dssync {}", stop.describe());
      }
      int consensusStage = firstStage - 1 + history.size();
      boolean bestIsEarlier = early.progress().any() && early.progress().bestStage() < consensusStage
          && (stop == null || stop.modelStage() == early.progress().bestStage());
      if (bestIsEarlier) {
        if (stop == null) {
          LOG.warn("dssync early stopping: the model is the consensus of stage {}, the best evaluated",
              early.progress().bestStage() + 1);
        }
        consensus = new ConsensusState(early.progress().bestModel(), consensus.optimizerState(),
            consensus.optimizerSteps());
      }
      if (swa.count() > 0) {
        long consensusStep = Math.min(totalSteps, (long) (consensusStage + 1) * k);
        consensus = swaModel(run, swa, consensus, consensusStep, stages, history, driverReplica, test, evalThreads,
            stepsPerEpoch);
      }
      return run.result(consensus, history, config.describe(), (System.nanoTime() - started) / 1e9, stop,
          bestIsEarlier && swa.count() == 0 ? early.progress().bestStage() : -1);
    } finally {
      sc.setJobDescription(null);
      // In local mode this JVM ran the tasks and keeps their replicas between stages; the fit is over.
      IdleReplicas.closeFit(runId);
    }
  }

  /**
   * The schedule plan for {@code size} workers: the configured schedule, rebuilt for N' when the
   * pool is elastic. Butterfly needs N' = g^m; for any other N' it becomes random with the same g.
   */
  private SchedulePlan schedulePlan(int size) {
    if (auto != null) {
      return auto.planFor(size);
    }
    ScheduleSpec spec = config.scheduleSpec().withWorkers(size);
    if (spec.kind() == ScheduleKind.BUTTERFLY && size != config.workers()) {
      try {
        spec.validate();
      } catch (DsSyncException e) {
        LOG.warn("dssync elastic: butterfly needs N = g^m, {} is not; using random g={} while {} workers run",
            size, spec.groupSize(), size);
        spec = new ScheduleSpec(ScheduleKind.RANDOM, size, spec.groupSize(), spec.shufflePeriod(),
            spec.globalAveragePeriod(), spec.seed(), spec.crossRackPeriod());
      }
    }
    return Schedules.plan(spec, config.rackLayout());
  }

  /**
   * What stays the same for every stage of one fit (the pool changes size when elastic), and the
   * retries it collects.
   */
  private record Run(JavaSparkContext jsc, WorkerPool pool, String runId, ModelSpec spec, ModelSpec shippedSpec,
      LearningRates lr, int batch, long totalSteps, List<StageRetry> retries, long skippedRecords,
      long resumedAtStep, StepFootprint ranksCheckMemory) {
    TrainingResult result(ConsensusState consensus, List<StageMetrics> history, String config, double wallSeconds,
        FitStop stop) {
      return result(consensus, history, config, wallSeconds, stop, -1);
    }

    /** {@code modelStage}: the stage whose consensus {@code consensus} is, when not the last one run (else -1). */
    TrainingResult result(ConsensusState consensus, List<StageMetrics> history, String config, double wallSeconds,
        FitStop stop, int modelStage) {
      return new TrainingResult(new TrainedModel(spec, consensus.state()), List.copyOf(history), config, totalSteps,
          wallSeconds, List.copyOf(retries), skippedRecords, resumedAtStep, stop, modelStage);
    }
  }

  /** The work of one stage attempt and what its workers returned. */
  private record StageAttempt(StageWork work, List<WorkerResult> results) {}

  /**
   * The SWA result: the mean of the averaged stages' models; for a model with buffers (BatchNorm's running
   * statistics), one more stage from that mean at learning rate 0, which leaves the parameters exactly as they are
   * and recomputes the statistics on the training data, averaged over the workers. The model is then evaluated and
   * the evaluation added to {@code history} as stage {@code stages} (counted from 0).
   */
  private ConsensusState swaModel(Run run, SwaAverage swa, ConsensusState last, long step,
      int stages, List<StageMetrics> history, ModelReplica replica, LabeledArrays test, int evalThreads,
      long stepsPerEpoch) {
    LOG.warn("dssync SWA: the model is the mean of the consensus of the last {} stages", swa.count());
    ConsensusState mean = new ConsensusState(swa.mean(), last.optimizerState(), last.optimizerSteps());
    boolean hasBuffers = replica.stateSize() > replica.trainableSize();
    long end = step + (hasBuffers ? Math.max(1, Math.min(config.get(TrainerConfig.STEPS_PER_STAGE), stepsPerEpoch))
        : 0);
    long t0 = System.nanoTime();
    StageAttempt done = hasBuffers
        ? runWithRetries(run, stages, step, end, mean, null, history, false, 0, true) : null;
    ConsensusState model = done == null ? mean
        : ConsensusPart.assemble(done.results().stream().map(WorkerResult::consensus).toList());
    double seconds = (System.nanoTime() - t0) / 1e9;
    Evaluation eval = test == null ? null : evaluate(replica, model, test, evalThreads);
    StageMetrics metrics = done != null
        ? StageSummaries.summarize(done.work(), done.results(), seconds, (double) step / stepsPerEpoch,
            (long) done.results().size() * run.batch(), eval)
        : StageSummaries.evaluationOnly(stages, step, (double) step / stepsPerEpoch, eval,
            run.spec().lossKind().metricName());
    history.add(metrics);
    progress.onStage(metrics, done == null ? List.of() : StageSummaries.steps(done.work(), done.results()),
        stages + 1, end);
    return model;
  }

  private StageAttempt runWithRetries(Run run, int stage, long first, long end, ConsensusState consensus,
      String consensusFrom, List<StageMetrics> history, boolean probe, double probeBudgetMs) {
    return runWithRetries(run, stage, first, end, consensus, consensusFrom, history, probe, probeBudgetMs, false);
  }

  /** With {@code refreshStatistics}: a stage at learning rate 0 and plain averages (SWA's BatchNorm pass). */
  private StageAttempt runWithRetries(Run run, int stage, long first, long end, ConsensusState consensus,
      String consensusFrom, List<StageMetrics> history, boolean probe, double probeBudgetMs,
      boolean refreshStatistics) {
    int maxAttempts = config.get(TrainerConfig.MAX_STAGE_ATTEMPTS);
    long syncTimeout = config.get(TrainerConfig.SYNC_TIMEOUT_MS);
    for (int attempt = 1; ; attempt++) {
      // A fresh run id per attempt: a retry's block ids can never meet the failed attempt's leftovers.
      String attemptRunId = attempt == 1 ? run.runId() : run.runId() + ".a" + attempt;
      int size = run.pool().size();
      ScheduleSpec firstPlan = auto == null ? null : auto.firstPlanSpec(size);
      // A retry on an elastic pool that shrank has no plan for its size: its ranks probe and plan now.
      boolean probes = probe || firstPlan != null;
      double budgetMs = probe ? probeBudgetMs : probes ? auto.firstProbeBudgetMs(size) : 0;
      StageWork work = new StageWork(attemptRunId, stage, first, end, run.pool().plan(), run.shippedSpec(),
          config.optimizerSpec(), refreshStatistics ? LearningRateSchedule.constant(0, end)
          : run.lr().forStage(first), run.batch(), config.get(TrainerConfig.SEED), syncTimeout, probes,
          budgetMs, probes ? auto.probeStartFloats(size) : null, probes ? auto.probeScope(size) : null,
          firstPlan, config.get(TrainerConfig.STEPS_PER_STAGE), config.allReduceAlgorithm(),
          config.crossRackPrecision(), config.rackLayout(),
          attempt == 1 && history.isEmpty() ? run.ranksCheckMemory() : null,
          refreshStatistics ? OuterOptimizer.NONE : config.outerOptimizer());
      TestFault fault = TestFault.forStage(spark.conf(), first, end, attempt, syncTimeout);
      try {
        return new StageAttempt(work, runStage(run, work, fault, consensus, consensusFrom, history));
      } catch (DsSyncException e) {
        if (!retryable(e.kind())) {
          throw e;
        }
        if (attempt >= maxAttempts) {
          throw TrainingErrors.stageAttemptsExhausted(stage + 1, attempt, e)
              .withPartialResult(e.partialResult().orElse(null));
        }
        run.retries().add(new StageRetry(stage + 1, attempt, e.kind(), e.getMessage()));
        LOG.warn("dssync stage {} attempt {}/{} failed [{}]: {} -- retrying from the consensus after step {}",
            stage + 1, attempt, maxAttempts, e.kind(), e.getMessage(), first);
        // A lost executor is normally replaced by the cluster manager; elastic runs go on with fewer.
        run.pool().awaitSlotsAfterFailure(first);
      }
    }
  }

  /** Failures a rerun can cure; bad data, bad settings and divergence would fail the same way again. */
  static boolean retryable(ErrorKind kind) {
    return kind == ErrorKind.STAGE_FAILED || kind == ErrorKind.SYNC_TIMEOUT || kind == ErrorKind.TRANSPORT;
  }

  private List<WorkerResult> runStage(Run run, StageWork work, TestFault fault, ConsensusState consensus,
      String consensusFrom, List<StageMetrics> history) {
    SparkContext sc = run.jsc().sc();
    // A description, never a job group: notebooks such as Zeppelin own the job group.
    sc.setJobDescription(String.format("dssync stage %d: steps %d-%d, %s g=%d, %d workers",
        work.stage() + 1, work.firstStep(), work.endStep() - 1, config.get(TrainerConfig.SCHEDULE),
        config.groupSize(), run.pool().size()));
    // Executors fetch the broadcast only when they do not hold the consensus themselves.
    Broadcast<ConsensusState> start = run.jsc().broadcast(consensus);
    StageStart from = new StageStart(start, run.runId(), consensusFrom, work.firstStep(),
        consensusFrom == null ? 0 : consensus.fingerprint());
    try {
      JavaFutureAction<List<WorkerResult>> job = run.pool().shards().rdd().barrier()
          .mapPartitions(FaultInjectingTask.orPlain(work, from, fault), false,
              ClassTag$.MODULE$.apply(WorkerResult.class))
          .toJavaRDD().collectAsync();
      return awaitStage(job, run.pool());
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      // The future wraps Spark's failure in an ExecutionException; its message is the useful one.
      Throwable failure = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      // Interrupted while waiting for the job, submitting it or broadcasting its start (Spark throws it
      // undeclared): training ends. Catching the exception cleared the flag; the caller still sees it.
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      DsSyncException cause = Thread.currentThread().isInterrupted()
          ? TrainingErrors.interrupted(String.format("during stage %d (steps %d-%d), whose Spark job was cancelled",
              work.stage() + 1, work.firstStep(), work.endStep() - 1), work.firstStep() - 1)
          : SparkFailures.fromTaskFailure(failure);
      throw cause.withPartialResult(run.result(consensus, history, config.describe(), Double.NaN, null));
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
  private List<WorkerResult> awaitStage(JavaFutureAction<List<WorkerResult>> job, WorkerPool pool)
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

  /** Where checkpoints go: --checkpoint-dir, else the --resume directory, else nowhere. */
  private CheckpointStore checkpointStore(SparkContext sc) {
    String dir = config.get(TrainerConfig.CHECKPOINT_DIR);
    if (dir.isEmpty()) {
      dir = config.get(TrainerConfig.RESUME);
    }
    return dir.isEmpty() ? null : new CheckpointStore(dir, sc.hadoopConfiguration()).ensureDirectory();
  }

  /**
   * Once shards are cut (and cached), the executors drop their copies of the examples in memory
   * that both paths read them from, if any. Kept, every executor held the whole training set next to
   * its shard for the rest of the fit (Fashion-MNIST: 188 MB per executor, which kept the heap's old
   * generation above G1's marking threshold, so every large allocation at a stage boundary started a
   * concurrent cycle: 26-29 per executor in one epoch, against 5 without the copy). The driver keeps
   * the block; a re-shard or a lost shard fetches it again.
   */
  private static void dropExecutorCopies(Broadcast<LabeledArrays> inMemory) {
    if (inMemory != null) {
      inMemory.unpersist(true);
    }
  }

  private void writeCheckpoint(CheckpointStore store, CheckpointedModel model, long end, int stage, long totalSteps,
      String runId, ConsensusState consensus, EarlyStopping early, LearningRates lr, SwaAverage swa) {
    store.write(new Checkpoint(end, stage + 1, totalSteps, runId, config.get(TrainerConfig.SEED), settingsText(),
        consensus.state(), consensus.optimizerState(), consensus.optimizerSteps(), model,
        new FitProgress(early.progress(), lr.setByCallback(), swa.mean(), swa.count())),
        config.get(TrainerConfig.CHECKPOINT_KEEP));
  }

  /** Runs the callbacks in order; one that throws ends the fit, keeping {@code partial} and the checkpoints. */
  private void runCallbacks(StageMetrics metrics, FitControl control, TrainingResult partial) {
    for (StageCallback callback : callbacks) {
      try {
        callback.afterStage(metrics, control);
      } catch (RuntimeException e) {
        throw TrainingErrors.callbackFailed(callback.getClass().getName(), metrics.stage() + 1, e)
            .withPartialResult(partial);
      }
    }
  }

  /** The newest verified checkpoint under --resume, checked against this run; null to start fresh. */
  private Checkpoint resume(long totalSteps, ConsensusState fresh) {
    String dir = config.get(TrainerConfig.RESUME);
    if (dir.isEmpty()) {
      return null;
    }
    CheckpointStore.Loaded loaded = new CheckpointStore(dir, spark.sparkContext().hadoopConfiguration()).newestValid();
    if (loaded.checkpoint().isEmpty()) {
      LOG.warn("--resume {}: no usable checkpoint there ({} skipped as unreadable), so training starts fresh"
          + " from step 0 and writes its checkpoints there", dir, loaded.skipped().size());
      return null;
    }
    Checkpoint c = loaded.checkpoint().get();
    settingsText().forEach((name, now) -> {
      String saved = c.settings().get(name);
      if (!FREE_ON_RESUME.contains(name) && saved != null && !saved.equals(now)) {
        throw FileErrors.checkpointMismatch(loaded.path(), Errors.flag(name), saved, now);
      }
    });
    if (c.totalSteps() != totalSteps) {
      throw FileErrors.checkpointMismatch(loaded.path(), "training data (total steps)", c.totalSteps(), totalSteps);
    }
    if (c.state().length != fresh.state().length || c.optimizerState().length != fresh.optimizerState().length) {
      throw FileErrors.checkpointMismatch(loaded.path(), "model size (floats)", c.state().length, fresh.state().length);
    }
    LOG.warn("Resuming from {} at step {} of {} (stage {})", loaded.path(), c.step(), totalSteps, c.stagesDone() + 1);
    return c;
  }

  private java.util.Map<String, String> settingsText() {
    java.util.Map<String, String> text = new java.util.LinkedHashMap<>();
    config.asMap().forEach((name, value) -> text.put(name, String.valueOf(value)));
    return text;
  }

  private ConsensusState initialState(ModelReplica replica) {
    float[] state = new float[replica.stateSize()];
    replica.readState(state);
    int outerState = config.outerOptimizer().stateSize(replica.trainableSize());
    return new ConsensusState(state, new float[replica.optimizerStateSize() + outerState], 0);
  }

  /** The held-out examples, unless the hold-out caught none of them (nothing to validate on). */
  private static LabeledArrays requireHeldOut(LabeledArrays heldOut, HoldOut holdOut, long kept) {
    if (heldOut.size() == 0) {
      throw Errors.invalidSetting("validationFraction", holdOut.fraction(), "it held out none of the "
          + kept + " examples", "Raise validationFraction or fit on more rows.");
    }
    return heldOut;
  }

  /** Evaluates the consensus on the test split with {@code threads} ({@link EvaluationThreads}): no stage runs now. */
  private static Evaluation evaluate(ModelReplica replica, ConsensusState consensus, LabeledArrays test, int threads) {
    replica.writeState(consensus.state());
    return replica.evaluate(test.features(), test.labels(), test.size(), threads);
  }
}
