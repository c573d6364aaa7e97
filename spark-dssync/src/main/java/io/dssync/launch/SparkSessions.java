package io.dssync.launch;

import io.dssync.errors.Errors;
import io.dssync.replica.NativeAllocator;
import io.dssync.train.LocalClusterMaster;
import io.dssync.train.LocalMaster;
import io.dssync.train.TrainerConfig;
import io.dssync.spark.MasterProbe;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkSession the CLI and the benchmarks train in: reuses a session spark-submit made, else
 * builds one with the settings barrier training needs.
 */
public final class SparkSessions {
  /**
   * How long a standalone master may take to answer the first RPC: it answers in milliseconds
   * when up; this only bounds a master that accepts connections but hangs.
   */
  private static final Duration MASTER_PROBE_DEADLINE = Duration.ofSeconds(30);

  private SparkSessions() {}

  /** The master spark-submit configured: it hands every Spark setting over as a system property. */
  public static Optional<String> submittedMaster() {
    return Optional.ofNullable(System.getProperty("spark.master"));
  }

  /**
   * The Java options of local-cluster executors: the offline DJL engine, after any the user gave
   * them ({@code -Dspark.executor.extraJavaOptions=...} in DSSYNC_JAVA_OPTS, e.g. a GC log), which
   * the builder's setting would otherwise replace.
   */
  static String localClusterExecutorOptions(String given) {
    String user = given == null ? "" : given.trim();
    return (user.isEmpty() ? "" : user + " ") + "-Dai.djl.offline=true";
  }

  /**
   * Spark refuses a local-cluster whose executors ask for more memory ({@code executorMemoryMb}) or
   * cores per task ({@code taskCpus}) than its workers have, with a stack trace from inside its
   * start-up; this says which numbers clash and what to change, before anything starts.
   */
  static void requireExecutorsFit(String master, LocalClusterMaster cluster, long executorMemoryMb, int taskCpus) {
    if (executorMemoryMb > cluster.memoryMb()) {
      throw Errors.invalidSetting("--master", master, String.format(
          "each worker has %d MiB but an executor asks for %d MiB (spark.executor.memory)", cluster.memoryMb(),
          executorMemoryMb), String.format("Give the workers at least that, e.g. local-cluster[%d,%d,%d], or set"
          + " a smaller -Dspark.executor.memory in DSSYNC_JAVA_OPTS.", cluster.executors(),
          cluster.coresPerExecutor(), Math.max(executorMemoryMb, 2048)));
    }
    if (taskCpus > cluster.coresPerExecutor()) {
      throw Errors.invalidSetting("--master", master, String.format(
          "each executor has %d core(s) but --threads-per-worker %d asks for %d per worker",
          cluster.coresPerExecutor(), taskCpus, taskCpus), String.format("Give the executors that many cores,"
          + " e.g. local-cluster[%d,%d,%d], or lower --threads-per-worker to %d.", cluster.executors(), taskCpus,
          cluster.memoryMb(), cluster.coresPerExecutor()));
    }
  }

  private static final String MASTER_FORMS = "Use local[N] (N threads in this JVM, e.g. local[4]),"
      + " local-cluster[n,c,m] (n executor JVMs of c cores and m MiB on this machine), spark://host:port (a"
      + " standalone master), or yarn or k8s://https://host:port through spark-submit.";

  /**
   * A master URL Spark would not parse, or one that names no threads or executors, fails here with
   * the forms that work, instead of Spark's stack trace from inside SparkContext's start-up.
   */
  static void requireKnownMaster(String master) {
    Optional<LocalMaster> local = LocalMaster.parse(master);
    if (local.isPresent()) {
      if (local.get().threads() < 1) {
        throw Errors.invalidSetting("--master", master, "local mode needs at least one thread", MASTER_FORMS);
      }
      return;
    }
    Optional<LocalClusterMaster> cluster = LocalClusterMaster.parse(master);
    if (cluster.isPresent()) {
      if (cluster.get().executors() < 1 || cluster.get().coresPerExecutor() < 1) {
        throw Errors.invalidSetting("--master", master, "local-cluster needs at least one executor of one core",
            MASTER_FORMS);
      }
      return;
    }
    if (master.startsWith("spark://") || master.equals("yarn") || master.startsWith("k8s://")) {
      return;
    }
    throw Errors.invalidSetting("--master", master, "not a master URL Spark knows", MASTER_FORMS);
  }

  /**
   * YARN and Kubernetes masters need a Spark module that the plain build leaves out (Spark finds it
   * on the class path by this class); without it Spark fails with "Could not parse Master URL".
   * {@code onClassPath} says whether a class is there.
   */
  static void requireClusterManager(String master, Predicate<String> onClassPath) {
    if (master.startsWith("yarn") && !onClassPath.test("org.apache.spark.scheduler.cluster.YarnClusterManager")) {
      throw Errors.invalidSetting("--master", master, "this class path has no Spark YARN module",
          "Submit through a Spark installation's spark-submit with HADOOP_CONF_DIR set"
          + " (submit-scripts/examples/yarn.sh does), or build with -Pyarn (docs/cluster.md, YARN).");
    }
    if (master.startsWith("k8s://")
        && !onClassPath.test("org.apache.spark.scheduler.cluster.k8s.KubernetesClusterManager")) {
      throw Errors.invalidSetting("--master", master, "this class path has no Spark Kubernetes module",
          "Submit through the spark-submit of a Spark installation built with Kubernetes"
          + " (submit-scripts/examples/kubernetes.sh does).");
    }
  }

  private static boolean onClassPath(String className) {
    try {
      Class.forName(className, false, SparkSessions.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  public static SparkSession forMaster(String master, TrainerConfig config) {
    requireKnownMaster(master);
    requireClusterManager(master, SparkSessions::onClassPath);
    int taskCpus = config.get(TrainerConfig.THREADS_PER_WORKER);
    LocalClusterMaster.parse(master).ifPresent(cluster -> requireExecutorsFit(master, cluster,
        new SparkConf().getSizeAsMb("spark.executor.memory", "1g"), taskCpus));
    SparkSession.Builder b = SparkSession.builder().appName("dssync-train");
    if (master.startsWith("local-cluster")) {
      // Real executor JVMs on this machine: they need our class path and the offline DJL engine.
      b.config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
          .config("spark.executor.extraJavaOptions",
              localClusterExecutorOptions(System.getProperty("spark.executor.extraJavaOptions")));
    }
    if (master.startsWith("local")) {
      // Local mode binds to loopback only; nothing is exposed to the network.
      b.master(master)
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.ui.showConsoleProgress", "false");
    } else {
      if (master.startsWith("spark://") && !master.contains(",")) {
        // Fail in a second with a clear error, not after Spark's fixed 60 s of registration retries.
        MasterProbe.requireAccepted(master, new SparkConf(), MASTER_PROBE_DEADLINE);
      }
      b.master(master);
    }
    // Executors get the malloc settings PyTorch's tensors need (see NativeAllocator) unless the
    // submitter chose other values; a local-mode JVM reads them from the dssync command instead.
    NativeAllocator.ENVIRONMENT.forEach((name, value) -> {
      String key = "spark.executorEnv." + name;
      if (System.getProperty(key) == null) {
        b.config(key, value);
      }
    });
    return b.config("spark.task.cpus", String.valueOf(taskCpus))
        .config("spark.dynamicAllocation.enabled", "false")
        .config("spark.speculation", "false")
        .getOrCreate();
  }
}
