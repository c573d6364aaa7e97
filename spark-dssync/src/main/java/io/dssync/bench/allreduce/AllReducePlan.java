package io.dssync.bench.allreduce;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What every rank of the allreduce barrier stage does, in the same order on every rank: for each
 * message size (ascending), for each group size, {@link #warmupOps} untimed and {@code iterations}
 * timed all-reduces. Ranks are cut into consecutive groups of g ({@code [0..g-1], [g..2g-1], ...})
 * that all run at once, as DS-Sync groups do; the N mod g ranks left over sit that cell out.
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
    int rawRepeats) implements Serializable {

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
    int groups = workers / g;
    int index = rank / g;
    if (index >= groups) {
      return null;
    }
    int[] group = new int[g];
    for (int k = 0; k < g; k++) {
      group[k] = index * g + k;
    }
    return group;
  }

  /** {@code warmup} value meaning: as many warm-up ops as the message size calls for. */
  static final int AUTO_WARMUP = -1;
  /**
   * Bytes an automatic warm-up moves at least: enough ops for the JIT to compile the whole path.
   * 1 GiB (16 ops at 64 MiB) was too few on a slow 2-core VM: four executors were still compiling
   * during the timed ops, which then ran 1.6x slower than after 100 warm-up ops.
   */
  static final long WARMUP_BYTES = 4L << 30;
  static final int MIN_WARMUP = 2;
  /**
   * Small messages: C2 queues a method after about 5,000 calls (15,000 with its loop counts) and
   * compiles it on the same two cores, so with 5,000 warm-up ops the compiles of the per-op path
   * most likely ran in the timed window: three of eight 4 KiB g=2 cells read 4.2-7.6 ms (minimum
   * 1.0-2.3 ms; two of them with 1.4-1.6 ms of executor CPU per op) where the others read 0.34-1.34 ms.
   */
  static final int MAX_WARMUP = 20_000;

  /**
   * Untimed all-reduces before the cell of {@code bytes}: {@code warmup} when given, else enough
   * to move {@link #WARMUP_BYTES}, between {@link #MIN_WARMUP} and {@link #MAX_WARMUP} (a method of
   * the per-op path runs about once per op; a native peer needs no warm-up). The same on every
   * rank: it is a count.
   */
  int warmupOps(long bytes) {
    if (warmup != AUTO_WARMUP) {
      return warmup;
    }
    return (int) Math.max(MIN_WARMUP, Math.min(MAX_WARMUP, WARMUP_BYTES / bytes));
  }

  int operationsPerCell(long bytes) {
    return warmupOps(bytes) + iterations;
  }
}
