package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.testing.MiniHdfs;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DS-Sync on a real YARN: Hadoop's MiniYARNCluster over a MiniDFSCluster (the staging file system)
 * in this JVM; the YARN example job submits a short training through {@code dssync-submit --master
 * yarn}, once in client and once in cluster deploy mode. The application master and the executors
 * are separate JVMs the NodeManager launches; the model they train is scored on real Fashion-MNIST.
 *
 * <p>Needs Spark's YARN module, which only the build with {@code -Pyarn} has (see the parent pom):
 * {@code mvn -Pyarn -DbuildDir=$PWD/spark-dssync/target-yarn -pl spark-dssync -am test -Dtest=YarnSubmitTest}.
 * Without it the test is skipped, saying so.
 */
class YarnSubmitTest {
  /**
   * 2 CNN workers, 31 seeded steps of 64 on the first 4,000 images: measured 0.5240 in client mode
   * (Spark 4.2.0). Well above chance (0.10); the standalone test's 4 workers x 15 steps reach 0.64.
   */
  private static final double MIN_ACCURACY = 0.45;
  private static final int WORKERS = 2;

  @Test
  void trainingSubmittedToYarnLearnsInClientAndInClusterMode() throws Exception {
    assumeTrue(onClassPath("org.apache.spark.deploy.yarn.Client"),
        "Spark's YARN module is not in this build (Maven Central has no spark-yarn 4.1.0): run with -Pyarn");
    Path logs = Scripts.logDir("yarn").toPath();
    // Application master + 2 executors of 1 GiB (+384 MiB overhead each), or a 2 GiB cluster-mode driver as master.
    try (MiniHdfs hdfs = MiniHdfs.start();
         MiniYarn yarn = MiniYarn.start(hdfs.configuration(), logs.resolve("hadoop-conf"), 6144, 4)) {
      Path properties = yarnProperties(logs.resolve("dssync-yarn.conf"));
      // Both modes run before any accuracy is asserted, so one run's shortfall does not hide the other's result.
      Map<String, TrainSummary> summaries = new LinkedHashMap<>();
      for (String mode : List.of("client", "cluster")) {
        summaries.put(mode, submit(yarn, properties, mode, logs));
      }
      summaries.forEach((mode, summary) -> {
        assertEquals(WORKERS, (int) summary.number("workers"));
        assertTrue(summary.number("final_test_accuracy") >= MIN_ACCURACY,
            mode + " mode: test accuracy " + summary.number("final_test_accuracy") + " < " + MIN_ACCURACY);
        assertEquals(0, (int) summary.number("driver_block_reports"), "training blocks reported to the driver");
      });
    }
  }

  /** Submits the YARN example in {@code mode}; returns the driver's summary once YARN ran it with its executors. */
  private static TrainSummary submit(MiniYarn yarn, Path properties, String mode, Path logs) {
    Set<Path> before = yarn.applicationLogDirs();
    Map<String, String> env = Scripts.env();
    env.put("HADOOP_CONF_DIR", yarn.confDir().toString());
    env.put("DSSYNC_PROPERTIES_FILE", properties.toString());
    env.put("DEPLOY_MODE", mode);
    env.put("WORKERS", String.valueOf(WORKERS));
    env.put("EXECUTOR_MEMORY", "1g");
    // The test build's unpacked PyTorch library, shared by every container (as on one real node).
    env.put("NODE_ENGINE_CACHE_DIR", Scripts.buildDir().resolve("djl-cache").toString());
    Scripts.Result run = Scripts.run(List.of(Scripts.script("examples/yarn.sh").toString(),
            "--train-limit", "4000", "--test-limit", "1000", "--epochs", "1", "--steps-per-stage", "5",
            "--slot-wait-ms", "120000"),
        env, Duration.ofSeconds(600), logs.resolve(mode + ".log"));
    assertEquals(0, run.exitCode(), mode + "-mode training on YARN failed:\n" + Scripts.tail(run.output(), 60)
        + "\ncontainer logs under " + yarn.applicationLogDirs());
    Path app = newApplication(yarn, before, mode);
    File[] containers = app.toFile().listFiles(File::isDirectory);
    assertTrue(containers != null && containers.length >= 1 + WORKERS,
        mode + " mode: YARN ran fewer than an application master and " + WORKERS + " executors: " + app);
    // A cluster-mode driver runs in the application master's container: its output is that container's stdout.
    String driverOutput = mode.equals("client") ? run.output() : Scripts.read(amContainer(app).resolve("stdout"));
    TrainSummary summary = TrainSummary.parse(driverOutput);
    System.err.println("[yarn " + mode + "] " + summary.line());
    return summary;
  }

  private static boolean onClassPath(String className) {
    try {
      Class.forName(className, false, YarnSubmitTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The project's Spark defaults plus what containers on this machine need. */
  private static Path yarnProperties(Path file) throws IOException {
    String javaHome = System.getProperty("java.home");
    StringBuilder conf = new StringBuilder(Files.readString(Scripts.script("dssync-defaults.conf")));
    conf.append("\n# YarnSubmitTest: containers are local processes of this machine\n");
    // Spark's jars are on this machine already (the build's Spark "installation"): no upload per application.
    conf.append("spark.yarn.jars=local:").append(Scripts.buildDir().resolve("spark-dist/jars")).append("/*\n");
    conf.append("spark.yarn.appMasterEnv.JAVA_HOME=").append(javaHome).append('\n');
    conf.append("spark.executorEnv.JAVA_HOME=").append(javaHome).append('\n');
    conf.append("spark.yarn.appMasterEnv.SPARK_LOCAL_IP=127.0.0.1\n");
    conf.append("spark.executorEnv.SPARK_LOCAL_IP=127.0.0.1\n");
    String dataDir = System.getenv("DSSYNC_DATA_DIR");
    if (dataDir != null) {
      conf.append("spark.yarn.appMasterEnv.DSSYNC_DATA_DIR=").append(dataDir).append('\n');
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, conf);
    return file;
  }

  private static Path newApplication(MiniYarn yarn, Set<Path> before, String mode) {
    Set<Path> added = new HashSet<>(yarn.applicationLogDirs());
    added.removeAll(before);
    assertEquals(1, added.size(), mode + " mode: expected one new YARN application, found " + added);
    return added.iterator().next();
  }

  /** The application master's container: YARN numbers it 000001. */
  private static Path amContainer(Path app) {
    File[] am = app.toFile().listFiles(f -> f.getName().endsWith("_000001"));
    assertTrue(am != null && am.length == 1, "no application master container in " + app);
    return am[0].toPath();
  }
}
