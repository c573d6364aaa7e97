package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.InMemoryTransport;
import io.dssync.schedule.ProbeRounds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The link probe between threads: every pair agrees on its message sizes (a disagreement fails the
 * fetch or hangs until the timeout) and every rank measures every peer.
 */
class LinkProbeTest {
  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void everyPairAgreesOnItsMessagesAndMeasuresTheLink(int n) throws Exception {
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<LinkSample>> futures = new ArrayList<>();
      for (InMemoryTransport t : transports) {
        futures.add(pool.submit(() -> LinkProbe.run(t, n, "host" + t.rank(), 7, Double.POSITIVE_INFINITY, null,
            ProbeRounds.all(n), Duration.ofSeconds(30))));
      }
      List<LinkSample> samples = new ArrayList<>();
      for (Future<LinkSample> f : futures) {
        samples.add(f.get(60, TimeUnit.SECONDS));
      }
      for (int r = 0; r < n; r++) {
        LinkSample s = samples.get(r);
        assertEquals("host" + r, s.host());
        for (int p = 0; p < n; p++) {
          if (p == r) {
            continue;
          }
          int floats = s.messageFloats()[p];
          assertEquals(floats, samples.get(p).messageFloats()[r], "ranks " + r + " and " + p + " sent alike");
          assertTrue(floats >= ProbeSizing.START_FLOATS && floats <= ProbeSizing.MAX_FLOATS, "size " + floats);
          assertTrue(s.latencyMs()[p] > 0 && Double.isFinite(s.latencyMs()[p]), "latency " + s.latencyMs()[p]);
          assertTrue(s.bandwidthMBps()[p] > 0 && Double.isFinite(s.bandwidthMBps()[p]),
              "bandwidth " + s.bandwidthMBps()[p]);
        }
      }
    } finally {
      pool.shutdownNow();
      transports.forEach(InMemoryTransport::close);
    }
  }

  @Test
  void aProbeOfSomeRoundsMeetsOnlyTheirPairsAndReadsZeroForTheRest() throws Exception {
    int n = 4;
    int[] rounds = {0, 2}; // (0,3) (1,2), then (0,1) (2,3)
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<LinkSample>> futures = new ArrayList<>();
      for (InMemoryTransport t : transports) {
        futures.add(pool.submit(() -> LinkProbe.run(t, n, "host" + t.rank(), 7, 0, null, rounds,
            Duration.ofSeconds(30))));
      }
      for (int r = 0; r < n; r++) {
        LinkSample s = futures.get(r).get(60, TimeUnit.SECONDS);
        assertEquals(2, s.rounds());
        for (int p = 0; p < n; p++) {
          boolean met = p != r && (ProbeRounds.partner(r, 0, n) == p || ProbeRounds.partner(r, 2, n) == p);
          assertEquals(met, s.bandwidthMBps()[p] > 0, "rank " + r + " and " + p);
          assertEquals(met, s.latencyMs()[p] > 0, "rank " + r + " and " + p);
          // Budget 0: the fixed messages, grown (in memory to the largest) while their transfer is under 5 ms.
          assertEquals(met, s.messageFloats()[p] >= ProbeSizing.START_FLOATS, "rank " + r + " and " + p);
        }
      }
    } finally {
      pool.shutdownNow();
      transports.forEach(InMemoryTransport::close);
    }
  }
}
