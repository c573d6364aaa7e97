package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The link probe's sizing rule over simulated links: message i takes latency + bytes / bandwidth + jitter. */
class ProbeSizingTest {
  private static final int START = ProbeSizing.START_FLOATS;
  private static final double UNBOUNDED = Double.POSITIVE_INFINITY;

  /** A symmetric link whose peer wishes what this side wishes, unless told otherwise. */
  private static class SimulatedPair implements ProbeSizing.Pair {
    final double latencyMs;
    final double mbps;
    final Deque<Double> jitterMs = new ArrayDeque<>();
    final Deque<Integer> peerWishes = new ArrayDeque<>();
    final List<Integer> sent = new ArrayList<>();
    int smalls;

    SimulatedPair(double latencyMs, double mbps) {
      this.latencyMs = latencyMs;
      this.mbps = mbps;
    }

    double ms(int floats) {
      return latencyMs + floats * (double) Float.BYTES / 1e6 / mbps * 1e3;
    }

    @Override
    public double swapLarge(int floats) {
      sent.add(floats);
      return ms(floats) + (jitterMs.isEmpty() ? 0 : jitterMs.poll());
    }

    @Override
    public ProbeSizing.Small swapSmall(int wish) {
      smalls++;
      int peer = smalls > 2 && !peerWishes.isEmpty() ? peerWishes.poll() : wish;
      return new ProbeSizing.Small(ms(ProbeSizing.SMALL_FLOATS), peer);
    }
  }

  @Test
  void aGigabitLinkGrowsUntilItsTransferIsSeveralLatenciesAndReadsItsBandwidth() {
    // 2 ms latency: the target is 8 ms; 128 KiB takes 1 ms, 512 KiB 4 ms, 2 MiB 17 ms (then three of them).
    SimulatedPair link = new SimulatedPair(2, 125);
    ProbeSizing.Measured m = ProbeSizing.measure(link, UNBOUNDED);
    assertEquals(List.of(START, 4 * START, 16 * START, 16 * START, 16 * START), link.sent);
    assertEquals(16 * START, m.floats());
    assertEquals(125, m.bandwidthMBps(), 1e-6);
    assertEquals(link.ms(ProbeSizing.SMALL_FLOATS), m.latencyMs(), 1e-9);
  }

  @Test
  void oneDelayedMessageDoesNotMoveTheEstimate() {
    // 10 ms of jitter on one 2 MiB message: the median of three ignores it. On the old single
    // 512 KiB message (4 ms at 125 MB/s) the same delay read the link 3.4x slower.
    SimulatedPair link = new SimulatedPair(2, 125);
    link.jitterMs.addAll(List.of(0.0, 0.0, 10.0, 0.0, 0.0));
    assertEquals(125, ProbeSizing.measure(link, UNBOUNDED).bandwidthMBps(), 1e-6);
    SimulatedPair late = new SimulatedPair(2, 125);
    late.jitterMs.addAll(List.of(0.0, 0.0, 0.0, 0.0, 10.0));
    assertEquals(125, ProbeSizing.measure(late, UNBOUNDED).bandwidthMBps(), 1e-6);
    // A delay that halts the growth (512 KiB read as 19 ms): the repeats' median shows the transfer
    // short after all, and the message grows on.
    SimulatedPair stopped = new SimulatedPair(2, 125);
    stopped.jitterMs.addAll(List.of(0.0, 15.0));
    ProbeSizing.Measured m = ProbeSizing.measure(stopped, UNBOUNDED);
    assertEquals(List.of(START, 4 * START, 4 * START, 4 * START, 16 * START, 16 * START, 16 * START), stopped.sent);
    assertEquals(125, m.bandwidthMBps(), 1e-6);
  }

  @Test
  void growthStopsAtTheLargestTransportPart() {
    SimulatedPair loopback = new SimulatedPair(2, 2000);
    ProbeSizing.Measured m = ProbeSizing.measure(loopback, UNBOUNDED);
    int max = ProbeSizing.MAX_FLOATS;
    assertEquals(List.of(START, 4 * START, 16 * START, max, max, max), loopback.sent);
    assertEquals(2000, m.bandwidthMBps(), 1e-6);
  }

  @Test
  void aSlowLinkIsMeasuredAtTheStartSize() {
    // 20 Mbit/s shared by two pairs: 128 KiB takes 105 ms, far above the target.
    SimulatedPair slow = new SimulatedPair(2, 1.25);
    ProbeSizing.Measured m = ProbeSizing.measure(slow, UNBOUNDED);
    assertEquals(List.of(START, START, START), slow.sent);
    assertEquals(1.25, m.bandwidthMBps(), 1e-9);
  }

  @Test
  void aLinkBetweenGrowsOnce() {
    // 30 MB/s: 128 KiB takes 4 ms beyond the latency (< 8.5 ms target), 512 KiB 17 ms.
    SimulatedPair link = new SimulatedPair(2, 30);
    ProbeSizing.Measured m = ProbeSizing.measure(link, UNBOUNDED);
    assertEquals(List.of(START, 4 * START, 4 * START, 4 * START), link.sent);
    assertEquals(30, m.bandwidthMBps(), 1e-9);
  }

  @Test
  void bothSidesFollowTheLargerWish() {
    // This side wants the slow link again at the start size; the peer wants a larger message.
    SimulatedPair slow = new SimulatedPair(2, 1.25);
    slow.peerWishes.add(4 * START);
    ProbeSizing.Measured m = ProbeSizing.measure(slow, UNBOUNDED);
    assertEquals(List.of(START, 4 * START, 4 * START, 4 * START), slow.sent);
    assertEquals(4 * START, m.floats());
    assertEquals(1.25, m.bandwidthMBps(), 1e-9);
  }

  @Test
  void aBudgetStopsTheGrowthWhereThreeLargerMessagesWouldNotFit() {
    // 4 ms latency (16.6 ms target), 25 MB/s: 128 KiB takes 5.1 ms beyond the latency, 512 KiB 21 ms.
    SimulatedPair unbounded = new SimulatedPair(4, 25);
    ProbeSizing.measure(unbounded, UNBOUNDED);
    assertEquals(List.of(START, 4 * START, 4 * START, 4 * START), unbounded.sent);
    // 60 ms for the pair: after the first two messages three of 512 KiB (29 ms each with its small
    // one) do not fit, so the start size is sent three times.
    SimulatedPair link = new SimulatedPair(4, 25);
    ProbeSizing.Measured m = ProbeSizing.measure(link, 60);
    assertEquals(List.of(START, START, START), link.sent);
    assertEquals(25, m.bandwidthMBps(), 1e-6);
    // 10 ms: after the first bandwidth message not even a repeat fits.
    SimulatedPair tight = new SimulatedPair(4, 25);
    ProbeSizing.measure(tight, 10);
    assertEquals(List.of(START), tight.sent);
  }

  @Test
  void aTransferUnderTheFloorGrowsWhateverTheBudget() {
    // 1 Gbit/s, 2 ms latency, 10 ms for the pair: 128 KiB (1 ms) and 512 KiB (4 ms) are jitter-sized;
    // 2 MiB (17 ms) is read, once.
    SimulatedPair link = new SimulatedPair(2, 125);
    ProbeSizing.Measured m = ProbeSizing.measure(link, 10);
    assertEquals(List.of(START, 4 * START, 16 * START), link.sent);
    assertEquals(125, m.bandwidthMBps(), 1e-6);
  }

  @Test
  void aShapersBurstIsGrownPastAndALaterProbeStartsWhereTheFirstSettled() {
    // 12.5 MB/s uplink (100 Mbit/s) with a 125,000-byte burst at 125 MB/s, 1 ms latency.
    SimulatedPair first = shaped();
    ProbeSizing.Measured settled = ProbeSizing.measure(first, UNBOUNDED);
    assertTrue(settled.floats() > START, "the first probe grew past the burst: " + first.sent);
    // A later probe with a small budget, starting small again: its 128 KiB message is nearly all
    // burst (1.5 ms), so it grows once whatever the budget and reads the uplink within the burst's
    // share of the larger message.
    SimulatedPair small = shaped();
    double read = ProbeSizing.measure(small, 15).bandwidthMBps();
    assertEquals(List.of(START, 4 * START), small.sent);
    assertTrue(read < 1.5 * 12.5, "read " + read + " MB/s");
    // Starting at the settled size, the same budget reads what the first probe read: like with like.
    SimulatedPair later = shaped();
    double again = ProbeSizing.measure(later, 15, settled.floats()).bandwidthMBps();
    assertEquals(settled.floats(), later.sent.get(0));
    assertEquals(settled.bandwidthMBps(), again, 1e-9);
  }

  @Test
  void theFirstProbesTimePerRoundMeasuresAHostLinkInFullAndAShapedUplinkPastItsBurst() {
    // LinkProbe gives each pair of the first probe one round's time.
    double pairMs = AutoSchedule.FIRST_PROBE_MS_PER_ROUND;
    // 1 Gbit/s with 2 ms latency: 2 MiB three times, as without a budget.
    SimulatedPair hostLink = new SimulatedPair(2, 125);
    ProbeSizing.measure(hostLink, pairMs);
    assertEquals(List.of(START, 4 * START, 16 * START, 16 * START, 16 * START), hostLink.sent);
    SimulatedPair uplink = shaped();
    ProbeSizing.Measured m = ProbeSizing.measure(uplink, pairMs);
    assertTrue(m.floats() > START, "grew past the burst: " + uplink.sent);
    assertTrue(m.bandwidthMBps() < 1.5 * 12.5, "read " + m.bandwidthMBps() + " MB/s: " + uplink.sent);
  }

  /** An uplink behind a token-bucket shaper: its first 125,000 bytes pass at the host link's 125 MB/s. */
  private static SimulatedPair shaped() {
    return new SimulatedPair(1, 12.5) {
      @Override
      double ms(int floats) {
        double bytes = floats * (double) Float.BYTES;
        double burst = Math.min(bytes, 125_000);
        return latencyMs + (burst / 125e6 + (bytes - burst) / 12.5e6) * 1e3;
      }
    };
  }

  @Test
  void theTargetIsSeveralLatenciesButNeverBelowAFewMilliseconds() {
    assertEquals(8, ProbeSizing.targetMs(2), 1e-9);
    assertEquals(ProbeSizing.MIN_TARGET_MS, ProbeSizing.targetMs(0.1), 1e-9);
    // At 0.1 ms latency a 128 KiB message of 1 ms is still short beside the 5 ms floor: grow.
    assertEquals(4 * START, ProbeSizing.next(START, List.of(1.1), 0.1, UNBOUNDED));
    assertEquals(START, ProbeSizing.next(START, List.of(30.0), 0.1, UNBOUNDED));
    assertEquals(ProbeSizing.DONE, ProbeSizing.next(START, List.of(30.0, 9.0, 31.0), 0.1, UNBOUNDED));
  }
}
