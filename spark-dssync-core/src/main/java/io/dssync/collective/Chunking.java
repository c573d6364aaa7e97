package io.dssync.collective;

import io.dssync.errors.Errors;
import java.util.Objects;

/**
 * The slice rule of a group all-reduce: a vector of {@code size} floats split into {@code chunks}
 * chunks gives chunk j the length size/chunks, plus one for the first size%chunks chunks, and the
 * chunks follow each other without gaps. Every member computes the same slices from the size
 * alone, so lengths never travel. Chunks are empty when size < chunks.
 */
public final class Chunking {
  private Chunking() {}

  /** Index of the first element of chunk {@code j}. */
  public static int offset(int size, int chunks, int j) {
    check(size, chunks, j);
    return j * (size / chunks) + Math.min(j, size % chunks);
  }

  /** Number of elements in chunk {@code j} (0 when size < chunks and j >= size). */
  public static int length(int size, int chunks, int j) {
    check(size, chunks, j);
    return size / chunks + (j < size % chunks ? 1 : 0);
  }

  private static void check(int size, int chunks, int j) {
    if (size < 0) {
      throw Errors.invalidSetting("vector size", size, "a vector has at least 0 elements", "Pass the vector's length.");
    }
    if (chunks < 1) {
      throw Errors.invalidSetting("chunk count", chunks, "a vector is split into at least 1 chunk",
          "Pass the group size.");
    }
    Objects.checkIndex(j, chunks);
  }
}
