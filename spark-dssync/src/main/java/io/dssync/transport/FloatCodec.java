package io.dssync.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Floats on the wire: little-endian IEEE 754, 4 bytes each, no header. */
final class FloatCodec {
  private FloatCodec() {}

  static int byteSize(int floats) {
    return Math.multiplyExact(floats, Float.BYTES);
  }

  /** Writes {@code data[offset, offset+length)} into {@code target} from 0 and flips it for reading. */
  static void encode(float[] data, int offset, int length, ByteBuffer target) {
    target.clear().limit(byteSize(length));
    target.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(data, offset, length);
  }

  /**
   * Turns a stream of byte pieces back into floats, written straight into a float array. Pieces
   * arrive as the network hands them over, so a float may straddle two pieces: up to three bytes
   * wait in {@code carry} for the rest.
   */
  static final class Decoder {
    private final float[] dst;
    private final int length;
    private final byte[] carry = new byte[Float.BYTES];
    private int carried;
    private int filled;

    Decoder(float[] dst, int length) {
      this.dst = dst;
      this.length = length;
    }

    /** Consumes all of {@code piece}; throws when the stream runs past the announced length. */
    void accept(ByteBuffer piece) {
      ByteBuffer in = piece.slice().order(ByteOrder.LITTLE_ENDIAN);
      while (carried > 0 && in.hasRemaining()) {
        carry[carried++] = in.get();
        if (carried == Float.BYTES) {
          put(Float.intBitsToFloat(ByteBuffer.wrap(carry).order(ByteOrder.LITTLE_ENDIAN).getInt()));
          carried = 0;
        }
      }
      int whole = in.remaining() / Float.BYTES;
      if (filled + whole > length) {
        throw overrun();
      }
      in.asFloatBuffer().get(dst, filled, whole);
      filled += whole;
      in.position(in.position() + whole * Float.BYTES);
      while (in.hasRemaining()) {
        carry[carried++] = in.get();
      }
    }

    /** Whether exactly the announced number of floats arrived. */
    boolean complete() {
      return filled == length && carried == 0;
    }

    int filled() {
      return filled;
    }

    private void put(float value) {
      if (filled >= length) {
        throw overrun();
      }
      dst[filled++] = value;
    }

    private IllegalStateException overrun() {
      return new IllegalStateException("the stream carries more than the " + length + " floats it announced");
    }
  }
}
