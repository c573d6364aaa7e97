package io.dssync.transport;

import io.dssync.collective.Landing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

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
   * Turns a stream of byte pieces back into floats, landed straight in a float array (copied, or
   * added / averaged into what is there). Pieces arrive as the network hands them over, so a float
   * may straddle two pieces: up to three bytes wait in {@code carry} for the rest.
   */
  static final class Decoder {
    /** Floats decoded per block before they land, when landing is not a plain copy (fits in L1). */
    private static final int BLOCK = 2048;

    private final float[] dst;
    private final int offset;
    private final int length;
    private final Landing landing;
    private final float[] block;
    private final byte[] carry = new byte[Float.BYTES];
    private int carried;
    private int filled;

    Decoder(float[] dst, int offset, int length, Landing landing) {
      this.dst = dst;
      this.offset = offset;
      this.length = length;
      this.landing = landing;
      this.block = landing == Landing.COPY ? null : new float[BLOCK];
    }

    /** Consumes all of {@code piece}; throws when the stream runs past the announced length. */
    void accept(ByteBuffer piece) {
      ByteBuffer in = piece.slice().order(ByteOrder.LITTLE_ENDIAN);
      while (carried > 0 && in.hasRemaining()) {
        carry[carried++] = in.get();
        if (carried == Float.BYTES) {
          carried = 0;
          land(ByteBuffer.wrap(carry).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer(), 1);
        }
      }
      int whole = in.remaining() / Float.BYTES;
      land(in.asFloatBuffer(), whole);
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

    private void land(FloatBuffer floats, int count) {
      if (filled + count > length) {
        throw new IllegalStateException("the stream carries more than the " + length + " floats it announced");
      }
      if (landing == Landing.COPY) {
        floats.get(dst, offset + filled, count);
        filled += count;
        return;
      }
      while (count > 0) {
        int n = Math.min(count, BLOCK);
        floats.get(block, 0, n);
        landing.apply(block, 0, dst, offset + filled, n);
        filled += n;
        count -= n;
      }
    }
  }
}
