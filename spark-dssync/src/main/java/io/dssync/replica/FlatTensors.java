package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import java.nio.FloatBuffer;
import java.util.List;

/** A fixed list of float32 tensors seen as one flat vector (tensor after tensor, row-major). */
final class FlatTensors {
  private static final NDIndex ALL = new NDIndex("...");

  private final List<NDArray> arrays;
  private final int size;

  FlatTensors(List<NDArray> arrays) {
    this.arrays = List.copyOf(arrays);
    long total = 0;
    for (NDArray a : this.arrays) {
      total += a.size();
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("flat vector of " + total + " floats exceeds an int index");
    }
    this.size = (int) total;
  }

  int size() {
    return size;
  }

  List<NDArray> arrays() {
    return arrays;
  }

  /** Copies all tensors into {@code dst} starting at {@code offset}. */
  void read(float[] dst, int offset) {
    int pos = offset;
    for (NDArray a : arrays) {
      float[] part = a.toFloatArray();
      System.arraycopy(part, 0, dst, pos, part.length);
      pos += part.length;
    }
  }

  /**
   * Copies {@code src} from {@code offset} into the tensors in place (so blocks and optimizers that
   * hold them see the new values). An indexed set copies; {@code NDArray.set(Buffer)} would instead
   * make the tensor point at the buffer. Call with grad mode off: these may be leaf tensors.
   */
  void write(float[] src, int offset, NDManager scratch) {
    int pos = offset;
    for (NDArray a : arrays) {
      int n = (int) a.size();
      try (NDArray tmp = scratch.create(FloatBuffer.wrap(src, pos, n), a.getShape())) {
        a.set(ALL, tmp);
      }
      pos += n;
    }
  }
}
