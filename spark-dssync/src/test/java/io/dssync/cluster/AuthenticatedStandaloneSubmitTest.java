package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The path users take to a standalone cluster, with authentication on: start it with
 * {@code standalone-cluster} and {@code DSSYNC_CLUSTER_AUTH=1}, submit a short DS-Sync training with
 * {@code dssync-submit --auth} (Spark's launcher, Kryo with registration required and the project's
 * registrator), check what the trained model scores on real Fashion-MNIST, that its DS-Sync blocks
 * and signals passed Spark's authentication without reporting to the driver and that both workers
 * ran executors; the secret appears in no output and its temporary properties file is gone
 * afterwards; an application submitted without {@code --auth} is refused with an error that says
 * so; the cluster stops cleanly by its pids.
 *
 * <p>The same submit without authentication runs in {@link ElasticStandaloneTest} (through
 * examples/standalone.sh) and {@link NetnsTestbedTest}: one cluster start and one training here
 * cover what a separate unauthenticated copy of this test would.
 */
@Tag("cluster")
class AuthenticatedStandaloneSubmitTest {
  /** 4 CNN workers, 15 seeded steps of 64 on the first 4,000 images: measured 0.6400 in 2 runs. */
  private static final double MIN_ACCURACY = 0.55;

  @Test
  void authenticatedApplicationTrainsAndAnUnauthenticatedOneIsRefused() throws IOException {
    Path logs = Scripts.logDir("standalone-auth").toPath();
    Path tmp = logs.resolve("tmp");
    Files.createDirectories(tmp);
    Path clusterDir = logs.resolve("cluster");
    Map<String, String> env = Scripts.standaloneEnv(clusterDir, 2, 2, "2500m");
    env.put("DSSYNC_CLUSTER_AUTH", "1");
    env.put("TMPDIR", tmp.toString());
    String cluster = Scripts.script("standalone-cluster").toString();
    String master = Scripts.masterUrl(env);
    try {
      Scripts.Result start = Scripts.run(List.of(cluster, "start"), env, Duration.ofSeconds(180),
          logs.resolve("start.log"));
      assertEquals(0, start.exitCode(), "standalone-cluster start failed:\n" + start.output());
      Path secretFile = clusterDir.resolve("auth/secret");
      String secret = Files.readString(secretFile).trim();
      assertTrue(secret.length() >= 32, "a generated secret");
      assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
          Files.getPosixFilePermissions(secretFile));
      assertFalse(start.output().contains(secret), "start printed the secret");

      Map<String, String> job = new HashMap<>(env);
      job.put("DSSYNC_AUTH_SECRET_FILE", secretFile.toString());
      Scripts.Result run = Scripts.run(submit(master, true, "120000"), job, Duration.ofSeconds(900),
          logs.resolve("auth-job.log"));
      assertEquals(0, run.exitCode(), "the authenticated training failed:\n" + Scripts.tail(run.output(), 60));
      TrainSummary summary = TrainSummary.parse(run.output());
      System.err.println("[standalone --auth] " + summary.line());
      assertEquals(4, (int) summary.number("workers"));
      assertTrue(summary.number("final_test_accuracy") >= MIN_ACCURACY,
          "test accuracy " + summary.number("final_test_accuracy") + " < " + MIN_ACCURACY);
      assertEquals(0, (int) summary.number("driver_block_reports"), "training blocks reported to the driver");
      for (String worker : List.of("worker-1", "worker-2")) {
        File[] apps = clusterDir.resolve("work").resolve(worker).toFile().listFiles();
        assertTrue(apps != null && apps.length > 0, worker + " ran no executor of the application");
      }
      assertFalse(run.output().contains(secret), "the submit output shows the secret");
      File[] left = tmp.toFile().listFiles((d, name) -> name.startsWith("dssync-auth-"));
      assertEquals(0, left == null ? 0 : left.length, "the --auth properties file was not removed");

      Scripts.Result refused = Scripts.run(submit(master, false, "30000"), env, Duration.ofSeconds(600),
          logs.resolve("no-auth-job.log"));
      System.err.println("[standalone without --auth] exit " + refused.exitCode() + ": "
          + Scripts.tail(refused.output(), 5));
      assertNotEquals(0, refused.exitCode(), "an application without the secret ran on the authenticated cluster");
      assertFalse(refused.output().contains("final_test_accuracy="), "it must not have trained");
      // Refused at the first RPC with what to do, not after Spark's 60 s of registration retries.
      assertTrue(refused.output().contains("did not accept this application (without authentication)")
          && refused.output().contains("dssync-submit --auth"),
          "no clear refusal in:\n" + Scripts.tail(refused.output(), 20));
    } finally {
      Scripts.Result stop = Scripts.run(List.of(cluster, "stop"), env, Duration.ofSeconds(90),
          logs.resolve("stop.log"));
      assertEquals(0, stop.exitCode(), "standalone-cluster stop failed:\n" + stop.output());
    }
    assertFalse(Files.exists(clusterDir.resolve("auth")), "stop removes the cluster's secret");
    Scripts.Result status = Scripts.run(List.of(cluster, "status"), env, Duration.ofSeconds(30),
        logs.resolve("status.log"));
    assertEquals(1, status.exitCode(), "status after stop should find nothing running:\n" + status.output());
  }

  private static List<String> submit(String master, boolean auth, String slotWaitMs) {
    List<String> command = new java.util.ArrayList<>();
    command.add(Scripts.script("dssync-submit").toString());
    if (auth) {
      command.add("--auth");
    }
    command.addAll(List.of("--master", master, "--deploy-mode", "client", "--total-executor-cores", "4",
        "--executor-cores", "1", "train", "--workers", "4", "--train-limit", "4000", "--test-limit", "1000",
        "--epochs", "1", "--batch-size", "64", "--steps-per-stage", "5", "--slot-wait-ms", slotWaitMs));
    return command;
  }
}
