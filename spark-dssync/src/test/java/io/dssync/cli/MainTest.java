package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import org.junit.jupiter.api.Test;

/** Bad command lines fail before any Spark or data work, with a message naming the flag. */
class MainTest {
  private final CliRun cli = new CliRun();

  private int run(String... args) {
    return cli.run(args);
  }

  private String errText() {
    return cli.err();
  }

  @Test
  void groupSizeBelowOneIsRejectedNamingTheFlag() {
    assertEquals(2, run("train", "--group-size", "0"));
    assertTrue(errText().contains("--group-size = 0"), errText());
  }

  @Test
  void groupSizeAboveWorkersIsRejectedNamingBoth() {
    assertEquals(2, run("train", "--workers", "4", "--group-size", "5"));
    assertTrue(errText().contains("5") && errText().contains("4"), errText());
  }

  @Test
  void unknownScheduleListsTheKnownOnes() {
    assertEquals(2, run("train", "--schedule", "gossip"));
    assertTrue(errText().contains("gossip") && errText().contains("butterfly"), errText());
  }

  @Test
  void unknownFlagListsTheKnownFlags() {
    assertEquals(2, run("train", "--grup-size", "2"));
    assertTrue(errText().contains("--grup-size") && errText().contains("--group-size"), errText());
  }

  @Test
  void unknownModelIsRejectedBeforeTraining() {
    assertEquals(2, run("train", "--model", "resnet-9000", "--workers", "1", "--schedule", "full",
        "--train-limit", "64", "--test-limit", "16", "--epochs", "1"));
    assertTrue(errText().contains("resnet-9000"), errText());
  }

  @Test
  void anUnknownPrecisionAcrossRacksIsRejectedListingTheKnownOnes() {
    assertEquals(2, run("train", "--cross-rack-precision", "bf16"));
    assertTrue(errText().contains("bf16") && errText().contains("fp32, fp16"), errText());
  }

  @Test
  void unknownDatasetIsRejected() {
    assertEquals(2, run("train", "--dataset", "imagenet"));
    assertTrue(errText().contains("imagenet") && errText().contains("fashion-mnist"), errText());
  }

  @Test
  void helpDocumentsEverySetting() {
    assertEquals(0, run("help"));
    String help = cli.out();
    for (Setting<?> s : TrainerConfig.ALL) {
      assertTrue(help.contains(s.flag()), "help lacks " + s.flag());
    }
  }
}
