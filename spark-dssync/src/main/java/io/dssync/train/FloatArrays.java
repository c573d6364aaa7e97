package io.dssync.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The one byte layout of float arrays in files this project writes (checkpoints and saved models):
 * an int count, then the floats, big-endian IEEE 754.
 */
public final class FloatArrays {
  private FloatArrays() {}

  public static void write(DataOutput out, float[] values) throws IOException {
    out.writeInt(values.length);
    for (float v : values) {
      out.writeFloat(v);
    }
  }

  /**
   * Reads one array; {@code maxCount} bounds the declared count (what the rest of the file can
   * hold), so a corrupt count fails with a message instead of allocating gigabytes.
   */
  public static float[] read(DataInput in, long maxCount) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > maxCount) {
      throw new IOException("float array length " + n + " exceeds the " + maxCount + " floats the file can hold");
    }
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = in.readFloat();
    }
    return values;
  }
}
