package io.dssync.testing;

import java.io.File;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.ShutdownHookManager;
import scala.Function0;
import scala.Function1;
import scala.collection.Iterator;
import scala.collection.Iterator$;
import scala.reflect.ClassTag$;
import scala.runtime.BoxedUnit;

/**
 * The Spark session every multi-process test shares: {@code local-cluster[4,1,1536]}, i.e. four
 * executor JVMs with one core each, so a barrier stage of four tasks puts each task in its own
 * process and block fetches really cross processes ({@code local[N]} shares one BlockManager).
 *
 * <p>Usage: {@code TestSpark.session()} (lazily started once per test JVM, about 10-20 s; stopped
 * by Spark's shutdown hook), {@code TestSpark.runBarrier(4, ctx -> ...)} to run a barrier stage of
 * one task per executor and collect one result per rank. A test that needs other Spark settings
 * (for example {@code spark.authenticate}) calls {@link #session(Map)}: the shared session is
 * restarted with those settings and restarted again with the defaults by the next plain
 * {@link #session()} call, so keep such tests few and annotate them with JUnit's {@code @Order}
 * (a value above the default, see junit-platform.properties) so that they run after every class
 * that uses the default session.
 *
 * <p>Needs what the surefire configuration provides: env {@code SPARK_HOME} (a folder with a
 * {@code jars/} subfolder, created here if missing) and {@code SPARK_SCALA_VERSION} (Spark's Scala
 * version), system properties {@code dssync.buildDir} and {@code surefire.test.class.path} (classes reach
 * executors through {@code spark.executor.extraClassPath}). Executors get {@code
 * -Dai.djl.offline=true} and the test JVM's {@code ENGINE_CACHE_DIR}, so DJL unpacks its native
 * library once into a shared cache. Executor logs: {@code $SPARK_HOME/work/app-* /<n>/}.
 */
public final class TestSpark {
  /** Executor JVMs in the shared cluster; one task slot each. */
  public static final int EXECUTORS = 4;
  private static final int WORKER_MEMORY_MB = 1536;
  private static final String EXECUTOR_MEMORY = "1024m";
  private static final long EXECUTOR_WAIT_MS = 180_000;

  private static SparkSession session;
  private static Map<String, String> sessionOverrides;
  private static boolean stopHookAdded;

  private TestSpark() {}

  /** The shared session with default test settings, started on first use. */
  public static synchronized SparkSession session() {
    return session(Map.of());
  }

  /**
   * The shared session with {@code overrides} applied on top of the defaults; restarts the
   * session when it was started with different overrides.
   */
  public static synchronized SparkSession session(Map<String, String> overrides) {
    Map<String, String> wanted = new TreeMap<>(overrides);
    if (session != null && !wanted.equals(sessionOverrides)) {
      session.stop();
      session = null;
    }
    if (session == null) {
      session = start(wanted);
      sessionOverrides = wanted;
      addStopHook();
    }
    return session;
  }

  /**
   * Stops the session at JVM exit before the local-cluster workers run their own shutdown hooks:
   * otherwise the workers kill the executors first and the master keeps relaunching them while
   * the JVM shuts down (dozens of "Failed to launch executor" errors and several seconds lost).
   */
  private static void addStopHook() {
    if (stopHookAdded) {
      return;
    }
    stopHookAdded = true;
    int beforeWorkers = ShutdownHookManager.DEFAULT_SHUTDOWN_PRIORITY() + 10;
    ShutdownHookManager.addShutdownHook(beforeWorkers, (Function0<BoxedUnit>) () -> {
      synchronized (TestSpark.class) {
        if (session != null) {
          session.stop();
          session = null;
        }
      }
      return BoxedUnit.UNIT;
    });
  }

  /** Number of executor JVMs of the shared cluster. */
  public static int executorCount() {
    return EXECUTORS;
  }

  /**
   * Runs a barrier stage of {@code tasks} tasks on the current session (starting the default one
   * if none runs) and returns the results in rank order. With {@code tasks == EXECUTORS} every
   * task runs in its own executor JVM.
   */
  public static <T extends Serializable> List<T> runBarrier(int tasks, BarrierTask<T> body) {
    SparkContext sc = currentOrDefault().sparkContext();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    List<Integer> ranks = IntStream.range(0, tasks).boxed().collect(Collectors.toList());
    Function1<Iterator<Integer>, Iterator<T>> perPartition =
        (Function1<Iterator<Integer>, Iterator<T>> & Serializable)
            ignored -> Iterator$.MODULE$.single(runBody(body));
    @SuppressWarnings("unchecked")
    T[] out = (T[]) jsc.parallelize(ranks, tasks).rdd().barrier()
        .mapPartitions(perPartition, false, ClassTag$.MODULE$.apply(Serializable.class))
        .collect();
    return List.of(out);
  }

  private static synchronized SparkSession currentOrDefault() {
    return session != null ? session : session();
  }

  private static <T extends Serializable> T runBody(BarrierTask<T> body) {
    try {
      return body.run(BarrierTaskContext.get());
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  private static SparkSession start(Map<String, String> overrides) {
    prepareSparkHome();
    SparkConf conf = new SparkConf()
        .setMaster("local-cluster[" + EXECUTORS + ",1," + WORKER_MEMORY_MB + "]")
        .setAppName("dssync-tests")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false")
        .set("spark.executor.memory", EXECUTOR_MEMORY)
        .set("spark.executor.extraClassPath", required("surefire.test.class.path"))
        .set("spark.executor.extraJavaOptions", executorJavaOptions())
        .set("spark.task.cpus", "1")
        .set("spark.dynamicAllocation.enabled", "false")
        // Failure tests must fail fast instead of waiting out Spark's defaults.
        .set("spark.barrier.sync.timeout", "120s")
        .set("spark.stage.maxConsecutiveAttempts", "1")
        .set("spark.task.maxFailures", "1")
        .set("spark.sql.shuffle.partitions", String.valueOf(EXECUTORS))
        .set("spark.local.dir", tmpDir());
    String engineCache = System.getenv("ENGINE_CACHE_DIR");
    if (engineCache != null) {
      conf.set("spark.executorEnv.ENGINE_CACHE_DIR", engineCache);
    }
    overrides.forEach(conf::set);
    long begin = System.nanoTime();
    SparkSession s = SparkSession.builder().config(conf).getOrCreate();
    try {
      awaitExecutors(s.sparkContext(), executorsOf(conf.get("spark.master")));
    } catch (RuntimeException e) {
      s.stop();
      throw e;
    }
    System.err.printf("[TestSpark] %s ready in %.1f s%n", conf.get("spark.master"), (System.nanoTime() - begin) / 1e9);
    return s;
  }

  private static String executorJavaOptions() {
    StringBuilder opts = new StringBuilder("-Dai.djl.offline=true -Djava.io.tmpdir=").append(tmpDir());
    String engineCache = System.getenv("ENGINE_CACHE_DIR");
    if (engineCache != null) {
      opts.append(" -DENGINE_CACHE_DIR=").append(engineCache);
    }
    return opts.toString();
  }

  private static String tmpDir() {
    File dir = new File(System.getProperty("java.io.tmpdir"));
    dir.mkdirs();
    return dir.getAbsolutePath();
  }

  /** local-cluster launches executors from $SPARK_HOME and insists on a jars/ folder there. */
  private static void prepareSparkHome() {
    String home = System.getenv("SPARK_HOME");
    if (home == null) {
      throw new IllegalStateException("Env SPARK_HOME is not set. Run tests through Maven (surefire"
          + " sets it to <build dir>/spark-home) or set it to a folder for local-cluster executors.");
    }
    String scalaVersion = scala.util.Properties.versionNumberString().replaceAll("^(\\d+\\.\\d+).*", "$1");
    if (!scalaVersion.equals(System.getenv("SPARK_SCALA_VERSION"))) {
      throw new IllegalStateException("Env SPARK_SCALA_VERSION must be " + scalaVersion + ", the Scala version of this"
          + " Spark, for local-cluster (else Spark fails with 'Cannot find any build directories').");
    }
    File jars = new File(home, "jars");
    if (!jars.isDirectory() && !jars.mkdirs()) {
      throw new IllegalStateException("Cannot create " + jars + " for local-cluster executors.");
    }
  }

  private static String required(String property) {
    return Objects.requireNonNull(System.getProperty(property),
        "System property " + property + " is not set; run the tests through Maven surefire.");
  }

  /**
   * Executor JVMs of a master: N of {@code local-cluster[N,c,m]}; none for {@code local[N]}, whose
   * tasks run in the driver (a test may override {@code spark.master} with either).
   */
  static int executorsOf(String master) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("local-cluster\\[(\\d+),.*").matcher(master);
    return m.matches() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** Barrier stages need every slot: wait until all executors registered (driver counts as one). */
  private static void awaitExecutors(SparkContext sc, int executors) {
    long deadline = System.nanoTime() + EXECUTOR_WAIT_MS * 1_000_000L;
    while (sc.getExecutorMemoryStatus().size() < executors + 1) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Only " + (sc.getExecutorMemoryStatus().size() - 1) + " of "
            + executors + " local-cluster executors registered within " + EXECUTOR_WAIT_MS / 1000
            + " s; see the executor logs under $SPARK_HOME/work/.");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for executors", e);
      }
    }
  }
}
