package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The path users take: start a Spark standalone cluster with {@code standalone-cluster}, submit a
 * short DS-Sync training with the example job (which goes through {@code dssync-submit}, hence
 * Spark's launcher, Kryo with registration required and the project's registrator), check what
 * the trained model scores on real Fashion-MNIST, and stop the cluster by its pids.
 */
class StandaloneClusterSubmitTest {
  /** 4 CNN workers, 15 seeded steps of 64 on the first 4,000 images: measured 0.6400 in 2 runs. */
  private static final double MIN_ACCURACY = 0.55;

  @Test
  void trainingSubmittedToAStandaloneClusterLearnsAndTheClusterStopsCleanly() {
    Path logs = Scripts.logDir("standalone").toPath();
    Map<String, String> env = Scripts.standaloneEnv(logs.resolve("cluster"), 2, 2, "2500m");
    String cluster = Scripts.script("standalone-cluster").toString();
    try {
      Scripts.Result start = Scripts.run(List.of(cluster, "start"), env, Duration.ofSeconds(180),
          logs.resolve("start.log"));
      assertEquals(0, start.exitCode(), "standalone-cluster start failed:\n" + start.output());

      Map<String, String> job = new HashMap<>(env);
      job.put("MASTER", Scripts.masterUrl(env));
      job.put("DEPLOY_MODE", "client");
      job.put("WORKERS", "4");
      Scripts.Result run = Scripts.run(List.of(Scripts.script("examples/standalone.sh").toString(),
              "--train-limit", "4000", "--test-limit", "1000", "--epochs", "1", "--steps-per-stage", "5",
              "--slot-wait-ms", "120000"),
          job, Duration.ofSeconds(900), logs.resolve("job.log"));
      assertEquals(0, run.exitCode(), "the submitted training failed:\n" + Scripts.tail(run.output(), 60));
      TrainSummary summary = TrainSummary.parse(run.output());
      System.err.println("[standalone] " + summary.fields());
      assertEquals(4, (int) summary.number("workers"));
      assertTrue(summary.number("final_test_accuracy") >= MIN_ACCURACY,
          "test accuracy " + summary.number("final_test_accuracy") + " < " + MIN_ACCURACY);
      assertEquals(0, (int) summary.number("driver_block_reports"), "training blocks reported to the driver");
      for (String worker : List.of("worker-1", "worker-2")) {
        File[] apps = logs.resolve("cluster/work").resolve(worker).toFile().listFiles();
        assertTrue(apps != null && apps.length > 0, worker + " ran no executor of the application");
      }
    } finally {
      Scripts.Result stop = Scripts.run(List.of(cluster, "stop"), env, Duration.ofSeconds(90),
          logs.resolve("stop.log"));
      assertEquals(0, stop.exitCode(), "standalone-cluster stop failed:\n" + stop.output());
    }
    Scripts.Result status = Scripts.run(List.of(cluster, "status"), env, Duration.ofSeconds(30),
        logs.resolve("status.log"));
    assertEquals(1, status.exitCode(), "status after stop should find nothing running:\n" + status.output());
  }
}
