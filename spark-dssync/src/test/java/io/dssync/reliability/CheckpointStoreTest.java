package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.train.Checkpoint;
import io.dssync.train.CheckpointStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint store on the local file system (file://): atomic names, retention, checksum. */
class CheckpointStoreTest {
  @TempDir
  Path dir;

  private CheckpointStore store() {
    return new CheckpointStore(dir.toUri().toString(), new Configuration());
  }

  static Checkpoint checkpoint(long step) {
    float[] state = new float[1000];
    for (int i = 0; i < state.length; i++) {
      state[i] = (float) Math.sin(step + i);
    }
    return new Checkpoint(step, (int) step / 10, 100, "run1", 42, Map.of("seed", "42", "workers", "2"),
        state, new float[] {1f, -0f, Float.MIN_VALUE}, step * 3);
  }

  @Test
  void aWrittenCheckpointReadsBackExactlyUnderItsFinalName() {
    store().write(checkpoint(10), 3);
    Checkpoint back = store().newestValid().checkpoint().orElseThrow();
    Checkpoint want = checkpoint(10);
    assertEquals(10, back.step());
    assertEquals(want.settings(), back.settings());
    assertEquals(30, back.optimizerSteps());
    assertArrayEquals(want.state(), back.state());
    assertArrayEquals(want.optimizerState(), back.optimizerState());
    assertEquals(List.of("ckpt-000000000010"), names(), "no temporary directory is left");
  }

  @Test
  void onlyTheNewestKCheckpointsAreKept() {
    for (long step = 10; step <= 50; step += 10) {
      store().write(checkpoint(step), 2);
    }
    assertEquals(List.of("ckpt-000000000040", "ckpt-000000000050"), names());
    assertEquals(50, store().newestValid().checkpoint().orElseThrow().step());
  }

  @Test
  void aCorruptNewestCheckpointIsSkippedWithAReasonAndTheOlderOneLoaded() throws IOException {
    store().write(checkpoint(10), 3);
    store().write(checkpoint(20), 3);
    Path newest = dir.resolve("ckpt-000000000020").resolve("checkpoint.bin");
    byte[] bytes = Files.readAllBytes(newest);
    bytes[bytes.length / 2] ^= 0x01; // one flipped bit in the model
    Files.write(newest, bytes);
    dropHadoopCrc(newest);
    CheckpointStore.Loaded loaded = store().newestValid();
    assertEquals(10, loaded.checkpoint().orElseThrow().step());
    assertEquals(1, loaded.skipped().size());
    assertTrue(loaded.skipped().get(0).contains("SHA-256 mismatch"), loaded.skipped().toString());
  }

  @Test
  void aTruncatedCheckpointAndAnUnfinishedTemporaryOneAreNeverLoaded() throws IOException {
    store().write(checkpoint(10), 3);
    store().write(checkpoint(20), 3);
    Path newest = dir.resolve("ckpt-000000000020").resolve("checkpoint.bin");
    byte[] bytes = Files.readAllBytes(newest);
    Files.write(newest, java.util.Arrays.copyOf(bytes, bytes.length - 100)); // a partial copy
    dropHadoopCrc(newest);
    Files.createDirectories(dir.resolve("_tmp-ckpt-000000000030-x")); // a writer that died before rename
    Files.write(dir.resolve("_tmp-ckpt-000000000030-x").resolve("checkpoint.bin"), checkpointBytes(30));
    CheckpointStore.Loaded loaded = store().newestValid();
    assertEquals(10, loaded.checkpoint().orElseThrow().step());
    assertEquals(1, loaded.skipped().size(), loaded.skipped().toString());
  }

  @Test
  void anEmptyOrMissingDirectoryHasNoCheckpoint() {
    CheckpointStore missing = new CheckpointStore(dir.resolve("nothing-here").toUri().toString(), new Configuration());
    assertTrue(missing.newestValid().checkpoint().isEmpty());
    assertTrue(store().newestValid().checkpoint().isEmpty());
  }

  /**
   * Hadoop's local file system keeps its own .crc beside each file and would catch the damage
   * first; without it (a hand copy, a file system without checksums) only the SHA-256 inside can.
   */
  private static void dropHadoopCrc(Path file) throws IOException {
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }

  private byte[] checkpointBytes(long step) throws IOException {
    Path other = Files.createTempDirectory(dir.getParent(), "other");
    new CheckpointStore(other.toUri().toString(), new Configuration()).write(checkpoint(step), 1);
    return Files.readAllBytes(other.resolve(String.format("ckpt-%012d", step)).resolve("checkpoint.bin"));
  }

  private List<String> names() {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aCheckpointPathThatIsAFileIsRefusedBeforeAnyCheckpointIsDue() throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    CheckpointStore store = new CheckpointStore(file.toUri().toString(), new Configuration());
    DsSyncException e = assertThrows(DsSyncException.class, store::ensureDirectory);
    assertTrue(e.getMessage().startsWith("Could not create the directory of checkpoint ")
        && e.getMessage().contains("not-a-dir"), e.getMessage());
  }

  @Test
  void aMissingCheckpointDirectoryIsCreatedUpFront() {
    Path nested = dir.resolve("a/b/checkpoints");
    new CheckpointStore(nested.toUri().toString(), new Configuration()).ensureDirectory();
    assertTrue(Files.isDirectory(nested));
  }
}
