package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Settings given a value the chosen schedule never reads are named, each with who reads it. */
class IgnoredSettingsTest {
  @Test
  void flagsTheChosenScheduleNeverReadsAreNamedWithWhoReadsThem() {
    TrainerConfig c = TrainerConfig.builder().set("--schedule", "full").set("--shuffle-period", "5")
        .set("--replan-every", "2").set("--racks", "10.0.1.1;10.0.2.1").set("--cross-rack-period", "3").build();
    assertEquals(List.of(
        "--shuffle-period 5 has no effect with --schedule full: only random, topology and auto reshuffle groups.",
        "--cross-rack-period 3 has no effect with --schedule full: only topology reads it (auto chooses its own"
            + " period).",
        "--replan-every 2 has no effect with --schedule full: only auto probes the links and re-plans.",
        "--racks 10.0.1.1;10.0.2.1 has no effect with --schedule full: only topology groups by them, and"
            + " --cross-rack-precision fp16 sends halves between them (auto measures its own racks)."),
        c.ignoredSettings());
  }

  @Test
  void defaultsAndSettingsTheScheduleReadsAreNotNamed() {
    assertEquals(List.of(), TrainerConfig.builder().set("--schedule", "full").build().ignoredSettings());
    assertEquals(List.of(), TrainerConfig.builder().set("--shuffle-period", "5").build().ignoredSettings(),
        "random reshuffles every P steps");
    assertEquals(List.of(), TrainerConfig.builder().set("--racks", "a;b").set("--cross-rack-precision", "fp16")
        .build().ignoredSettings(), "halves across the racks of --racks");
    assertEquals(List.of(), TrainerConfig.builder().set("--schedule", "topology").set("--racks", "a;b")
        .set("--cross-rack-period", "2").build().ignoredSettings());
    assertEquals(List.of(), TrainerConfig.builder().set("--schedule", "auto").set("--replan-every", "2")
        .set("--shuffle-period", "3").build().ignoredSettings());
    assertEquals(List.of(), TrainerConfig.builder().set("--schedule", "butterfly").set("--min-workers", "2")
        .set("--shuffle-period", "3").build().ignoredSettings(), "an elastic butterfly may fall back to random");
  }

  @Test
  void autoChoosesItsOwnRacksAndCrossRackPeriodSoBothAreNamedUnderIt() {
    TrainerConfig c = TrainerConfig.builder().set("--schedule", "auto").set("--racks", "a;b")
        .set("--cross-rack-period", "3").build();
    assertEquals(List.of(
        "--cross-rack-period 3 has no effect with --schedule auto: only topology reads it (auto chooses its own"
            + " period).",
        "--racks a;b has no effect with --schedule auto: only topology groups by them, and --cross-rack-precision"
            + " fp16 sends halves between them (auto measures its own racks)."), c.ignoredSettings());
  }
}
