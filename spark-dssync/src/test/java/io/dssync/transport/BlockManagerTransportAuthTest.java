package io.dssync.transport;

import static io.dssync.transport.ClusterChecks.othersThan;
import static io.dssync.transport.ClusterChecks.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.MessageId;
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
import org.apache.spark.SparkException;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.netty.SparkTransportConf;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Option;

/**
 * The transport on a cluster with {@code spark.authenticate} and {@code
 * spark.network.crypto.enabled}: block fetches and the signal channel both authenticate.
 * Restarts the shared test session with these settings (the next plain {@code
 * TestSpark.session()} restores the defaults).
 */
class BlockManagerTransportAuthTest {
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
      try (BlockManagerTransport t = BlockManagerTransport.open(ctx, "secure", 0, TIMEOUT)) {
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
      return ClusterChecks.localDssyncBlocks().isEmpty() ? "" : "blocks left after close";
    });
    assertEquals(List.of("", "", "", ""), problems);
  }

  @Test
  void signalFromUnauthenticatedClientIsIgnored() {
    SparkException failure = assertThrows(SparkException.class, () -> TestSpark.runBarrier(N, ctx -> {
      try (BlockManagerTransport t = BlockManagerTransport.open(ctx, "forged", 0, TIMEOUT)) {
        MessageId id = new MessageId(3, 0, 0, 0);
        if (ctx.partitionId() == 0) {
          // Claims rank 0 published a block, over a connection that skips the auth handshake.
          String block = BlockIds.chunk("forged", 0, 0, id).name();
          sendWithoutAuthentication(t.peer(1), new Signal(Signal.Kind.READY, 0, block));
        } else if (ctx.partitionId() == 1) {
          t.fetch(0, id, new float[4], 0, 4, Duration.ofSeconds(3));
        }
        return "done";
      }
    }));
    String message = String.valueOf(failure.getMessage());
    assertTrue(message.contains("Rank 1 waited 3000 ms at step 3") && message.contains("from rank 0"),
        "the forged READY must be dropped, so rank 1 times out waiting for rank 0: " + message);
  }

  @Test
  void aClientWithoutTheSecretCannotFetchATrainingBlock() {
    List<String> outcomes = TestSpark.runBarrier(2, ctx -> {
      try (BlockManagerTransport t = BlockManagerTransport.open(ctx, "guarded", 0, TIMEOUT)) {
        MessageId id = new MessageId(0, 0, 0, 0);
        String block = BlockIds.chunk("guarded", 0, 0, id).name();
        if (ctx.partitionId() == 0) {
          t.publish(id, pattern(0, 0, 64), 0, 64, new int[] {1});
        }
        ctx.barrier(); // the block is stored on rank 0's executor from here on
        String outcome = "";
        if (ctx.partitionId() == 1) {
          PeerAddress owner = t.peer(0);
          outcome = "no secret: " + BlockFetchProbe.openBlocks(owner, block, BlockFetchProbe.Credentials.NONE)
              + " | wrong secret: " + BlockFetchProbe.openBlocks(owner, block, BlockFetchProbe.Credentials.WRONG)
              + " | right secret: " + BlockFetchProbe.openBlocks(owner, block, BlockFetchProbe.Credentials.RIGHT);
          float[] got = new float[64];
          t.fetch(0, id, got, 0, 64, TIMEOUT);
          assertArrayEquals(pattern(0, 0, 64), got);
        }
        return outcome;
      }
    });
    String outcome = outcomes.get(1);
    System.out.println("[security] " + outcome);
    assertTrue(outcome.matches("no secret: rejected .* \\| wrong secret: rejected .* \\| right secret: opened 1 chunk"),
        "only a client with the application's secret may open a training block: " + outcome);
  }

  @Test
  void trainingRunsWithAuthenticationAndEncryptionAndTheSecretLeaksNowhere() throws Exception {
    SparkSession spark = TestSpark.session(SECURE);
    java.io.File dir = new java.io.File(System.getProperty("dssync.buildDir", "target"), "secure-ckpt-" + System.nanoTime());
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
    java.nio.file.Path work = java.nio.file.Path.of(System.getenv("SPARK_HOME"), "work", spark.sparkContext().applicationId());
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

  private static void sendWithoutAuthentication(PeerAddress to, Signal signal) {
    SparkConf conf = SparkEnv.get().conf();
    RpcHandler noServer = new RpcHandler() {
      @Override
      public void receive(TransportClient client, java.nio.ByteBuffer message, RpcResponseCallback callback) {}

      @Override
      public StreamManager getStreamManager() {
        return new OneForOneStreamManager();
      }
    };
    try (TransportContext context = new TransportContext(
            SparkTransportConf.fromSparkConf(conf, "forger", 1, Option.empty(), Option.empty()), noServer);
        TransportClientFactory factory = context.createClientFactory()) {
      TransportClient client = factory.createClient(to.signalHost(), to.signalPort());
      client.send(signal.encode());
      Thread.sleep(500); // let the message leave before the factory closes the connection
    } catch (Exception rejected) {
      // The server may close the connection: either way the signal must not count.
    }
  }
}
