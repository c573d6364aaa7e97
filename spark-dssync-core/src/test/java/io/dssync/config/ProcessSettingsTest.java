package io.dssync.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessSettingsTest {
  @Test
  void aBadValueFailsNamingTheKeyTheRuleAndTheDefault() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> ProcessSettings.SHARED_MEMORY.parse("yes"));
    assertEquals("Invalid spark.dssync.sharedMemory.enabled = yes: must be true or false. Correct it, or unset"
        + " spark.dssync.sharedMemory.enabled for the default (true).", e.getMessage());
  }

  @Test
  void anUnsetOrBlankValueLeavesTheDefault() {
    assertEquals(Optional.empty(), ProcessSettings.SHARED_MEMORY.parse(null));
    assertEquals(Optional.empty(), ProcessSettings.DATA_DIR.parse("  "));
    assertEquals(Optional.of(false), ProcessSettings.SHARED_MEMORY.parse(" FALSE "));
    assertEquals(Optional.of(Path.of("/data/cache")), ProcessSettings.DATA_DIR.parse("/data/cache"));
  }

  @Test
  void theDataPlanesSparkKeysAreDeclaredAndNoOthers() {
    assertTrue(ProcessSettings.declaresSparkKey("spark.dssync.sharedMemory.enabled"));
    assertTrue(ProcessSettings.declaresSparkKey("spark.dssync.io.serverThreads"));
    assertFalse(ProcessSettings.declaresSparkKey("spark.dssync.sharedMemory"));
    assertFalse(ProcessSettings.declaresSparkKey("spark.dssync.groupSize"));
    assertFalse(ProcessSettings.declaresSparkKey("DSSYNC_DATA_DIR"), "an environment variable is no Spark key");
  }
}
