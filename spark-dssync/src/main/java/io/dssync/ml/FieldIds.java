package io.dssync.ml;

import java.io.Serializable;
import java.util.Arrays;

/**
 * DeepFM's input from categorical indices: field f of the features holds a category index
 * 0..cardinality(f)-1 (what StringIndexer produces per column), and the model wants one global
 * id space over all fields. Field f owns ids offset(f) .. offset(f) + cardinality(f), the last one
 * for a category not seen in training (an index past the field's cardinality, negative, or not a
 * whole number), so a new category at prediction time gets a learned "unseen" embedding instead of
 * failing or colliding with another field's ids.
 */
record FieldIds(int[] cardinalities) implements Serializable {
  FieldIds {
    cardinalities = cardinalities.clone();
  }

  /** From the largest index seen in each field (cardinality = largest + 1; a field of only negatives has 0). */
  static FieldIds fromLargest(double[] largest) {
    int[] cardinalities = new int[largest.length];
    for (int f = 0; f < largest.length; f++) {
      cardinalities[f] = largest[f] < 0 ? 0 : (int) Math.floor(largest[f]) + 1;
    }
    return new FieldIds(cardinalities);
  }

  int fields() {
    return cardinalities.length;
  }

  /** Size of the global id space: every field's categories plus its unseen id. */
  int vocabSize() {
    long total = 0;
    for (int c : cardinalities) {
      total += c + 1L;
    }
    return Math.toIntExact(total);
  }

  /** Replaces the {@link #fields()} category indices at {@code offset} by global ids, in place. */
  void encode(float[] features, int offset) {
    int first = 0;
    for (int f = 0; f < cardinalities.length; f++) {
      float v = features[offset + f];
      int c = cardinalities[f];
      boolean seen = v >= 0 && v < c && v == Math.rint(v);
      features[offset + f] = first + (seen ? (int) v : c);
      first += c + 1;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldIds other && Arrays.equals(cardinalities, other.cardinalities);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(cardinalities);
  }

  @Override
  public int[] cardinalities() {
    return cardinalities.clone();
  }
}
