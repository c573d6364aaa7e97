package io.dssync.bench.allreduce;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.HostOrder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What every rank of the allreduce barrier stage does, in the same order on every rank: for each
 * message size (ascending), for each group size, {@link #warmupOps} untimed and {@code iterations}
 * timed all-reduces. Ranks are cut into consecutive groups of g in the order of their hosts
 * ({@link HostOrder#byHost}; on one host {@code [0..g-1], [g..2g-1], ...}) that all run at once, as
 * DS-Sync groups do; the N mod g ranks left over sit that cell out. (Cut by rank, a g=2 cell on two
 * racks of two hosts crossed the racks in one run and not in another.) Groups of three or more run
 * {@code algorithm}, a ring in the same host order.
 */
record AllReducePlan(
    String runId,
    int workers,
    List<Long> sizes,
    List<Integer> groupSizes,
    /** Warm-up ops per cell, or {@link #AUTO_WARMUP} for a count by message size ({@link #warmupOps}). */
    int warmup,
    int iterations,
    long timeoutMs,
    long rawBytes,
    int rawRepeats,
    AllReduceAlgorithm algorithm) implements Serializable {

  /** A plan with the direct algorithm. */
  AllReducePlan(String runId, int workers, List<Long> sizes, List<Integer> groupSizes, int warmup, int iterations,
      long timeoutMs, long rawBytes, int rawRepeats) {
    this(runId, workers, sizes, groupSizes, warmup, iterations, timeoutMs, rawBytes, rawRepeats,
        AllReduceAlgorithm.DIRECT);
  }

  /** One (message size, group size) point of the table. */
  record Cell(int index, long bytes, int groupSize) implements Serializable {}

  List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (long bytes : sizes) {
      for (int g : groupSizes) {
        cells.add(new Cell(cells.size(), bytes, g));
      }
    }
    return cells;
  }

  /** The sorted group of {@code rank} for group size g, or null when the rank sits this cell out. */
  int[] groupOf(int rank, int g) {
    int[] inOrder = new int[workers];
    for (int r = 0; r < workers; r++) {
      inOrder[r] = r;
    }
    return groupOf(rank, g, inOrder);
  }

  /**
   * Like {@link #groupOf(int, int)}, with the ranks cut into consecutive groups in the order
   * {@code order} (a permutation of the ranks; see {@link HostOrder#byHost}).
   */
  static int[] groupOf(int rank, int g, int[] order) {
    int position = 0;
    while (order[position] != rank) {
      position++;
    }
    int index = position / g;
    if (index >= order.length / g) {
      return null;
    }
    int[] group = Arrays.copyOfRange(order, index * g, index * g + g);
    Arrays.sort(group);
    return group;
  }

  /** {@code warmup} value meaning: as many warm-up ops as the message size calls for. */
  static final int AUTO_WARMUP = -1;
  /**
   * Bytes an automatic warm-up moves at least: enough ops for the JIT to compile the whole path,
   * also on a slow 2-core machine where four executors compile at once (1 GiB is not).
   */
  static final long WARMUP_BYTES = 4L << 30;
  static final int MIN_WARMUP = 2;
  /**
   * Small messages: C2 queues a method after about 5,000 calls (15,000 with its loop counts) and
   * compiles it on the same cores, so fewer warm-up ops leave the compiles of the per-op path in the
   * timed window, where they show as a few cells several times slower than the rest.
   */
  static final int MAX_WARMUP = 20_000;

  /**
   * An automatic warm-up also stops once its group has spent about this long on it: over a 100
   * Mbit/s link 4 GiB takes some six minutes per point. Loopback's points warm up well within it
   * (4 KiB: 20,000 ops in about 8 s; 1 MiB: 4,096 in about 16 s).
   */
  static final long WARMUP_BUDGET_MS = 30_000;
  /** The most agreements an automatic warm-up holds (it doubles its batches, so about log2 of {@link #MAX_WARMUP}). */
  static final int MAX_WARMUP_CHECKS = 32;

  /**
   * Untimed all-reduces before the cell of {@code bytes}: {@code warmup} when given, else enough
   * to move {@link #WARMUP_BYTES}, between {@link #MIN_WARMUP} and {@link #MAX_WARMUP} (a method of
   * the per-op path runs about once per op; a native peer needs no warm-up), and then no more than
   * {@link #WARMUP_BUDGET_MS} allows ({@link #warmupBoundedByTime}).
   */
  int warmupOps(long bytes) {
    if (warmup != AUTO_WARMUP) {
      return warmup;
    }
    return (int) Math.max(MIN_WARMUP, Math.min(MAX_WARMUP, WARMUP_BYTES / bytes));
  }

  /** Whether the warm-up stops at {@link #WARMUP_BUDGET_MS} (automatic) or runs the count given. */
  boolean warmupBoundedByTime() {
    return warmup == AUTO_WARMUP;
  }

  /**
   * The first step id of {@code cell}: every cell has its own range, as long as its most ops, so
   * the ranks of a cell agree on step ids whatever the warm-up of earlier cells came to.
   */
  long firstStep(Cell cell) {
    long step = 0;
    for (Cell c : cells().subList(0, cell.index())) {
      step += warmupOps(c.bytes()) + MAX_WARMUP_CHECKS + iterations;
    }
    return step;
  }

  /**
   * How many more warm-up ops the group runs after {@code done} of them took {@code elapsedMs} (the
   * group's mean, the same number on every member): twice the last batch, but no more than the
   * {@code planned} count and what the time left of {@link #WARMUP_BUDGET_MS} fits at the rate so
   * far; 0 when not one more op fits. Pure, so every member computes the same.
   */
  static int nextWarmupBatch(int lastBatch, int done, int planned, double elapsedMs) {
    if (done >= planned || done <= 0 || !(elapsedMs < WARMUP_BUDGET_MS)) {
      return 0;
    }
    double fits = Math.floor((WARMUP_BUDGET_MS - elapsedMs) / (elapsedMs / done));
    return (int) Math.max(0, Math.min(Math.min(2L * lastBatch, planned - done), fits));
  }
}
