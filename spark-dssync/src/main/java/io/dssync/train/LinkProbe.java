package io.dssync.train;

import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.schedule.ProbeRounds;
import java.time.Duration;

/**
 * The auto schedule's short link probe, run at the start of a stage through the training transport
 * itself (no extra Spark stage): ranks meet in the rounds of {@link ProbeRounds}, and each pair
 * swaps a 4 KiB message twice (the first only lines the two up; the second gives the latency) and a
 * 512 KiB one, whose extra time over the small one gives the bandwidth. Pairs of a
 * round run at once, as the groups of a training step do. Measured with 1 MiB on the two-rack
 * testbed (4 ranks, a loaded 2-core machine): 0.5-1.9 s per probe; 512 KiB still takes ~40 ms
 * over a 100 Mbit/s uplink, well above the message latency.
 */
final class LinkProbe {
  static final int SMALL_FLOATS = 1024;
  static final int LARGE_FLOATS = 128 * 1024;
  /** Message rounds of the probe, clear of the worker loop's rounds 0-2. */
  static final int ROUND_BASE = 16;

  private LinkProbe() {}

  static LinkSample run(Transport transport, int n, String host, long step, Duration timeout) {
    long start = System.nanoTime();
    int rank = transport.rank();
    double[] latency = new double[n];
    double[] bandwidth = new double[n];
    float[] small = new float[SMALL_FLOATS];
    float[] large = new float[LARGE_FLOATS];
    for (int round = 0; round < ProbeRounds.rounds(n); round++) {
      int peer = ProbeRounds.partner(rank, round, n);
      if (peer < 0) {
        continue;
      }
      MessageIds ids = new MessageIds(step, ROUND_BASE + round);
      exchange(transport, peer, ids.next(), small, timeout);
      double smallMs = exchange(transport, peer, ids.next(), small, timeout);
      double largeMs = exchange(transport, peer, ids.next(), large, timeout);
      double extraMB = (LARGE_FLOATS - SMALL_FLOATS) * (double) Float.BYTES / 1e6;
      // Jitter can make the large message look no slower than the small one: then count it whole.
      double ms = largeMs > smallMs ? largeMs - smallMs : largeMs;
      latency[peer] = smallMs;
      bandwidth[peer] = extraMB / (ms / 1e3);
    }
    return new LinkSample(host, latency, bandwidth, (System.nanoTime() - start) / 1e6);
  }

  /** Both sides publish, then fetch the other's copy; returns this side's ms from publish to data. */
  private static double exchange(Transport transport, int peer, MessageId id, float[] data, Duration timeout) {
    long t0 = System.nanoTime();
    transport.publish(id, data, 0, data.length, new int[] {peer});
    transport.fetch(peer, id, data, 0, data.length, timeout);
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
