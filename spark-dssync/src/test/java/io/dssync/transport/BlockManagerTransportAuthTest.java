package io.dssync.transport;

import static io.dssync.transport.ClusterChecks.othersThan;
import static io.dssync.transport.ClusterChecks.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.MessageId;
import io.dssync.testing.TestSpark;
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
