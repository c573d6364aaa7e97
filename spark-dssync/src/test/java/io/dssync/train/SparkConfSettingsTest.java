package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings given as {@code spark.dssync.<name>} keys of Spark's configuration (no Spark session). */
class SparkConfSettingsTest {
  @Test
  void everySettingIsSetByItsSparkConfKeyAndLaterSetsWinOverIt() {
    TrainerConfigBuilder b = TrainerConfig.builder().sparkConf(Map.of("spark.dssync.groupSize", "4",
        "spark.dssync.schedule", "Butterfly", "spark.dssync.learningRate", "0.2"));
    TrainerConfig fromConf = b.build();
    assertEquals(4, fromConf.groupSize());
    assertEquals("butterfly", fromConf.get(TrainerConfig.SCHEDULE), "parsed as the flag's text is");
    TrainerConfig flagOnTop = b.set("--learning-rate", "0.1").build();
    assertEquals(0.1, flagOnTop.get(TrainerConfig.LEARNING_RATE));
    assertEquals(4, flagOnTop.groupSize());
    for (Setting<?> s : TrainerConfig.ALL) {
      assertEquals(Map.of(s, s.defaultValue()),
          SparkConfSettings.parse(Map.of("spark.dssync." + s.name(), String.valueOf(s.defaultValue()))), s.name());
    }
  }

  @Test
  void aBadValueNamesItsKeyAndAMisspelledKeyNamesTheLikelyOne() {
    DsSyncException bad = assertThrows(DsSyncException.class,
        () -> SparkConfSettings.parse(Map.of("spark.dssync.groupSize", "two")));
    assertEquals(ErrorKind.CONFIG, bad.kind());
    assertTrue(bad.getMessage().startsWith("Invalid spark.dssync.groupSize = two: must be an integer >= 1."),
        bad.getMessage());
    DsSyncException typo = assertThrows(DsSyncException.class,
        () -> SparkConfSettings.parse(Map.of("spark.dssync.grupSize", "2")));
    assertTrue(typo.getMessage().startsWith("Unknown Spark conf key spark.dssync.grupSize (did you mean"
        + " spark.dssync.groupSize?)"), typo.getMessage());
  }

  @Test
  void aDataPlaneKeyIsCheckedOnTheDriverAndATypoOfItNamed() {
    DsSyncException bad = assertThrows(DsSyncException.class,
        () -> SparkConfSettings.parse(Map.of("spark.dssync.sharedMemory.enabled", "off")));
    assertTrue(bad.getMessage().startsWith("Invalid spark.dssync.sharedMemory.enabled = off"), bad.getMessage());
    DsSyncException typo = assertThrows(DsSyncException.class,
        () -> SparkConfSettings.parse(Map.of("spark.dssync.sharedMemory.enable", "false")));
    assertTrue(typo.getMessage().contains("did you mean spark.dssync.sharedMemory.enabled?"), typo.getMessage());
  }

  @Test
  void theDataPlaneKeysAndOtherSparkKeysAreNoSettings() {
    assertEquals(Map.of(), SparkConfSettings.parse(Map.of("spark.dssync.sharedMemory.enabled", "false",
        "spark.dssync.io.serverThreads", "2", "spark.executor.cores", "2")));
  }
}
