package io.dssync.data;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.util.SplittableRandom;

/**
 * Mini-batches of one worker's shard. The examples form an infinite sequence of consecutive
 * per-epoch permutations of the shard; step {@code s} is the slice {@code [s*B, s*B+B)} of that
 * sequence, wrapping across epoch boundaries. Epoch e's permutation depends only on
 * (seed, rank, e), so a batch depends only on its step: a training restarted at any step sees the
 * same batches as one that never stopped, and every example is seen exactly once per epoch.
 *
 * <p>Not thread-safe: one batcher per worker thread. Apart from the (at most two) cached epoch
 * permutations, {@link #fill} allocates nothing.
 */
public final class ShardBatcher {
  private final LabeledArrays shard;
  private final int batchSize;
  private final long seed;
  private final int rank;
  // Two slots, because a batch that straddles an epoch boundary needs two permutations in a row.
  private final int[][] permutations = new int[2][];
  private final long[] permutationEpochs = {-1, -1};
  private int nextSlot;

  public ShardBatcher(LabeledArrays shard, int batchSize, long seed, int rank) {
    if (shard.size() == 0) {
      throw DataErrors.badRecord("in the shard of rank " + rank, "it is empty: fewer examples than"
          + " workers", "Use fewer workers or more data");
    }
    if (batchSize < 1) {
      throw Errors.invalidFlag("batchSize", batchSize, "must be at least 1",
          "Set a positive batch size per worker.");
    }
    this.shard = shard;
    this.batchSize = batchSize;
    this.seed = seed;
    this.rank = rank;
  }

  public int batchSize() {
    return batchSize;
  }

  public int shardSize() {
    return shard.size();
  }

  /** The epoch the first example of step {@code step}'s batch belongs to. */
  public long epochOf(long step) {
    return firstPosition(step) / shard.size();
  }

  /**
   * Writes step {@code step}'s batch: {@code batchSize * featureSize} floats into
   * {@code featuresOut} and {@code batchSize * labelWidth} into {@code labelsOut}, both exactly that
   * long.
   */
  public void fill(long step, float[] featuresOut, float[] labelsOut) {
    int f = shard.featureSize();
    int w = shard.labelWidth();
    if (featuresOut.length != batchSize * f) {
      throw DataErrors.lengthMismatch("the features buffer", batchSize * f, featuresOut.length);
    }
    if (labelsOut.length != batchSize * w) {
      throw DataErrors.lengthMismatch("the labels buffer", batchSize * w, labelsOut.length);
    }
    int n = shard.size();
    long position = firstPosition(step);
    for (int j = 0; j < batchSize; j++, position++) {
      int example = permutation(position / n)[(int) (position % n)];
      System.arraycopy(shard.features(), example * f, featuresOut, j * f, f);
      System.arraycopy(shard.labels(), example * w, labelsOut, j * w, w);
    }
  }

  private long firstPosition(long step) {
    if (step < 0) {
      throw Errors.invalidSetting("step", step, "must be at least 0", "Steps count from 0.");
    }
    return Math.multiplyExact(step, (long) batchSize);
  }

  private int[] permutation(long epoch) {
    for (int s = 0; s < 2; s++) {
      if (permutationEpochs[s] == epoch) {
        return permutations[s];
      }
    }
    int slot = nextSlot;
    nextSlot = 1 - nextSlot;
    if (permutations[slot] == null) {
      permutations[slot] = new int[shard.size()];
    }
    shuffle(permutations[slot], new SplittableRandom(mix(seed, rank, epoch)));
    permutationEpochs[slot] = epoch;
    return permutations[slot];
  }

  /** Fisher-Yates over the identity, so the result depends only on the generator's seed. */
  private static void shuffle(int[] order, SplittableRandom random) {
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }

  /**
   * A well-spread 64-bit seed from (seed, rank, epoch). Each input goes through a finalizer
   * before the next is folded in, so nearby triples such as (s, 1, 0) and (s, 0, 1) do not collide.
   */
  static long mix(long seed, int rank, long epoch) {
    long h = fmix(seed ^ 0x9E3779B97F4A7C15L);
    h = fmix(h ^ (rank * 0xC2B2AE3D27D4EB4FL));
    return fmix(h ^ (epoch * 0x165667B19E3779F9L + 0x27D4EB2F165667C5L));
  }

  // The 64-bit finalizer of MurmurHash3: every input bit affects every output bit.
  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xFF51AFD7ED558CCDL;
    k ^= k >>> 33;
    k *= 0xC4CEB9FE1A85EC53L;
    k ^= k >>> 33;
    return k;
  }
}
