package io.dssync.transport;

import static io.dssync.transport.ClusterChecks.othersThan;
import static io.dssync.transport.ClusterChecks.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.collective.GroupAllReduce;
import io.dssync.collective.InMemoryTransport;
import io.dssync.collective.MessageId;
import io.dssync.collective.Parts;
import io.dssync.testing.TestSpark;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.SparkEnv;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ranks in the same JVM exchange parts by memory copy, ranks in other JVMs over the network, and
 * the results are the same bits either way: on {@code local[4]} (every rank in the driver JVM)
 * and on {@code local-cluster[2,2,..]} (two executor JVMs with two ranks each, so every group
 * mixes both paths). The reference is the same all-reduce over the in-memory test transport.
 *
 * <p>Runs after every class that uses the default shared session ({@link Order}, see
 * junit-platform.properties), so it leaves its last session as it is instead of restarting the
 * default one: the only class after it, {@link PushTransportAuthTest}, starts its own.
 */
@Order(Integer.MAX_VALUE - 1)
class PushTransportSameJvmTest {
  private static final int N = 4;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int SIZE = 2 * Parts.PART_FLOATS + 12_345;

  /** What one rank saw: which peers shared its JVM, and its vector after the all-reduces. */
  record Outcome(String executorId, boolean[] sameJvm, float[] vector, int mismatches) implements Serializable {}

  @ParameterizedTest
  @ValueSource(strings = {"local[4]", "local-cluster[2,2,1536]"})
  void sameJvmPeersGetMemoryCopiesAndTheResultIsTheSameBits(String master) throws Exception {
    TestSpark.session(Map.of("spark.master", master));
    List<Outcome> outcomes = TestSpark.runBarrier(N, ctx -> {
      int rank = ctx.partitionId();
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
        boolean[] same = new boolean[N];
        for (int r = 0; r < N; r++) {
          same[r] = t.sameJvm(r);
        }
        int mismatches = 0;
        for (int step = 0; step < 3; step++) {
          MessageId id = new MessageId(step, 0, 0, 0);
          t.publish(id, pattern(rank, step, 1000 + step), 0, 1000 + step, othersThan(rank, N));
          for (int sender : othersThan(rank, N)) {
            float[] got = new float[1000 + step];
            t.fetch(sender, id, got, 0, got.length, TIMEOUT);
            mismatches += java.util.Arrays.equals(got, pattern(sender, step, got.length)) ? 0 : 1;
          }
        }
        float[] vector = start(rank);
        runAllReduces(new GroupAllReduce(t, TIMEOUT), rank, vector);
        return new Outcome(SparkEnv.get().executorId(), same, vector, mismatches);
      }
    });
    float[][] expected = reference();
    for (int r = 0; r < N; r++) {
      Outcome o = outcomes.get(r);
      for (int peer = 0; peer < N; peer++) {
        boolean sharesJvm = o.executorId().equals(outcomes.get(peer).executorId());
        assertEquals(sharesJvm, o.sameJvm()[peer], master + ": rank " + r + " sees rank " + peer + " as same-JVM");
      }
      assertEquals(0, o.mismatches(), master + ": parts rank " + r + " received that differ");
      assertArrayEquals(expected[r], o.vector(), master + ": rank " + r + " after the all-reduces");
    }
    List<Integer> open = TestSpark.runBarrier(N, ctx -> OpenTransports.inThisJvm());
    assertEquals(List.of(0, 0, 0, 0), open, master + ": transports open after the stage");
  }

  /** Pairs {0,1},{2,3}, then pairs {0,2},{1,3}, then all four; the same on every transport. */
  private static void runAllReduces(GroupAllReduce reduce, int rank, float[] vector) {
    reduce.average(rank < 2 ? new int[] {0, 1} : new int[] {2, 3}, vector, 0, 0);
    reduce.average(rank % 2 == 0 ? new int[] {0, 2} : new int[] {1, 3}, vector, 1, 0);
    reduce.average(new int[] {0, 1, 2, 3}, vector, 2, 0);
  }

  /** The same all-reduces over the in-memory transport, one thread per rank. */
  private static float[][] reference() throws Exception {
    List<InMemoryTransport> transports = InMemoryTransport.create(N);
    ExecutorService pool = Executors.newFixedThreadPool(N);
    try {
      List<Future<float[]>> futures = new ArrayList<>();
      for (int r = 0; r < N; r++) {
        int rank = r;
        futures.add(pool.submit(() -> {
          float[] vector = start(rank);
          runAllReduces(new GroupAllReduce(transports.get(rank), TIMEOUT), rank, vector);
          return vector;
        }));
      }
      float[][] out = new float[N][];
      for (int r = 0; r < N; r++) {
        out[r] = futures.get(r).get();
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static float[] start(int rank) {
    float[] v = new float[SIZE];
    for (int i = 0; i < SIZE; i++) {
      v[i] = (rank + 1) * 0.37f + (i % 1013) * 0.001f;
    }
    return v;
  }
}
