package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.pytorch.engine.PtNDArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.List;

/**
 * A fixed list of float32 tensors seen as one flat vector (tensor after tensor, row-major).
 *
 * <p>Reads and writes go through a view of each tensor's own memory when PyTorch offers one
 * ({@code toByteBuffer(true)} on a contiguous CPU tensor): one copy per float, nothing allocated.
 * This runs twice per step and replica, inside the measured sync time. Whether the views really
 * alias the tensors is checked once, at construction; if not, the copying path is used.
 */
final class FlatTensors {
  private static final NDIndex ALL = new NDIndex("...");

  private final List<NDArray> arrays;
  private final int size;
  private final boolean views;

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
    this.views = this.arrays.stream().allMatch(FlatTensors::viewAliases);
  }

  /**
   * Whether a change through the tensor's memory view shows in the tensor (flips one bit, then
   * restores it). An empty tensor has nothing to read or write, so it never needs a view.
   */
  private static boolean viewAliases(NDArray a) {
    if (a.size() == 0) {
      return true;
    }
    if (!(a instanceof PtNDArray) || a.getDataType() != DataType.FLOAT32) {
      return false;
    }
    FloatBuffer view = view(a);
    float old = view.get(0);
    float flipped = Float.intBitsToFloat(Float.floatToRawIntBits(old) ^ 1);
    view.put(0, flipped);
    boolean aliases = Float.floatToRawIntBits(a.toFloatArray()[0]) == Float.floatToRawIntBits(flipped);
    view.put(0, old);
    return aliases;
  }

  private static FloatBuffer view(NDArray a) {
    ByteBuffer bytes = ((PtNDArray) a).toByteBuffer(true);
    return bytes.order(ByteOrder.nativeOrder()).asFloatBuffer();
  }

  int size() {
    return size;
  }

  /** Whether reads and writes go through views of the tensors' memory (else through copies). */
  boolean throughViews() {
    return views;
  }

  List<NDArray> arrays() {
    return arrays;
  }

  /** Copies all tensors into {@code dst} starting at {@code offset}. */
  void read(float[] dst, int offset) {
    int pos = offset;
    for (NDArray a : arrays) {
      int n = (int) a.size();
      if (views) {
        if (n > 0) {
          view(a).get(dst, pos, n);
        }
      } else {
        System.arraycopy(a.toFloatArray(), 0, dst, pos, n);
      }
      pos += n;
    }
  }

  /**
   * Copies {@code src} from {@code offset} into the tensors in place (so blocks and optimizers that
   * hold them see the new values): through the views, or else by an indexed set from a temporary
   * tensor of a sub-manager of {@code owner}, with grad mode off (these may be leaf tensors).
   * {@code NDArray.set(Buffer)} would instead make the tensor point at the buffer.
   */
  void write(float[] src, int offset, NDManager owner) {
    if (views) {
      int pos = offset;
      for (NDArray a : arrays) {
        int n = (int) a.size();
        if (n > 0) {
          view(a).put(src, pos, n);
        }
        pos += n;
      }
      return;
    }
    TorchRuntime.withGradMode(false, () -> {
      try (NDManager scratch = owner.newSubManager()) {
        int pos = offset;
        for (NDArray a : arrays) {
          int n = (int) a.size();
          try (NDArray tmp = scratch.create(FloatBuffer.wrap(src, pos, n), a.getShape())) {
            a.set(ALL, tmp);
          }
          pos += n;
        }
      }
      return null;
    });
  }
}
