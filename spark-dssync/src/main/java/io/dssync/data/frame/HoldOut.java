package io.dssync.data.frame;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.Errors;
import java.io.Serializable;

/**
 * Which examples of a DataFrame are held out for validation: example j of input partition p is held
 * out when a hash of (seed, p, j) falls below {@code fraction}. The decision needs neither the other
 * partitions nor a sort, so {@link ShardedData} makes it in the same pass that cuts the training
 * shards; {@code Dataset.randomSplit} sorts every partition and reads the input once per split.
 * The same input partitioning gives the same examples for every worker count.
 */
public record HoldOut(double fraction, long seed) implements Serializable {
  public HoldOut {
    if (!(fraction > 0 && fraction < 1)) {
      throw Errors.invalidSetting("validationFraction", fraction, "a held-out fraction is in (0, 1)",
          "Set validationFraction between 0 and 1 (0 = no validation split).");
    }
  }

  /** Whether example {@code index} of input partition {@code partition} is held out. */
  public boolean holds(int partition, int index) {
    long h = mix(seed ^ mix(((long) partition << 32) | (index & 0xFFFFFFFFL)));
    return (h >>> 11) * 0x1.0p-53 < fraction;
  }

  /** How many of the first {@code size} examples of {@code partition} are held out. */
  int heldCount(int partition, int size) {
    int held = 0;
    for (int j = 0; j < size; j++) {
      held += holds(partition, j) ? 1 : 0;
    }
    return held;
  }

  /** The examples of {@code block} (input partition {@code partition}) held out ({@code held}) or kept. */
  LabeledArrays select(int partition, LabeledArrays block, boolean held) {
    int heldOut = heldCount(partition, block.size());
    int count = held ? heldOut : block.size() - heldOut;
    int[] chosen = new int[count];
    for (int j = 0, k = 0; j < block.size(); j++) {
      if (holds(partition, j) == held) {
        chosen[k++] = j;
      }
    }
    return block.select(chosen, count, count + " examples of input partition " + partition);
  }

  /** SplitMix64's finalizer: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
