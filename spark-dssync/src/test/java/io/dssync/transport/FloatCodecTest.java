package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FloatCodecTest {
  private static final int PER_PIECE = FloatCodec.PIECE_BYTES / Float.BYTES;

  @ParameterizedTest
  @ValueSource(ints = {0, 1, PER_PIECE - 1, PER_PIECE, PER_PIECE + 1, 2 * PER_PIECE + 12345})
  void piecesAreBoundedAndTogetherHoldExactlyTheSlice(int length) {
    float[] data = new float[length + 7];
    for (int i = 0; i < data.length; i++) {
      data[i] = i * 0.5f - 3;
    }
    ByteBuffer[] pieces = FloatCodec.encode(data, 7, length);
    assertEquals(Math.max(1, (length + PER_PIECE - 1) / PER_PIECE), pieces.length);
    ByteBuffer joined = ByteBuffer.allocate(FloatCodec.byteSize(length));
    for (ByteBuffer p : pieces) {
      assertEquals(0, p.position());
      assertTrue(p.remaining() <= FloatCodec.PIECE_BYTES, "piece of " + p.remaining() + " bytes");
      joined.put(p.duplicate());
    }
    joined.flip();
    float[] back = new float[length];
    FloatCodec.decode(joined, back, 0, length);
    float[] expected = java.util.Arrays.copyOfRange(data, 7, 7 + length);
    assertArrayEquals(expected, back);
  }
}
