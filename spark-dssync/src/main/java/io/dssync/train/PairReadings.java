package io.dssync.train;

import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.ReplanRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per-pair readings of the auto schedule's link probes, as the ranks' {@link FirstPlan} and the driver's
 * {@link AutoSchedule} both use them: a pair's bandwidth from its two ranks' readings, how it changed since the
 * probe before, and the message sizes the next probe starts each pair at.
 */
final class PairReadings {
  private PairReadings() {}

  /**
   * Each pair's bandwidth as both its ranks measured it together: the same bytes over the mean of
   * their two times, i.e. the harmonic mean of their two readings. Each side times its swap from
   * its own send, so when one side starts late by d its reading is short by d and its partner's
   * long by d; the mean cancels d, where either reading alone can be off several-fold on a loaded
   * machine (one in-rack pair of the 3 x 2 testbed read 782.6 MB/s over a 125 MB/s link).
   */
  static double[][] paired(double[][] bandwidth) {
    int n = bandwidth.length;
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      out[i] = bandwidth[i].clone();
    }
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double a = bandwidth[i][j];
        double b = bandwidth[j][i];
        if (a > 0 && b > 0) {
          out[i][j] = out[j][i] = 2 / (1 / a + 1 / b);
        }
      }
    }
    return out;
  }

  /**
   * Per pair, the larger of the sizes its two ranks report (they agree: both sent the same messages);
   * a pair this probe did not meet (0) keeps the size of {@code before} (null: none yet), so the
   * next probe of it starts where its last one ended.
   */
  static int[][] settled(List<WorkerResult> byRank, int[][] before) {
    int n = byRank.size();
    int[][] floats = new int[n][n];
    for (int r = 0; r < n; r++) {
      for (int peer = 0; peer < n; peer++) {
        floats[r][peer] = Math.max(byRank.get(r).links().messageFloats()[peer],
            byRank.get(peer).links().messageFloats()[r]);
        if (floats[r][peer] == 0 && before != null) {
          floats[r][peer] = before[r][peer];
        }
      }
    }
    return floats;
  }

  /**
   * Per pair, how its bandwidth changed since the probe before ({@code before}, null: none): this
   * probe's reading over that one's where it met the pair; for a pair it did not meet (a later probe
   * meets each rack link once), the median change of the pairs it met between the same two racks of
   * {@code rackOfRank} (null: none); 0 where nothing is known.
   */
  static double[][] changes(double[][] before, double[][] now, int[] rackOfRank) {
    int n = now.length;
    double[][] change = new double[n][n];
    if (before == null) {
      return change;
    }
    Map<Long, List<Double>> byRackPair = new HashMap<>();
    for (int r = 0; r < n; r++) {
      for (int p = 0; p < n; p++) {
        if (p != r && now[r][p] > 0 && before[r][p] > 0) {
          change[r][p] = now[r][p] / before[r][p];
          if (rackOfRank != null) {
            byRackPair.computeIfAbsent(rackPair(rackOfRank, r, p), k -> new ArrayList<>()).add(change[r][p]);
          }
        }
      }
    }
    for (int r = 0; r < n; r++) {
      for (int p = 0; p < n; p++) {
        List<Double> met = rackOfRank == null ? null : byRackPair.get(rackPair(rackOfRank, r, p));
        if (p != r && now[r][p] == 0 && met != null) {
          change[r][p] = LinkMeasurements.median(met);
        }
      }
    }
    return change;
  }

  private static long rackPair(int[] rackOfRank, int r, int p) {
    int a = Math.min(rackOfRank[r], rackOfRank[p]);
    int b = Math.max(rackOfRank[r], rackOfRank[p]);
    return ((long) a << 32) | b;
  }

  /**
   * The sizes the next probe starts each pair at: {@code floats}, the sizes this probe ended at (or
   * the last probe of a pair it did not meet), but where a pair's bandwidth fell more than
   * {@link ReplanRule#FACTOR}-fold ({@link #changes}), smaller by the same factor, not below
   * {@link ProbeSizing#START_FLOATS}, so that its message takes about as long as at the old bandwidth.
   * On the 2 x 2 testbed after a 5-10x drop of an uplink each cross-rack pair's one 512 KiB message at
   * the old size took 260-615 ms at 1-2 MB/s, and the probe that had to confirm the drop (every pair:
   * three rounds) took 974 ms, the fit's first probe 374. Only a drop beyond the factor shrinks them:
   * smaller messages read a link less surely, and changes within it would ratchet the sizes down from
   * probe to probe. The testbed's shaper lets a burst of 10 ms of its rate pass at once, so the smaller
   * message rides no more of it after the drop than the larger one did before; a link that speeds up
   * again grows them ({@link ProbeSizing}).
   */
  static int[][] shrunkAfterDrops(int[][] floats, double[][] change) {
    int n = floats.length;
    int[][] out = new int[n][];
    for (int r = 0; r < n; r++) {
      out[r] = floats[r].clone();
      for (int p = 0; p < n; p++) {
        if (p != r && dropped(change[r][p]) && out[r][p] > ProbeSizing.START_FLOATS) {
          out[r][p] = (int) Math.max(ProbeSizing.START_FLOATS, Math.round(out[r][p] * change[r][p]));
        }
      }
    }
    return out;
  }

  /** Whether a pair's {@link #changes} is a drop beyond {@link ReplanRule#FACTOR} (0: not known). */
  private static boolean dropped(double change) {
    return change > 0 && change * ReplanRule.FACTOR < 1;
  }

  /**
   * Per pair, what the next probe compares with: {@code now}'s reading where this probe met the pair,
   * else {@code before}'s times the pair's {@link #changes} where a drop shrank its messages (so that
   * the probe which meets it at the smaller size does not shrink them again), else {@code before}'s.
   */
  static double[][] lastReadings(double[][] before, double[][] now, double[][] change) {
    int n = now.length;
    double[][] out = new double[n][n];
    for (int r = 0; r < n; r++) {
      for (int p = 0; p < n; p++) {
        double was = before == null ? 0 : before[r][p];
        out[r][p] = now[r][p] > 0 ? now[r][p] : dropped(change[r][p]) ? was * change[r][p] : was;
      }
    }
    return out;
  }

  /** "0.50-4.00 MiB" for the bandwidth messages' sizes of every pair. */
  static String mebibytes(int[][] perPair) {
    IntSummaryStatistics floats = new IntSummaryStatistics();
    for (int r = 0; r < perPair.length; r++) {
      for (int peer = 0; peer < perPair.length; peer++) {
        if (peer != r) {
          floats.accept(perPair[r][peer]);
        }
      }
    }
    double min = floats.getMin() * (double) Float.BYTES / (1 << 20);
    double max = floats.getMax() * (double) Float.BYTES / (1 << 20);
    return floats.getCount() == 0 ? "none" : String.format(Locale.ROOT, "%.2f-%.2f MiB", min, max);
  }
}
