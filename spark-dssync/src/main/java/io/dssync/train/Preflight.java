package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.ShardedData;
import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.NativeAllocator;
import io.dssync.replica.StepFootprint;
import io.dssync.spark.ExecutorHosts;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * What a fit checks before its first stage, so a setting that cannot work fails or warns at the start and not
 * after hours: the cluster's slots and racks, settings that contradict each other, a batch larger than a shard,
 * a step's memory against the host or the container, replica threads against cores, and glibc malloc settings
 * where replicas and evaluation run.
 */
final class Preflight {
  private static final Logger LOG = LoggerFactory.getLogger(Preflight.class);

  private Preflight() {}

  /**
   * What a fit checks before it reads any data: static allocation, enough task slots (waiting up to
   * --slot-wait-ms for them), the rack layout against the executors' hosts, and settings that cannot work together
   * on this data; then it warns about cores, ignored settings, the Java version and malloc.
   */
  static void beforeFit(SparkContext sc, TrainerConfig config, TrainingData data) {
    ClusterSlots.requireStaticAllocation(sc.conf());
    ClusterSlots.await(sc, config.workers(), Duration.ofMillis(config.get(TrainerConfig.SLOT_WAIT_MS)));
    if (config.usesRacks()) {
      config.rackLayout().requireListed(ExecutorHosts.of(sc));
    }
    requireValidationForEarlyStopping(config, data);
    oversubscription(sc.master(), config.workers(), config.get(TrainerConfig.THREADS_PER_WORKER),
        Runtime.getRuntime().availableProcessors()).ifPresent(LOG::warn);
    config.ignoredSettings().forEach(LOG::warn);
    FileErrors.unsupportedJava(Runtime.version().feature(), VersionInfo.getVersion()).ifPresent(LOG::warn);
    Map<String, String> executorEnv = new HashMap<>();
    for (Tuple2<String, String> e : sc.conf().getAllWithPrefix("spark.executorEnv.")) {
      executorEnv.put(e._1(), e._2());
    }
    allocatorWarning(sc.master(), executorEnv, System.getenv(), System.getProperty("os.name")).ifPresent(LOG::warn);
    if (data.test() != null) {
      ShardedData.checkTestSplit(data.test()); // before the shards are cut: nothing to release yet
    }
  }

  private static void requireValidationForEarlyStopping(TrainerConfig config, TrainingData data) {
    if (!EarlyStopping.of(config).enabled()) {
      return;
    }
    if (data.test() == null && data.holdOut() == null) {
      throw Errors.invalidFlag(TrainerConfig.EARLY_STOP_PATIENCE.name(),
          config.get(TrainerConfig.EARLY_STOP_PATIENCE),
          "early stopping watches validation data and this fit has none",
          "Pass --test-data, --validation-fraction or --validation-col (Spark ML: setValidationFraction or"
              + " setValidationIndicatorCol), or set it to 0.");
    }
    if (config.get(TrainerConfig.SWA_START) > 0) {
      throw Errors.invalidFlag(TrainerConfig.SWA_START.name(), config.get(TrainerConfig.SWA_START),
          "SWA makes the result the mean of the late stages' models and early stopping the best stage's; one fit"
              + " cannot return both", "Set either --swa-start or --early-stop-patience to 0.");
    }
  }

  /**
   * A batch larger than a worker's shard would repeat examples inside every step; refuse it, naming
   * the shard's size; such a batch can exhaust the host's memory in the first step, where the kernel kills
   * the JVM without a word.
   */
  static void requireBatchFitsShard(int batch, int workers, long examples) {
    if (examples < (long) workers * batch) {
      throw Errors.invalidFlag(TrainerConfig.BATCH_SIZE.name(), batch, String.format(Locale.ROOT,
          "each of the %d workers' shards holds about %d of the %d training examples, fewer than one batch",
          workers, examples / workers, examples), String.format(Locale.ROOT,
          "Use --batch-size %d or less (the batch is per worker), fewer workers, or more training data.",
          Math.max(1, examples / workers)));
    }
  }

  /**
   * See {@link StepMemoryCheck}: measures a step's footprint on the driver's replica from two
   * examples of the first shard (in an executor's memory already), checks this host under local mode,
   * warns about YARN's and Kubernetes' memory overhead; returns the footprint the ranks of the first
   * stage check their hosts against (null under local mode, checked here).
   */
  static StepFootprint checkStepMemory(SparkContext sc, WorkerPool pool, int batch, ModelReplica replica,
      ModelSpec spec) {
    sc.setJobDescription("dssync: two training examples to measure a step's memory");
    LabeledArrays sample = pool.shards().map(shard -> shard.head(2)).first();
    StepFootprint footprint = replica.stepFootprint(sample.features(), sample.labels(), sample.size());
    String model = spec.modelSource().describe();
    if (StepMemoryCheck.inContainers(sc.master())) {
      StepMemoryCheck.overheadWarning(sc.getConf(), model, batch, footprint).ifPresent(LOG::warn);
    }
    if (!runsReplicasHere(sc.master())) {
      return footprint;
    }
    OptionalLong available = HostMemory.available();
    if (available.isPresent()) {
      StepMemoryCheck.require(model, pool.size(), batch, footprint, available.getAsLong()).ifPresent(LOG::warn);
    }
    return null;
  }

  /** Local mode ({@code local}, {@code local[...]}): the replicas are threads of this JVM. */
  static boolean runsReplicasHere(String master) {
    return LocalMaster.parse(master).isPresent();
  }

  /**
   * In local mode every replica is a thread of this JVM: more replica threads than cores make each
   * step wait for a core, which is fine for trying things but slows training and skews timings.
   */
  static Optional<String> oversubscription(String master, int workers, int threadsPerWorker, int cores) {
    if (!runsReplicasHere(master)) {
      return Optional.empty();
    }
    long threads = (long) workers * threadsPerWorker;
    if (threads <= cores) {
      return Optional.empty();
    }
    // A replica waiting for its partner leaves its core to another replica, so the wait is not lost
    // time: on 2 cores local[4] kept 0.92-0.97 of g = 1's throughput while its sync share read 0.11-0.15.
    return Optional.of(String.format(Locale.ROOT, "%s runs %d replicas x %d thread(s) ="
        + " %d compute threads on %d cores of this machine: steps share cores, so training is slower,"
        + " timings are not representative, and the sync share counts waits for a partner whose step"
        + " shares the cores (compare samples/s with --schedule local instead). For timing, use --workers"
        + " %d or fewer, or a cluster.",
        master, workers, threadsPerWorker, threads, cores, Math.max(1, cores / threadsPerWorker)));
  }

  /**
   * Off local masters the replicas run on executors, but this JVM still evaluates the consensus
   * between stages with PyTorch: under glibc's defaults that took 4x as long (2.1-4.6 s against
   * 0.5-0.6 s for 2,000 test images on the netns testbed), time no stage runs in.
   */
  static Optional<String> evaluationAllocatorWarning(String master, Map<String, String> processEnv,
      String osName) {
    if (runsReplicasHere(master)) {
      return Optional.empty(); // allocatorWarning covers this JVM, which runs the replicas too
    }
    return NativeAllocator.defaultsWarning("the driver (" + master + ")", processEnv, osName,
        "its evaluation of the consensus between stages can take 4x as long", "Set them before the driver JVM"
            + " starts (dssync-submit does): export " + NativeAllocator.shellLine() + "; a YARN or Kubernetes"
            + " cluster-mode driver takes them as spark.yarn.appMasterEnv.* or spark.kubernetes.driverEnv.*.");
  }

  /**
   * Warns when the processes that run replicas will use glibc's default malloc (see
   * {@link NativeAllocator}): this JVM in local mode; else the executors, which get the
   * spark.executorEnv settings and, on local-cluster, this process's environment too.
   */
  static Optional<String> allocatorWarning(String master, Map<String, String> executorEnv,
      Map<String, String> processEnv, String osName) {
    if (runsReplicasHere(master)) {
      return NativeAllocator.defaultsWarning("this JVM (" + master + ")", processEnv, osName,
          NativeAllocator.REPLICA_COST,
          "Set them before the JVM starts (the dssync command and the dssync-java Jupyter kernel do): export "
              + NativeAllocator.shellLine());
    }
    Map<String, String> env = new HashMap<>(executorEnv);
    if (master.startsWith("local-cluster")) {
      env.putAll(processEnv);
    }
    String confs = NativeAllocator.ENVIRONMENT.entrySet().stream()
        .map(e -> "--conf spark.executorEnv." + e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
    return NativeAllocator.defaultsWarning("the executors", env, osName, NativeAllocator.REPLICA_COST,
        "Pass " + confs + " (the dssync command and dssync-submit do).");
  }
}
