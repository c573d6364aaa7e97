package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Checkpoint format 2 carries the fit's progress; version 1 files load as a fit that has decided nothing. */
class CheckpointFitProgressTest {
  @Test
  void theFitProgressRoundTripsThroughTheBytes() throws IOException {
    FitProgress fit = new FitProgress(new EarlyStopping.Progress(0.875, 3, 2, new float[] {1.5f, -2f}), 0.0125,
        new float[] {0.25f, 0.5f, 0.75f}, 4);
    Checkpoint written = new Checkpoint(40, 5, 80, "run1", 42, Map.of("seed", "42"), new float[] {1, 2, 3},
        new float[] {4}, 40, null, fit);
    Checkpoint read = Checkpoint.decode(written.encode());
    assertEquals(0.875, read.fit().earlyStop().bestScore());
    assertEquals(3, read.fit().earlyStop().bestStage());
    assertEquals(2, read.fit().earlyStop().evaluationsSinceBest());
    assertArrayEquals(new float[] {1.5f, -2f}, read.fit().earlyStop().bestModel());
    assertEquals(0.0125, read.fit().learningRateOverride());
    assertArrayEquals(new float[] {0.25f, 0.5f, 0.75f}, read.fit().swaMean());
    assertEquals(4, read.fit().swaCount());
    assertArrayEquals(new float[] {1, 2, 3}, read.state());
    assertArrayEquals(new float[] {4}, read.optimizerState());
  }

  @Test
  void aVersionOneFileStillLoadsAsAFitThatHasDecidedNothing() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF("DSSYNC-CKPT");
    out.writeInt(1);
    out.writeLong(8); // step
    out.writeInt(2); // stages done
    out.writeLong(16); // total steps
    out.writeUTF("old");
    out.writeLong(42); // seed
    out.writeLong(8); // optimizer steps
    out.writeInt(1);
    out.writeUTF("seed");
    out.writeUTF("42");
    out.writeInt(2);
    out.writeFloat(0.5f);
    out.writeFloat(-1f);
    out.writeInt(0);
    out.flush();
    bytes.write(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));

    Checkpoint read = Checkpoint.decode(bytes.toByteArray());
    assertEquals(8, read.step());
    assertArrayEquals(new float[] {0.5f, -1f}, read.state());
    assertEquals(-1, read.fit().earlyStop().bestStage());
    assertTrue(Double.isNaN(read.fit().learningRateOverride()));
  }

  @Test
  void aNewerVersionIsRefusedByNumber() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF("DSSYNC-CKPT");
    out.writeInt(Checkpoint.FORMAT_VERSION + 1);
    out.flush();
    bytes.write(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
    IOException e = assertThrows(IOException.class, () -> Checkpoint.decode(bytes.toByteArray()));
    assertTrue(e.getMessage().contains("format version " + (Checkpoint.FORMAT_VERSION + 1)), e.getMessage());
  }
}
