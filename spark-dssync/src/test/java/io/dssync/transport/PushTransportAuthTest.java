package io.dssync.transport;

import static io.dssync.transport.ClusterChecks.othersThan;
import static io.dssync.transport.ClusterChecks.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.MessageId;
import io.dssync.errors.DsSyncException;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The transport on a cluster with {@code spark.authenticate} and {@code
 * spark.network.crypto.enabled}: every connection that carries parts authenticates and encrypts.
 * Restarts the shared test session with these settings (the next plain {@code
 * TestSpark.session()} restores the defaults). Runs last ({@link Order}, see
 * junit-platform.properties), so no class after it pays for that restart. Tagged "cluster" (45 s on 2
 * cores): it runs with the cluster tests and on every Spark version of .ci/spark-matrix, not in mvn test.
 */
@Order(Integer.MAX_VALUE)
@Tag("cluster")
class PushTransportAuthTest {
  private static final int N = TestSpark.EXECUTORS;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Map<String, String> SECURE = Map.of(
      "spark.authenticate", "true",
      "spark.authenticate.secret", "dssync-test-secret",
      "spark.network.crypto.enabled", "true");

  @BeforeAll
  static void startSecureCluster() {
    TestSpark.session(SECURE);
  }

  @Test
  void chunksMoveWithAuthenticationAndEncryptionOn() {
    int length = 10_001;
    List<String> problems = TestSpark.runBarrier(N, ctx -> {
      SparkConf conf = SparkEnv.get().conf();
      if (!SparkEnv.get().securityManager().isAuthenticationEnabled()
          || !conf.getBoolean("spark.network.crypto.enabled", false)) {
        return "executor runs without authentication or encryption";
      }
      int rank = ctx.partitionId();
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
        for (int other : othersThan(rank, N)) {
          if (t.sharedMemory(other)) {
            return "rank " + rank + " sends to rank " + other + " through shared memory, not the encrypted channel";
          }
        }
        for (int step = 0; step < 3; step++) {
          MessageId id = new MessageId(step, 0, 0, 0);
          t.publish(id, pattern(rank, step, length), 0, length, othersThan(rank, N));
          for (int sender : othersThan(rank, N)) {
            float[] got = new float[length];
            t.fetch(sender, id, got, 0, length, TIMEOUT);
            assertArrayEquals(pattern(sender, step, length), got, "from rank " + sender);
          }
        }
      }
      return OpenTransports.inThisJvm() == 0 ? "" : "transport still open after close";
    });
    assertEquals(List.of("", "", "", ""), problems);
  }

  @Test
  void onlyAClientWithTheSecretCanPushAPart() {
    List<String> outcomes = TestSpark.runBarrier(2, ctx -> {
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
        String outcome = "";
        float[] got = new float[64];
        if (ctx.partitionId() == 0) {
          // Parts claiming to come from rank 0, for rank 1's inbox, from clients built by hand.
          PeerAddress target = t.peer(1);
          outcome = "no secret: " + forge(target, 10, PartPushProbe.Credentials.NONE)
              + " | wrong secret: " + forge(target, 11, PartPushProbe.Credentials.WRONG)
              + " | right secret: " + forge(target, 12, PartPushProbe.Credentials.RIGHT);
        }
        ctx.barrier(); // rank 1 looks only after every attempt was made
        if (ctx.partitionId() == 1) {
          // The authenticated push arrived; the others must not have: they time out.
          t.fetch(0, new MessageId(12, 0, 0, 0), got, 0, 64, TIMEOUT);
          assertArrayEquals(pattern(0, 12, 64), got);
          for (int step : new int[] {10, 11}) {
            DsSyncException missing = assertThrows(DsSyncException.class,
                () -> t.fetch(0, new MessageId(step, 0, 0, 0), got, 0, 64, Duration.ofMillis(300)));
            assertTrue(missing.getMessage().contains("at step " + step), missing.getMessage());
            // The question what rank 0 waits for crossed the authenticated, encrypted channel too.
            assertTrue(missing.getMessage().contains("Behind it: rank 0 is not waiting for any peer"),
                missing.getMessage());
          }
        }
        ctx.barrier(); // rank 0 keeps its channel open until rank 1 has asked it
        return outcome;
      }
    });
    String outcome = outcomes.get(0);
    System.out.println("[security] " + outcome);
    assertTrue(outcome.matches("no secret: rejected .* \\| wrong secret: rejected .* \\| right secret: accepted"),
        "only a client with the application's secret may push a part: " + outcome);
  }

  @Test
  void trainingRunsWithAuthenticationAndEncryptionAndTheSecretLeaksNowhere() throws Exception {
    SparkSession spark = TestSpark.session(SECURE);
    java.io.File dir = new java.io.File(System.getProperty("dssync.buildDir", "target"),
        "secure-ckpt-" + System.nanoTime());
    TrainerConfig config = TrainerConfig.builder().set(TrainerConfig.WORKERS, N).set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 1).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.CHECKPOINT_DIR, dir.toURI().toString())
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000).build();
    TrainingResult result = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, TestData.fashionMnist(1_024, 200), N));
    assertTrue(result.finalTestAccuracy() > 0.3, "it trained: " + result.finalTestAccuracy());
    String secret = SECURE.get("spark.authenticate.secret");
    java.util.List<java.nio.file.Path> written = new java.util.ArrayList<>();
    try (var files = java.nio.file.Files.walk(dir.toPath())) {
      files.filter(java.nio.file.Files::isRegularFile).forEach(written::add);
    }
    java.nio.file.Path work = java.nio.file.Path.of(System.getenv("SPARK_HOME"), "work",
        spark.sparkContext().applicationId());
    try (var files = java.nio.file.Files.walk(work)) {
      files.filter(java.nio.file.Files::isRegularFile).forEach(written::add); // executor stdout/stderr
    }
    assertTrue(written.size() > 2, "checkpoints and executor logs were written: " + written);
    for (java.nio.file.Path f : written) {
      String text = new String(java.nio.file.Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertTrue(!text.contains(secret), "the secret appears in " + f);
    }
    String metrics = result.toString() + result.history() + config.describe();
    assertTrue(!metrics.contains(secret), "the secret appears in the metrics");
    System.out.printf("[security] trained with spark.authenticate + network crypto: accuracy %.4f; secret absent from"
        + " %d files (checkpoints, executor logs) and the metrics%n", result.finalTestAccuracy(), written.size());
  }

  private static String forge(PeerAddress to, long step, PartPushProbe.Credentials credentials) {
    PartHeader header = new PartHeader(to.inboxId(), 0, new MessageId(step, 0, 0, 0), 64);
    return PartPushProbe.push(to, header, pattern(0, step, 64), credentials);
  }
}
