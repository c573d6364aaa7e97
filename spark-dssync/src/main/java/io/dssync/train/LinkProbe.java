package io.dssync.train;

import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.schedule.ProbeRounds;
import java.time.Duration;

/**
 * The auto schedule's short link probe, run at the start of a stage through the training transport
 * itself (no extra Spark stage): ranks meet in the rounds of {@link ProbeRounds}, and each pair
 * swaps 4 KiB messages (the first only lines the two up; the others give the latency, as their
 * median) and bandwidth messages sized by {@link ProbeSizing}, whose median extra time over the
 * small ones gives the bandwidth. Pairs of a round run at once, as the groups of a training step do.
 */
final class LinkProbe {
  /** Message rounds of the probe, clear of the worker loop's rounds 0-2. */
  static final int ROUND_BASE = 16;

  private LinkProbe() {}

  /**
   * Measures the link to the peer of each of {@code rounds} (every round: every peer; {@link
   * io.dssync.schedule.ProbeScope} says which, alike on every rank), each pair in its share of
   * {@code budgetMs} (may be infinite), starting each pair's bandwidth messages at
   * {@code startFloats[peer]} (null: the first probe, at {@link ProbeSizing#START_FLOATS}). The
   * budget is shared by the rounds run: a probe of fewer rounds measures each of its pairs with more
   * (larger or more repeated messages), since each of them alone stands for its link.
   */
  static LinkSample run(Transport transport, int n, String host, long step, double budgetMs, int[] startFloats,
      int[] rounds, Duration timeout) {
    long start = System.nanoTime();
    int rank = transport.rank();
    double[] latency = new double[n];
    double[] bandwidth = new double[n];
    int[] messageFloats = new int[n];
    float[] small = new float[ProbeSizing.SMALL_FLOATS];
    float[] large = new float[ProbeSizing.MAX_FLOATS];
    double pairBudgetMs = budgetMs / Math.max(1, rounds.length);
    for (int round : rounds) {
      int peer = ProbeRounds.partner(rank, round, n);
      if (peer < 0) {
        continue;
      }
      MessageIds ids = new MessageIds(step, ROUND_BASE + round);
      ProbeSizing.Measured m = ProbeSizing.measure(new ProbeSizing.Pair() {
        @Override
        public double swapLarge(int floats) {
          return exchange(transport, peer, ids.next(), large, floats, timeout);
        }

        @Override
        public ProbeSizing.Small swapSmall(int wish) {
          small[0] = wish; // sizes are at most 2^20, exact in a float
          double ms = exchange(transport, peer, ids.next(), small, small.length, timeout);
          return new ProbeSizing.Small(ms, (int) small[0]); // now the peer's copy
        }
      }, pairBudgetMs, startFloats == null ? ProbeSizing.START_FLOATS : startFloats[peer]);
      latency[peer] = m.latencyMs();
      bandwidth[peer] = m.bandwidthMBps();
      messageFloats[peer] = m.floats();
    }
    return new LinkSample(host, latency, bandwidth, messageFloats, rounds.length, (System.nanoTime() - start) / 1e6);
  }

  /** Both sides publish, then fetch the other's copy; returns this side's ms from publish to data. */
  private static double exchange(Transport transport, int peer, MessageId id, float[] data, int length,
      Duration timeout) {
    long t0 = System.nanoTime();
    transport.publish(id, data, 0, length, new int[] {peer});
    transport.fetch(peer, id, data, 0, length, timeout);
    return (System.nanoTime() - t0) / 1e6;
  }

  /** Consecutive message ids of one probe round. */
  private static final class MessageIds {
    private final long step;
    private final int round;
    private int next;

    MessageIds(long step, int round) {
      this.step = step;
      this.round = round;
    }

    MessageId next() {
      return new MessageId(step, round, 0, next++);
    }
  }
}
