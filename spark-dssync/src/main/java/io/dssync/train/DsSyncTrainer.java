package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.ModelSpec;
import io.dssync.replica.Replicas;
import io.dssync.schedule.GroupSchedule;
import io.dssync.schedule.Schedules;
import io.dssync.transport.ClusterSlots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import scala.reflect.ClassTag$;

/**
 * The driver side of DS-Sync training. Training runs as a sequence of barrier stages of K steps;
 * the driver owns the consensus model between stages (evaluation, progress) and stays off the
 * per-step data path: workers exchange parameters with each other through the transport.
 */
public final class DsSyncTrainer {
  private final SparkSession spark;
  private final TrainerConfig config;
  private ProgressListener progress = ProgressListener.printing();

  public DsSyncTrainer(SparkSession spark, TrainerConfig config) {
    this.spark = spark;
    this.config = config;
  }

  public DsSyncTrainer withProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  /**
   * Trains on {@code data}. A non-finite loss stops training with a {@link DsSyncException} whose
   * message names the step; the last consensus model is kept as its partial result.
   */
  public TrainingResult fit(TrainingData data) {
    SparkContext sc = spark.sparkContext();
    int n = config.workers();
    ClusterSlots.requireStaticAllocation(sc.conf());
    ClusterSlots.await(sc, n, Duration.ofMillis(config.get(TrainerConfig.SLOT_WAIT_MS)));
    ModelSpec spec = new ModelSpec(config.get(TrainerConfig.MODEL), data.channels(), data.height(),
        data.width(), data.numClasses(), config.get(TrainerConfig.SEED));
    GroupSchedule schedule = Schedules.create(config.scheduleSpec());
    JavaRDD<LabeledArrays> shards;
    try {
      shards = ShardedData.shard(data.frame(), data.featuresCol(), data.labelCol(), data.featureSize(),
          data.numClasses(), n);
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      // Bad records are found on executors; their DsSyncException reaches us as text.
      throw Errors.fromTaskFailure(e);
    }
    long examples = shards.map(LabeledArrays::size).reduce(Integer::sum);
    int batch = config.get(TrainerConfig.BATCH_SIZE);
    long stepsPerEpoch = Math.max(1, examples / ((long) n * batch));
    long totalSteps = stepsPerEpoch * config.get(TrainerConfig.EPOCHS);
    int k = config.get(TrainerConfig.STEPS_PER_STAGE);
    int stages = (int) ((totalSteps + k - 1) / k);
    String runId = UUID.randomUUID().toString().substring(0, 8);
    int threads = config.get(TrainerConfig.THREADS_PER_WORKER);
    LearningRateSchedule lr = config.learningRateSchedule(totalSteps);

    List<StageMetrics> history = new ArrayList<>();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    long started = System.nanoTime();
    try (ModelReplica driverReplica = Replicas.create(spec, config.optimizerSpec(), threads)) {
      StageStart consensus = initialState(driverReplica);
      for (int stage = 0; stage < stages; stage++) {
        long first = (long) stage * k;
        long end = Math.min(totalSteps, first + k);
        StageWork work = new StageWork(runId, stage, first, end, schedule, spec, config.optimizerSpec(),
            lr, batch, threads, config.get(TrainerConfig.SEED), config.get(TrainerConfig.SYNC_TIMEOUT_MS));
        long t0 = System.nanoTime();
        List<WorkerResult> results = runStage(sc, jsc, shards, work, consensus, history, spec, totalSteps);
        double seconds = (System.nanoTime() - t0) / 1e9;
        consensus = results.stream().filter(r -> r.consensus() != null).findFirst().orElseThrow().consensus();
        boolean evaluate = data.test() != null && ((stage + 1) % config.get(TrainerConfig.EVAL_EVERY) == 0
            || stage == stages - 1);
        Evaluation eval = evaluate ? evaluate(driverReplica, consensus, data.test()) : null;
        StageMetrics metrics = StageSummaries.summarize(work, results, seconds, (double) end / stepsPerEpoch,
            (long) n * batch, eval);
        history.add(metrics);
        progress.onStage(metrics, StageSummaries.steps(work, results), stages, totalSteps);
      }
      return new TrainingResult(new TrainedModel(spec, consensus.state()), history, config.describe(),
          totalSteps, (System.nanoTime() - started) / 1e9);
    } finally {
      sc.setJobDescription(null);
      shards.unpersist(false);
    }
  }

  private List<WorkerResult> runStage(SparkContext sc, JavaSparkContext jsc, JavaRDD<LabeledArrays> shards,
      StageWork work, StageStart consensus, List<StageMetrics> history, ModelSpec spec, long totalSteps) {
    // A description, never a job group: notebooks such as Zeppelin own the job group.
    sc.setJobDescription(String.format("dssync stage %d: steps %d-%d, %s g=%d",
        work.stage() + 1, work.firstStep(), work.endStep() - 1, config.get(TrainerConfig.SCHEDULE),
        config.groupSize()));
    Broadcast<StageStart> start = jsc.broadcast(consensus);
    try {
      return shards.rdd().barrier()
          .mapPartitions(new WorkerTask(work, start), false, ClassTag$.MODULE$.apply(WorkerResult.class))
          .toJavaRDD().collect();
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      DsSyncException cause = Errors.fromTaskFailure(e);
      TrainingResult partial = new TrainingResult(new TrainedModel(spec, consensus.state()),
          List.copyOf(history), config.describe(), totalSteps, Double.NaN);
      throw cause.withPartialResult(partial);
    } finally {
      start.destroy();
    }
  }

  private StageStart initialState(ModelReplica replica) {
    float[] state = new float[replica.stateSize()];
    replica.readState(state);
    return new StageStart(state, new float[replica.optimizerStateSize()], 0);
  }

  private static Evaluation evaluate(ModelReplica replica, StageStart consensus, LabeledArrays test) {
    replica.writeState(consensus.state());
    return replica.evaluate(test.features(), test.labels(), test.size());
  }
}
