package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.errors.DsSyncException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call of {@link DsSyncTrainer#fit}. All of a fit's state lives here, so two fits in one JVM never see each
 * other's. {@link #run} reads as the fit's phases: the checks, cutting the data, resuming, the stages (each
 * evaluated, checkpointed, reported, shown to the callbacks and, under the auto schedule, re-planned), then the
 * model: the last consensus, early stopping's best or SWA's mean.
 */
final class Fit {
  private static final Logger LOG = LoggerFactory.getLogger(Fit.class);

  private final SparkContext sc;
  private final TrainerConfig config;
  private final ProgressListener progress;
  private final List<StageCallback> callbacks;
  private final WorkerHook hook;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  /** The auto schedule's state under --schedule auto, else null. */
  private final AutoSchedule auto;
  /** Per stage: how many workers read their start state from the driver's broadcast. */
  private final List<Integer> startFetches = new ArrayList<>();
  private final List<StageMetrics> history = new ArrayList<>();
  private final EarlyStopping early;

  // Fixed once the data is cut.
  private ModelSpec spec;
  private FitShards shards;
  private StepCounts steps;
  private LearningRates lr;
  private SwaAverage swa;
  private int evalThreads;
  private FitCheckpoints checkpoints;
  private StageRunner runner;
  private ModelReplica driverReplica;
  /** What the ranks of the first stage check their hosts' memory against; null when checked here. */
  private StepFootprint ranksCheckMemory;
  private long resumedAtStep = -1;
  /** The first stage this fit runs: 0, or the stage after the checkpoint it resumed from. */
  private int firstStage;

  // Advanced by every stage.
  private ConsensusState consensus;
  /** The stage attempt whose end produced the consensus; null while only the driver has it. */
  private String consensusFrom;

  Fit(SparkContext sc, TrainerConfig config, ProgressListener progress, List<StageCallback> callbacks,
      WorkerHook hook) {
    this.sc = sc;
    this.config = config;
    this.progress = progress;
    this.callbacks = List.copyOf(callbacks);
    this.hook = hook;
    this.auto = config.scheduleKind() == ScheduleKind.AUTO
        ? new AutoSchedule(config.scheduleSpec(), config.get(TrainerConfig.REPLAN_EVERY),
        config.get(TrainerConfig.STEPS_PER_STAGE), config.allReduceAlgorithm(), config.crossRackPrecision()) : null;
    this.early = EarlyStopping.of(config);
  }

  /** How many steps a fit takes: per epoch, in all, per stage, and the stages they make. */
  private record StepCounts(long perEpoch, long total, int perStage, int stages) {
    static StepCounts of(long examples, int workers, int batch, int epochs, int perStage) {
      long perEpoch = examples / ((long) workers * batch);
      long total = perEpoch * epochs;
      return new StepCounts(perEpoch, total, perStage, (int) ((total + perStage - 1) / perStage));
    }
  }

  TrainingResult run(TrainingData data) {
    Preflight.beforeFit(sc, config, data);
    spec = ModelFiles.spec(config, data, ModelFiles.source(config, sc.hadoopConfiguration()));
    Labels labels = spec.lossKind().classLabels() ? Labels.classes(data.numClasses())
        : Labels.values(data.labelWidth());
    shards = FitShards.cut(sc, config, data, labels, this::schedulePlan);
    WorkerPool pool = shards.pool();
    if (shards.test() != null) {
      Preflight.evaluationAllocatorWarning(sc.master(), System.getenv(), System.getProperty("os.name"))
          .ifPresent(LOG::warn);
    }
    int batch = config.get(TrainerConfig.BATCH_SIZE);
    Preflight.requireBatchFitsShard(batch, config.workers(), shards.examples());
    steps = StepCounts.of(shards.examples(), config.workers(), batch, config.get(TrainerConfig.EPOCHS),
        config.get(TrainerConfig.STEPS_PER_STAGE));
    evalThreads = EvaluationThreads.of(sc.master(), sc.getConf().get("spark.submit.deployMode", "client"),
        sc.getConf().contains("spark.driver.cores") ? sc.getConf().get("spark.driver.cores") : null,
        Runtime.getRuntime().availableProcessors());
    swa = SwaAverage.of(config.get(TrainerConfig.SWA_START), steps.total(), steps.perStage());
    lr = new LearningRates(config.learningRateSchedule(steps.total()), swa.startStep(),
        config.get(TrainerConfig.SWA_LEARNING_RATE), Double.NaN);
    checkpoints = new FitCheckpoints(config, sc.hadoopConfiguration(), runId, spec);
    long started = System.nanoTime();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    try (pool; ModelFiles.Shipped shipped = ModelFiles.ship(spec, jsc);
        ModelReplica replica = Replicas.create(spec, config.optimizerSpec(),
            config.get(TrainerConfig.THREADS_PER_WORKER))) {
      driverReplica = replica;
      runner = new StageRunner(jsc, config, pool, auto, hook, runId, shipped.spec());
      ranksCheckMemory = Preflight.checkStepMemory(sc, pool, batch, replica, spec);
      consensus = initialState(replica);
      firstStage = resume();
      FitStop stop = early.outOfPatience()
          ? new FitStop(firstStage - 1, early.progress().bestStage(), early.reasonOnResume()) : null;
      for (int stage = firstStage; stage < steps.stages() && stop == null; stage++) {
        stop = stage(stage);
      }
      return finish(stop, started);
    } finally {
      sc.setJobDescription(null);
      // In local mode this JVM ran the tasks and keeps their replicas between stages; the fit is over.
      IdleReplicas.closeFit(runId);
    }
  }

  /** Per stage of this fit: how many workers read their start state from the driver (all of them in local mode). */
  List<Integer> startFetches() {
    return List.copyOf(startFetches);
  }

  /** The auto schedule's state (its plan and measurements), or null when the fit runs another schedule. */
  AutoSchedule autoSchedule() {
    return auto;
  }

  /** Continues from the checkpoint under --resume, if any; returns the first stage to run. */
  private int resume() {
    Checkpoint resumed = checkpoints.resume(steps.total(), consensus);
    if (resumed == null) {
      return 0;
    }
    consensus = resumed.toConsensusState();
    resumedAtStep = resumed.step();
    early.restore(resumed.fit().earlyStop());
    lr.set(resumed.fit().learningRateOverride());
    swa.restore(resumed.fit().swaMean(), resumed.fit().swaCount());
    return resumed.stagesDone();
  }

  /**
   * Runs stage {@code stage} (from 0) and what follows it on the driver: evaluation, checkpoint, progress,
   * callbacks, re-planning. Returns why the fit stops after it, or null to go on.
   */
  private FitStop stage(int stage) {
    long first = (long) stage * steps.perStage();
    long end = Math.min(steps.total(), first + steps.perStage());
    if (Thread.currentThread().isInterrupted()) {
      // Interrupted while the driver evaluated or checkpointed: no further stage starts.
      throw TrainingErrors.interrupted("before stage " + (stage + 1), first - 1).withPartialResult(partial(consensus));
    }
    WorkerPool pool = shards.pool();
    pool.fitToSlots(first);
    long t0 = System.nanoTime();
    double lastStageSeconds = history.isEmpty() ? Double.NaN : history.get(history.size() - 1).wallSeconds();
    // Training time as the benchmarks count it: the stages' wall times, not the evaluations between.
    double trainedSeconds = history.stream().mapToDouble(StageMetrics::wallSeconds).sum();
    int stagesLeft = steps.stages() - stage;
    boolean probe = auto != null && auto.probesAt(stage, firstStage, steps.stages(), lastStageSeconds,
        trainedSeconds, pool.size());
    double probeBudgetMs = probe ? auto.probeBudgetMs(lastStageSeconds, trainedSeconds, stagesLeft, pool.size()) : 0;
    StageRunner.Done done = runStage(new StageRunner.Stage(stage, first, end, lr.forStage(first),
        config.outerOptimizer(), memoryCheck(), probe, probeBudgetMs), consensus, consensusFrom);
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<WorkerResult> results = done.results();
    consensus = ConsensusPart.assemble(results.stream().map(WorkerResult::consensus).toList());
    consensusFrom = done.work().runId();
    swa.add(end, consensus.state());
    int fetched = (int) results.stream().filter(WorkerResult::fetchedStart).count();
    startFetches.add(fetched);
    LOG.debug("dssync stage {}: {} of {} workers fetched the start state from the driver", stage + 1, fetched,
        results.size());
    boolean evaluate = shards.test() != null
        && ((stage + 1) % config.get(TrainerConfig.EVAL_EVERY) == 0 || stage == steps.stages() - 1);
    Evaluation eval = evaluate ? evaluate(consensus) : null;
    StageMetrics metrics = StageSummaries.summarize(done.work(), results, seconds,
        (double) end / steps.perEpoch(), (long) results.size() * config.get(TrainerConfig.BATCH_SIZE), eval);
    history.add(metrics);
    FitStop stop = early.observe(metrics, consensus.state())
        .map(why -> new FitStop(stage, early.progress().bestStage(), why)).orElse(null);
    boolean checkpointDue = checkpoints.dueAfter(stage, steps.stages());
    if (checkpointDue || stop != null) {
      checkpoints.write(end, stage, steps.total(), consensus, fitProgress());
    }
    progress.onStage(metrics, StageSummaries.steps(done.work(), results), steps.stages(), steps.total());
    if (stop == null && !callbacks.isEmpty()) {
      stop = runCallbacks(metrics, stage, end);
      if (stop != null && !checkpointDue) {
        checkpoints.write(end, stage, steps.total(), consensus, fitProgress());
      }
    }
    if (stop == null && done.work().probeLinks() && auto.update(results, metrics.computeMsPerStep(),
        (long) consensus.state().length * Float.BYTES, seconds, trainedSeconds + seconds, end)) {
      pool.replan();
    }
    return stop;
  }

  /** The result: the last consensus, else early stopping's best, or SWA's mean of the late stages. */
  private TrainingResult finish(FitStop stop, long started) {
    if (stop != null) {
      LOG.warn("dssync {}", stop.describe());
    }
    int consensusStage = firstStage - 1 + history.size();
    EarlyStopping.Progress best = early.progress();
    boolean bestIsEarlier = best.any() && best.bestStage() < consensusStage
        && (stop == null || stop.modelStage() == best.bestStage());
    ConsensusState model = consensus;
    if (bestIsEarlier) {
      if (stop == null) {
        LOG.warn("dssync early stopping: the model is the consensus of stage {}, the best evaluated",
            best.bestStage() + 1);
      }
      model = new ConsensusState(best.bestModel(), consensus.optimizerState(), consensus.optimizerSteps());
    }
    if (swa.count() > 0) {
      long consensusStep = Math.min(steps.total(), (long) (consensusStage + 1) * steps.perStage());
      model = swaModel(model, consensusStep);
    }
    return result(model, (System.nanoTime() - started) / 1e9, stop,
        bestIsEarlier && swa.count() == 0 ? best.bestStage() : -1);
  }

  /**
   * The SWA result: the mean of the averaged stages' models; for a model with buffers (BatchNorm's running
   * statistics), one more stage from that mean at learning rate 0, which leaves the parameters exactly as they are
   * and recomputes the statistics on the training data, averaged over the workers. The model is then evaluated and
   * the evaluation added to the history as stage {@code stages} (counted from 0).
   */
  private ConsensusState swaModel(ConsensusState last, long step) {
    LOG.warn("dssync SWA: the model is the mean of the consensus of the last {} stages", swa.count());
    ConsensusState mean = new ConsensusState(swa.mean(), last.optimizerState(), last.optimizerSteps());
    boolean hasBuffers = driverReplica.stateSize() > driverReplica.trainableSize();
    long end = step + (hasBuffers ? Math.max(1, Math.min(steps.perStage(), steps.perEpoch())) : 0);
    long t0 = System.nanoTime();
    int stage = steps.stages();
    StageRunner.Done done = hasBuffers ? runStage(new StageRunner.Stage(stage, step, end,
        LearningRateSchedule.constant(0, end), OuterOptimizer.NONE, memoryCheck(), false, 0), mean, null) : null;
    ConsensusState model = done == null ? mean
        : ConsensusPart.assemble(done.results().stream().map(WorkerResult::consensus).toList());
    double seconds = (System.nanoTime() - t0) / 1e9;
    Evaluation eval = shards.test() == null ? null : evaluate(model);
    StageMetrics metrics = done != null
        ? StageSummaries.summarize(done.work(), done.results(), seconds, (double) step / steps.perEpoch(),
            (long) done.results().size() * config.get(TrainerConfig.BATCH_SIZE), eval)
        : StageSummaries.evaluationOnly(stage, step, (double) step / steps.perEpoch(), eval,
            spec.lossKind().metricName());
    history.add(metrics);
    progress.onStage(metrics, done == null ? List.of() : StageSummaries.steps(done.work(), done.results()),
        stage + 1, end);
    return model;
  }

  /** Runs a stage from {@code from}; a failure keeps {@code from} as the fit's partial result. */
  private StageRunner.Done runStage(StageRunner.Stage stage, ConsensusState from, String fromAttempt) {
    try {
      return runner.run(stage, from, fromAttempt);
    } catch (DsSyncException e) {
      throw e.withPartialResult(partial(from));
    }
  }

  /** The first stage's ranks check their hosts' memory; later stages ran steps of the same size already. */
  private StepFootprint memoryCheck() {
    return history.isEmpty() ? ranksCheckMemory : null;
  }

  /** Runs the callbacks in order; one that throws ends the fit, keeping the consensus and the checkpoints. */
  private FitStop runCallbacks(StageMetrics metrics, int stage, long end) {
    FitControl control = new FitControl(stage, steps.stages(), lr.at(end));
    for (StageCallback callback : callbacks) {
      try {
        callback.afterStage(metrics, control);
      } catch (RuntimeException e) {
        throw TrainingErrors.callbackFailed(callback.getClass().getName(), metrics.stage() + 1, e)
            .withPartialResult(partial(consensus));
      }
    }
    if (!Double.isNaN(control.learningRateSet())) {
      lr.set(control.learningRateSet());
    }
    return control.stopReason().map(why -> new FitStop(stage, stage, why)).orElse(null);
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

  private FitProgress fitProgress() {
    return new FitProgress(early.progress(), lr.setByCallback(), swa.mean(), swa.count());
  }

  private ConsensusState initialState(ModelReplica replica) {
    float[] state = new float[replica.stateSize()];
    replica.readState(state);
    int outerState = config.outerOptimizer().stateSize(replica.trainableSize());
    return new ConsensusState(state, new float[replica.optimizerStateSize() + outerState], 0);
  }

  /** Evaluates {@code model} on the test split with the evaluation threads: no stage runs now. */
  private Evaluation evaluate(ConsensusState model) {
    LabeledArrays test = shards.test();
    driverReplica.writeState(model.state());
    return driverReplica.evaluate(test.features(), test.labels(), test.size(), evalThreads);
  }

  /** {@code modelStage}: the stage whose consensus {@code model} is, when not the last one run (else -1). */
  private TrainingResult result(ConsensusState model, double wallSeconds, FitStop stop, int modelStage) {
    return new TrainingResult(new TrainedModel(spec, model.state()), List.copyOf(history), config.describe(),
        steps.total(), wallSeconds, runner.retries(), shards.skippedRecords(), resumedAtStep, stop, modelStage);
  }

  private TrainingResult partial(ConsensusState model) {
    return result(model, Double.NaN, null, -1);
  }
}
