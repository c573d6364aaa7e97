package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FloatCodecTest {
  /** Pieces of any size, also ones that cut floats in two, decode to exactly the encoded floats. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 7, 4096, 65_537})
  void piecesOfAnySizeDecodeToTheSameBits(int pieceBytes) {
    int length = 10_001;
    float[] data = new float[length + 7];
    SplittableRandom random = new SplittableRandom(pieceBytes);
    for (int i = 0; i < data.length; i++) {
      data[i] = Float.intBitsToFloat(random.nextInt());
    }
    ByteBuffer wire = ByteBuffer.allocateDirect(FloatCodec.byteSize(length));
    FloatCodec.encode(data, 7, length, wire);
    float[] back = new float[length];
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(back, length);
    for (int at = 0; at < wire.limit(); at += pieceBytes) {
      assertFalse(decoder.complete());
      decoder.accept(wire.duplicate().position(at).limit(Math.min(wire.limit(), at + pieceBytes)));
    }
    assertTrue(decoder.complete());
    for (int i = 0; i < length; i++) {
      if (Float.floatToRawIntBits(back[i]) != Float.floatToRawIntBits(data[7 + i])) {
        throw new AssertionError("float " + i + " differs in its bits");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3})
  void aStreamLongerThanAnnouncedIsRefused(int extraBytes) {
    float[] data = {1f, 2f, 3f};
    ByteBuffer wire = ByteBuffer.allocate(12 + 4 + extraBytes);
    FloatCodec.encode(data, 0, 3, wire);
    wire.limit(12 + 4 + extraBytes);
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(new float[2], 2);
    assertThrows(IllegalStateException.class, () -> decoder.accept(wire));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void aShortStreamIsNotComplete(int floats) {
    ByteBuffer wire = ByteBuffer.allocate(12);
    FloatCodec.encode(new float[] {1f, 2f, 3f}, 0, 3, wire);
    wire.limit(floats * 4 + 1);
    float[] back = new float[3];
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(back, 3);
    decoder.accept(wire);
    assertFalse(decoder.complete());
    assertArrayEquals(java.util.Arrays.copyOf(new float[] {1f, 2f, 3f}, floats), java.util.Arrays.copyOf(back, floats));
  }
}
