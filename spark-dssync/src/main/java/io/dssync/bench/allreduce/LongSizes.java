package io.dssync.bench.allreduce;

import java.util.ArrayList;
import java.util.List;

/** Geometric size ladders for the benchmarks' defaults. */
final class LongSizes {
  private LongSizes() {}

  /** {@code from, 4 from, 16 from, ...} up to and including {@code to}. */
  static List<Long> everyFourTimes(long from, long to) {
    List<Long> sizes = new ArrayList<>();
    for (long s = from; s <= to; s *= 4) {
      sizes.add(s);
    }
    return List.copyOf(sizes);
  }
}
