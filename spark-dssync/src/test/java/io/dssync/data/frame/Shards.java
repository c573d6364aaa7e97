package io.dssync.data.frame;

import io.dssync.data.LabeledArrays;
import java.util.ArrayList;
import java.util.List;

/** For tests in other packages: the shards the trainer makes of one in-memory block, in rank order. */
public final class Shards {
  private Shards() {}

  /** Shard r = examples whose index is r modulo {@code workers}, exactly as the trainer shards a DataFrame. */
  public static List<LabeledArrays> of(LabeledArrays block, int workers) {
    List<LabeledArrays> out = new ArrayList<>();
    for (ShardedData.Piece p : ShardedData.split(0, 0, block, workers)) {
      out.add(p.data());
    }
    return out;
  }
}
