package io.dssync.data.format;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * Where each field's feature ids live in a click-log encoding: field f owns the global ids
 * {@code [offset(f), offset(f) + buckets(f))}, and id {@code offset(f)} means "missing" (or a
 * value never seen when the ids were assigned). DeepFM needs only {@link #fields()} and
 * {@link #totalIds()}; per-field ranges are here for per-field embeddings or analysis.
 */
public record FieldLayout(List<String> names, int[] buckets) implements Serializable {
  public FieldLayout {
    names = List.copyOf(names);
    buckets = buckets.clone();
    if (names.size() != buckets.length) {
      throw new IllegalArgumentException(names.size() + " names for " + buckets.length + " fields");
    }
  }

  public int fields() {
    return buckets.length;
  }

  public int offset(int field) {
    int offset = 0;
    for (int f = 0; f < field; f++) {
      offset += buckets[f];
    }
    return offset;
  }

  public int buckets(int field) {
    return buckets[field];
  }

  public int totalIds() {
    return Arrays.stream(buckets).sum();
  }
}
