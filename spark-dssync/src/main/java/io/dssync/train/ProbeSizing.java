package io.dssync.train;

import io.dssync.collective.Parts;
import io.dssync.schedule.LinkMeasurements;
import java.util.ArrayList;
import java.util.List;

/**
 * How large the link probe's bandwidth message is for one pair of ranks, and how many times it is
 * sent. A message whose transfer lasts about as long as the jitter of a loaded machine (a few ms;
 * 512 KiB over a 1 Gbit/s link) reads a link 2x slower or faster from one probe to the next. So the
 * message starts at {@link #START_FLOATS} and grows {@link #GROWTH}-fold until its transfer (its time
 * beyond a small message's) takes {@link #TARGET_LATENCIES} times the small-message latency, at least
 * {@link #MIN_TARGET_MS}, or it reaches {@link #MAX_FLOATS}, the largest part the training transport
 * sends; it is then sent until there are {@link #REPEATS} times at that size, and the bandwidth comes
 * from their median, so one delayed message does not move it. A slow link reaches the target at the
 * start size, which keeps the probe short where messages are slow. Within a time budget (the
 * driver's share of training for the probe) the message grows only while three of the larger fit,
 * and repeats only while one more fits; but a transfer under {@link #MIN_TARGET_MS} grows whatever
 * the budget. Such a reading is jitter, or a traffic shaper's burst: the 128 KiB start size is about
 * the burst of a 100 Mbit/s uplink, which passes at the host link's rate, and on the 3 x 2 testbed
 * first probes with little or no budget read 38 and 449 MB/s over a 12.5 MB/s uplink and found the
 * wrong racks. That growth is cheap on a fast link (every message it adds is under the floor) and
 * costs one message past the burst on a shaped one: on 3 x 2 the first probe took 140-240 ms longer.
 *
 * <p>A later probe of the same link starts at the size the earlier one settled on ({@code startFloats}):
 * a message no larger than a traffic shaper's burst passes at the host link's rate, so a later probe
 * with a smaller budget, starting small again, read a 12.5 MB/s uplink at 49.2 MB/s on the 3 x 2
 * testbed and re-planned on it. Starting where the last probe ended, the two readings compare like
 * with like.
 *
 * <p>Both ranks of a pair must send messages of the same sizes. After every bandwidth message each
 * states the next size it wants in a small message (which is one more latency sample) and both take
 * the larger wish, so a pair stops only when neither side wants more. Pure: {@link LinkProbe} runs
 * {@link #measure} over the transport, tests over simulated links.
 */
final class ProbeSizing {
  /** The latency message: 4 KiB. */
  static final int SMALL_FLOATS = 1024;
  /** The first bandwidth message: 128 KiB, about 10 ms over a 100 Mbit/s link. */
  static final int START_FLOATS = 32 * 1024;
  /** 4 MiB: about 35 ms over 1 Gbit/s, and no larger than one part of a training all-reduce. */
  static final int MAX_FLOATS = Parts.PART_FLOATS;
  static final int GROWTH = 4;
  /** Four latencies: jitter must then delay two of the three messages by the whole transfer to read 2x. */
  static final double TARGET_LATENCIES = 4;
  /** Below a few ms one scheduler delay on a busy 2-core machine is the whole measurement. */
  static final double MIN_TARGET_MS = 5;
  static final int REPEATS = 3;
  /** The answer of {@link #next} when the pair has measured enough. */
  static final int DONE = 0;

  private ProbeSizing() {}

  /** One rank's side of the messages it swaps with its peer (both send, both receive). */
  interface Pair {
    /** Swaps a bandwidth message of {@code floats}; returns this side's ms for it. */
    double swapLarge(int floats);

    /** Swaps a small message that carries {@code wish}; returns this side's ms and the peer's wish. */
    Small swapSmall(int wish);
  }

  record Small(double ms, int peerWish) {}

  /** What one side measured of its link to the peer; {@code floats} is the bandwidth messages' size. */
  record Measured(double latencyMs, double bandwidthMBps, int floats) {}

  /**
   * The messages of one pair, as both sides run them, and what this side measured. Once the pair's
   * messages have taken about {@code budgetMs} (may be infinite) this side wishes no more.
   */
  static Measured measure(Pair pair, double budgetMs) {
    return measure(pair, budgetMs, START_FLOATS);
  }

  /**
   * Like {@link #measure(Pair, double)}, with the first bandwidth message of {@code startFloats}
   * (kept within {@link #START_FLOATS}..{@link #MAX_FLOATS}); both sides must pass the same.
   */
  static Measured measure(Pair pair, double budgetMs, int startFloats) {
    double spentMs = pair.swapSmall(DONE).ms(); // lines the two sides up
    List<Double> latencies = new ArrayList<>();
    latencies.add(pair.swapSmall(DONE).ms());
    spentMs += latencies.get(0);
    int floats = Math.max(START_FLOATS, Math.min(MAX_FLOATS, startFloats));
    List<Double> samples = new ArrayList<>();
    while (true) {
      samples.add(pair.swapLarge(floats));
      spentMs += samples.get(samples.size() - 1);
      int wish = next(floats, samples, LinkMeasurements.median(latencies), budgetMs - spentMs);
      Small reply = pair.swapSmall(wish);
      latencies.add(reply.ms());
      spentMs += reply.ms();
      int agreed = Math.max(wish, reply.peerWish());
      if (agreed == DONE) {
        break;
      }
      if (agreed != floats) {
        floats = agreed;
        samples.clear();
      }
    }
    double latency = LinkMeasurements.median(latencies);
    return new Measured(latency, bandwidthMBps(floats, samples, latency), floats);
  }

  /** The transfer time a bandwidth message must reach over a link of this small-message latency. */
  static double targetMs(double latencyMs) {
    return Math.max(TARGET_LATENCIES * latencyMs, MIN_TARGET_MS);
  }

  /**
   * The size (floats) of the next bandwidth message after messages of {@code floats} took
   * {@code samplesMs}, or {@link #DONE}: larger while the transfer is short beside the target (below
   * the cap, and when {@link #REPEATS} of the larger, each with its small message, fit in
   * {@code remainingMs}, or the transfer is under {@link #MIN_TARGET_MS}), else the same again until
   * there are {@link #REPEATS} samples or one more would not fit.
   */
  static int next(int floats, List<Double> samplesMs, double latencyMs, double remainingMs) {
    double ms = LinkMeasurements.median(samplesMs);
    double transferMs = ms - latencyMs;
    if (transferMs < targetMs(latencyMs) && floats < MAX_FLOATS) {
      int larger = Math.min(MAX_FLOATS, floats * GROWTH);
      double largerMs = latencyMs + Math.max(transferMs, 0) * larger / floats;
      if (transferMs < MIN_TARGET_MS || REPEATS * (largerMs + latencyMs) <= remainingMs) {
        return larger;
      }
    }
    return samplesMs.size() >= REPEATS || ms + latencyMs > remainingMs ? DONE : floats;
  }

  /**
   * MB/s (1e6 bytes) from messages of {@code floats} that took {@code samplesMs} over a link of
   * {@code latencyMs}: the extra bytes over a small message in the extra time. Jitter can make the
   * large message look no slower than the small one: then its whole time counts.
   */
  static double bandwidthMBps(int floats, List<Double> samplesMs, double latencyMs) {
    double ms = LinkMeasurements.median(samplesMs);
    double transferMs = ms > latencyMs ? ms - latencyMs : ms;
    return (floats - SMALL_FLOATS) * (double) Float.BYTES / 1e6 / (transferMs / 1e3);
  }
}
