package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.launch.TrainingArgs;
import io.dssync.models.Models;
import io.dssync.train.TrainerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code dssync train --preset}: valid flags for every workload, and explicit flags win. */
class PresetTest {
  @Test
  void explicitFlagsOverrideThePreset() {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("--preset", "wrn");
    given.put("--epochs", "1");
    given.put("--schedule", "full");
    Map<String, String> merged = TrainCommand.withPreset(given);
    assertEquals("1", merged.get("--epochs"));
    assertEquals("full", merged.get("--schedule"));
    assertEquals("wrn-10-2", merged.get("--model"));
    assertEquals("fashion-mnist", merged.get("--dataset"));
    assertFalse(merged.containsKey("--preset"));
  }

  @Test
  void withoutAPresetTheFlagsAreUnchanged() {
    Map<String, String> given = Map.of("--epochs", "3");
    assertEquals(given, TrainCommand.withPreset(given));
  }

  @Test
  void everyPresetNamesARegisteredDatasetAKnownModelAndValidSettings() {
    for (Preset p : Preset.values()) {
      Map<String, String> flags = p.flags();
      assertTrue(Arrays.asList(DatasetChoice.NAMES).contains(flags.get("--dataset")), p.name + " dataset");
      assertTrue(Models.isKnown(flags.get("--model")), p.name + " model");
      TrainerConfig config = TrainingArgs.of(flags, RunOption.flags(), Map.of()).trainer(Map.of()).build();
      assertEquals(flags.get("--model"), config.get(TrainerConfig.MODEL), p.name);
    }
  }

  @Test
  void presetNamesMatchTheWorkloads() {
    assertEquals("wrn|bert-mlm|bert-cls|deepfm", Preset.names());
  }

  @Test
  void unknownPresetIsRejectedListingTheKnownOnes() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"train", "--preset", "resnet"}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code);
    assertTrue(text.contains("resnet") && text.contains("bert-mlm") && text.contains("deepfm"), text);
  }

  @Test
  void helpListsThePresetsWithTheirFlags() {
    String help = Usage.text();
    for (Preset p : Preset.values()) {
      assertTrue(help.contains(p.name + " ") && help.contains(p.flags().get("--model")), p.name);
    }
  }
}
