package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.Landing;
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
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(back, 0, length, Landing.COPY);
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

  /**
   * Landing other than a copy (the partner's part averaged into mine, as it arrives) gives the same
   * bits as averaging the whole arrays, at any offset and for pieces that cut floats and blocks.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 3, 4096, 8195, 65_537})
  void piecesLandAsTheMeanOfTwoAtAnOffset(int pieceBytes) {
    int length = 10_001;
    int offset = 13;
    SplittableRandom random = new SplittableRandom(pieceBytes);
    float[] theirs = new float[length];
    float[] mine = new float[offset + length + 5];
    for (int i = 0; i < length; i++) {
      theirs[i] = (float) random.nextGaussian();
    }
    for (int i = 0; i < mine.length; i++) {
      mine[i] = (float) random.nextGaussian();
    }
    float[] expected = mine.clone();
    for (int i = 0; i < length; i++) {
      expected[offset + i] = (mine[offset + i] + theirs[i]) / 2;
    }
    ByteBuffer wire = ByteBuffer.allocateDirect(FloatCodec.byteSize(length));
    FloatCodec.encode(theirs, 0, length, wire);
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(mine, offset, length, Landing.MEAN_OF_TWO);
    for (int at = 0; at < wire.limit(); at += pieceBytes) {
      decoder.accept(wire.duplicate().position(at).limit(Math.min(wire.limit(), at + pieceBytes)));
    }
    assertTrue(decoder.complete());
    assertArrayEquals(expected, mine); // bit-exact: assertArrayEquals on float[] compares bits (0 delta)
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3})
  void aStreamLongerThanAnnouncedIsRefused(int extraBytes) {
    float[] data = {1f, 2f, 3f};
    ByteBuffer wire = ByteBuffer.allocate(12 + 4 + extraBytes);
    FloatCodec.encode(data, 0, 3, wire);
    wire.limit(12 + 4 + extraBytes);
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(new float[2], 0, 2, Landing.COPY);
    assertThrows(IllegalStateException.class, () -> decoder.accept(wire));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void aShortStreamIsNotComplete(int floats) {
    ByteBuffer wire = ByteBuffer.allocate(12);
    FloatCodec.encode(new float[] {1f, 2f, 3f}, 0, 3, wire);
    wire.limit(floats * 4 + 1);
    float[] back = new float[3];
    FloatCodec.Decoder decoder = new FloatCodec.Decoder(back, 0, 3, Landing.COPY);
    decoder.accept(wire);
    assertFalse(decoder.complete());
    assertArrayEquals(java.util.Arrays.copyOf(new float[] {1f, 2f, 3f}, floats), java.util.Arrays.copyOf(back, floats));
  }
}
