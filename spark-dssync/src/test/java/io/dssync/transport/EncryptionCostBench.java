package io.dssync.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.collective.GroupAllReduce;
import io.dssync.config.ProcessSettings;
import io.dssync.testing.TestSpark;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throughput cost of {@code spark.network.crypto.enabled}: the group all-reduce of a large
 * vector over four executor JVMs, plain (over the network, and through shared memory as executors
 * of one host exchange by default), with authentication only, and with authentication and
 * encryption (both over the network: authentication alone keeps shared memory too, so it is
 * switched off there to compare the network paths). A measurement, not a test (nothing is asserted about time);
 * it restarts the shared session three times, so it runs only by hand:
 * {@code mvn test -Dtest=EncryptionCostBench -Ddssync.bench=true [-Ddssync.benchFloats=4000000]}.
 */
class EncryptionCostBench {
  private static final int N = TestSpark.EXECUTORS;
  private static final int REPEATS = 8;

  @Test
  void groupAllReduceThroughputPlainAuthenticatedAndEncrypted() {
    assumeTrue(Boolean.getBoolean("dssync.bench"), "a measurement; run with -Ddssync.bench=true");
    int floats = Integer.getInteger("dssync.benchFloats", 4_000_000);
    Map<String, Map<String, String>> settings = new LinkedHashMap<>();
    settings.put("plain-shm", Map.of()); // same-host executors: shared memory, the default
    settings.put("plain", Map.of(ProcessSettings.SHARED_MEMORY.key(), "false"));
    settings.put("auth", Map.of("spark.authenticate", "true", "spark.authenticate.secret", "bench-secret",
        ProcessSettings.SHARED_MEMORY.key(), "false"));
    settings.put("auth+crypto", Map.of("spark.authenticate", "true", "spark.authenticate.secret", "bench-secret",
        "spark.network.crypto.enabled", "true"));
    Map<String, Double> mbPerS = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, String>> e : settings.entrySet()) {
      TestSpark.session(e.getValue());
      measure(floats, 1); // warm-up: JIT, connections
      double ms = measure(floats, REPEATS);
      // Each rank sends and receives 2 (N-1)/N of the vector per all-reduce.
      double bytesPerRank = 2.0 * (N - 1) / N * floats * Float.BYTES;
      mbPerS.put(e.getKey(), bytesPerRank / (ms / 1000) / 1e6);
      System.out.printf("[encryption] %-12s all-reduce of %d floats over %d executors: %.1f ms, %.1f MB/s per rank%n",
          e.getKey(), floats, N, ms, mbPerS.get(e.getKey()));
    }
    System.out.printf("[encryption] throughput ratio encrypted/authenticated %.3f, encrypted/plain %.3f,"
            + " encrypted/plain through shared memory %.3f%n", mbPerS.get("auth+crypto") / mbPerS.get("auth"),
        mbPerS.get("auth+crypto") / mbPerS.get("plain"), mbPerS.get("auth+crypto") / mbPerS.get("plain-shm"));
    TestSpark.session();
  }

  /** Median over ranks of the mean milliseconds per all-reduce of {@code floats} floats among all N ranks. */
  private static double measure(int floats, int repeats) {
    List<Double> perRank = TestSpark.runBarrier(N, ctx -> {
      Duration timeout = Duration.ofSeconds(120);
      try (PushTransport t = PushTransport.open(ctx, timeout)) {
        GroupAllReduce allReduce = new GroupAllReduce(t, timeout);
        float[] v = ClusterChecks.pattern(ctx.partitionId(), 0, floats);
        for (int i = 0; i < v.length; i++) {
          v[i] = Float.isFinite(v[i]) && Math.abs(v[i]) < 1e6f ? v[i] : 1f;
        }
        int[] all = {0, 1, 2, 3};
        ctx.barrier();
        long t0 = System.nanoTime();
        for (int step = 0; step < repeats; step++) {
          allReduce.average(all, v, step, 0);
        }
        return (System.nanoTime() - t0) / 1e6 / repeats;
      }
    });
    return perRank.stream().sorted().toList().get(N / 2);
  }
}
