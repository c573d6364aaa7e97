package io.dssync.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Floats to block bytes and back: little-endian IEEE 754, 4 bytes each, no header. */
final class FloatCodec {
  private FloatCodec() {}

  static int byteSize(int floats) {
    return Math.multiplyExact(floats, Float.BYTES);
  }

  /** A fresh buffer holding {@code data[offset, offset+length)}, positioned at 0. */
  static ByteBuffer encode(float[] data, int offset, int length) {
    ByteBuffer bytes = ByteBuffer.allocate(byteSize(length)).order(ByteOrder.LITTLE_ENDIAN);
    bytes.asFloatBuffer().put(data, offset, length);
    return bytes;
  }

  /** Copies the floats in {@code bytes} (from its position) into {@code dst[offset, offset+length)}. */
  static void decode(ByteBuffer bytes, float[] dst, int offset, int length) {
    // Duplicates of a buffer reset the byte order, so set it on a slice of our own.
    bytes.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst, offset, length);
  }
}
