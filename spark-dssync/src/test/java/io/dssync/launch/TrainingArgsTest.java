package io.dssync.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.train.TrainerConfig;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one parser of training command lines, shared by 'dssync train' and the training benchmarks (no Spark). */
class TrainingArgsTest {
  @Test
  void runFlagsOwnFlagsAndTrainerSettingsAreToldApart() {
    TrainingArgs a = TrainingArgs.parse(new String[] {"--master", "local[2]", "--label", "x", "--workers", "2",
        "--learning-rate", "0.5", "--train-limit", "3"}, Set.of("--label"), Map.of());
    assertEquals("x", a.flags().string("--label", ""));
    TrainerConfig config = a.trainer(Map.of(TrainerConfig.EPOCHS, "7")).build();
    assertEquals(2, config.workers());
    assertEquals(0.5, config.get(TrainerConfig.LEARNING_RATE));
    assertEquals(7, config.get(TrainerConfig.EPOCHS), "a default the user did not override");
    assertEquals("local[2]", a.master(config));
    assertEquals("--workers 2 --learning-rate 0.5", a.trainerSettingsText());
    DatasetSplits all = new DatasetSplits(examples(10), examples(4), 1, 1, 2, "tiny");
    DatasetSplits cut = a.limited(all);
    assertEquals(3, cut.train().size());
    assertEquals(4, cut.test().size(), "no --test-limit: all");
  }

  /** spark-submit passes {@code --conf} and spark-defaults.conf to the driver as system properties. */
  @Test
  void sparkSubmitsConfSetsASettingOverTheCommandsDefaultAndAFlagWinsOverIt() {
    System.setProperty("spark.dssync.epochs", "5");
    System.setProperty("spark.dssync.groupSize", "4");
    try {
      TrainingArgs a = TrainingArgs.parse(new String[] {"--group-size", "2"}, Set.of(), Map.of());
      TrainerConfig config = a.trainer(Map.of(TrainerConfig.EPOCHS, "7")).build();
      assertEquals(5, config.get(TrainerConfig.EPOCHS));
      assertEquals(2, config.groupSize());
    } finally {
      System.clearProperty("spark.dssync.epochs");
      System.clearProperty("spark.dssync.groupSize");
    }
  }

  @Test
  void withoutMasterTheSessionIsLocalWithASlotPerWorkerThread() {
    TrainingArgs a = TrainingArgs.parse(new String[] {"--workers", "3", "--threads-per-worker", "2"}, Set.of(),
        Map.of());
    TrainerConfig config = a.trainer(Map.of()).build();
    String expected = System.getProperty("spark.master", "local[6]");
    assertEquals(expected, a.master(config));
  }

  @Test
  void badInputNamesTheFlagTheValueAndTheChoices() {
    DsSyncException unknown = assertThrows(DsSyncException.class,
        () -> TrainingArgs.parse(new String[] {"--grup-size", "2"}, Set.of("--label"), Map.of()));
    assertEquals(ErrorKind.CONFIG, unknown.kind());
    for (String part : new String[] {"--grup-size", "--group-size", "--label", "--master", "--train-limit"}) {
      assertTrue(unknown.getMessage().contains(part), part + " in: " + unknown.getMessage());
    }
    DsSyncException refused = assertThrows(DsSyncException.class, () -> TrainingArgs.parse(
        new String[] {"--schedule", "full"}, Set.of(), Map.of(TrainerConfig.SCHEDULE, "it varies the schedule")));
    assertTrue(refused.getMessage().contains("--schedule") && refused.getMessage().contains("it varies the schedule"),
        refused.getMessage());
    DsSyncException limit = assertThrows(DsSyncException.class,
        () -> TrainingArgs.parse(new String[] {"--train-limit", "-5"}, Set.of(), Map.of()));
    assertTrue(limit.getMessage().contains("--train-limit") && limit.getMessage().contains("-5"), limit.getMessage());
    DsSyncException setting = assertThrows(DsSyncException.class,
        () -> TrainingArgs.parse(new String[] {"--epochs", "zero"}, Set.of(), Map.of()));
    assertTrue(setting.getMessage().contains("--epochs") && setting.getMessage().contains("zero"),
        setting.getMessage());
    DsSyncException missing = assertThrows(DsSyncException.class,
        () -> TrainingArgs.parse(new String[] {"--epochs"}, Set.of(), Map.of()));
    assertTrue(missing.getMessage().contains("needs a value"), missing.getMessage());
  }

  private static LabeledArrays examples(int n) {
    return new LabeledArrays(new float[n * 2], new int[n], 2, 2);
  }
}
