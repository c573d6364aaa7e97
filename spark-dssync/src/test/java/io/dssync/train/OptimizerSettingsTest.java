package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.replica.OptimizerSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optimizer, clipping and learning-rate schedule settings: what they build, and what they refuse. */
class OptimizerSettingsTest {
  @Test
  void defaultsBuildTheOptimizerAndScheduleRunsHadBefore() {
    TrainerConfig c = TrainerConfig.builder().build();
    assertEquals(OptimizerSpec.sgd(0.9, 0.0), c.optimizerSpec());
    assertEquals(0.0, c.optimizerSpec().clipNorm());
    LearningRateSchedule lr = c.learningRateSchedule(100);
    assertEquals(new LearningRateSchedule("cosine", 0.05, 0, 100).at(37), lr.at(37));
  }

  @Test
  void eachOptimizerNameBuildsItsKindWithTheClipNorm() {
    assertEquals(OptimizerSpec.adamw(0.01).withClipNorm(1.5), config("--optimizer", "adamw", "--weight-decay",
        "0.01", "--clip-norm", "1.5").optimizerSpec());
    assertEquals(OptimizerSpec.adam(0.01), config("--optimizer", "adam", "--weight-decay", "0.01").optimizerSpec(),
        "adam keeps its name (the same decoupled optimizer), so its runs' settings stay as they were");
    assertEquals(OptimizerSpec.sgdNesterov(0.8, 0.0), config("--optimizer", "sgd-nesterov", "--momentum", "0.8")
        .optimizerSpec());
  }

  @Test
  void theStepScheduleReadsItsDecaySettings() {
    LearningRateSchedule every = config("--lr-schedule", "step", "--learning-rate", "0.4", "--lr-decay-every", "5",
        "--lr-decay-factor", "0.5").learningRateSchedule(100);
    assertEquals(0.4f, every.at(4));
    assertEquals(0.2f, every.at(5));
    LearningRateSchedule milestones = config("--lr-schedule", "step", "--learning-rate", "0.4", "--lr-milestones",
        "0.2,0.4", "--lr-decay-factor", "0.5").learningRateSchedule(100);
    assertEquals(0.4f, milestones.at(19));
    assertEquals(0.2f, milestones.at(20));
    assertEquals(0.1f, milestones.at(40));
  }

  @Test
  void theOneCycleScheduleReadsItsShapeSettings() {
    LearningRateSchedule lr = config("--lr-schedule", "onecycle", "--learning-rate", "1", "--onecycle-pct-start",
        "0.5", "--onecycle-div-factor", "10", "--onecycle-final-div-factor", "1000").learningRateSchedule(10);
    assertEquals(0.1f, lr.at(0)); // 1/10
    assertEquals(1.0f, lr.at(4)); // the warm-up ends at step 0.5*10 - 1
    assertEquals(1e-4, lr.at(9), 1e-10); // 0.1/1000
  }

  @Test
  void badValuesAreRefusedNamingTheFlagTheValueAndTheRule() {
    assertRefused("--lr-milestones = 0.75,0.5: must be increasing fractions in (0, 1)", "--lr-milestones", "0.75,0.5");
    assertRefused("--lr-milestones = 0.5,1: must be increasing fractions", "--lr-milestones", "0.5,1");
    assertRefused("--lr-milestones = half: must be increasing fractions", "--lr-milestones", "half");
    assertRefused("--lr-decay-factor = 1.5: must be a number in (0, 1]", "--lr-decay-factor", "1.5");
    assertRefused("--clip-norm = -1.0: must be a finite number >= 0", "--clip-norm", "-1");
    assertRefused("--onecycle-pct-start = 1.0: must be in [0, 1)", "--onecycle-pct-start", "1");
    assertRefused("--onecycle-div-factor = 0.0: must be a finite number > 0", "--onecycle-div-factor", "0");
    assertRefused("--lr-schedule = onecylce: must be one of constant, cosine, step, linear, onecycle (did you mean"
        + " onecycle?)", "--lr-schedule", "onecylce");
    assertRefused("--optimizer = sgd-nesterv: must be one of sgd, sgd-nesterov, adamw, adam (did you mean"
        + " sgd-nesterov?)", "--optimizer", "sgd-nesterv");
  }

  @Test
  void nesterovWithoutMomentumIsRefusedWithTheFix() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> config("--optimizer", "sgd-nesterov", "--momentum", "0"));
    assertTrue(e.getMessage().contains("Invalid --momentum = 0.0: Nesterov momentum (--optimizer sgd-nesterov)"
        + " needs a momentum > 0"), e.getMessage());
    assertTrue(e.getMessage().contains("Use --momentum 0.9, or --optimizer sgd"), e.getMessage());
  }

  @Test
  void settingsTheOptimizerOrScheduleNeverReadsAreNamed() {
    TrainerConfig c = config("--optimizer", "adamw", "--momentum", "0.5", "--lr-schedule", "onecycle",
        "--warmup-steps", "10", "--lr-milestones", "0.3", "--lr-decay-factor", "0.5");
    assertEquals(List.of(
        "--momentum 0.5 has no effect with --optimizer adamw: only sgd and sgd-nesterov use momentum.",
        "--warmup-steps 10 has no effect with --lr-schedule onecycle: onecycle warms up over --onecycle-pct-start"
            + " of the run.",
        "--lr-decay-factor 0.5 has no effect with --lr-schedule onecycle: only the step schedule decays in steps.",
        "--lr-milestones 0.3 has no effect with --lr-schedule onecycle: only the step schedule decays in steps."),
        c.ignoredSettings());
    assertEquals(List.of("--onecycle-div-factor 10.0 has no effect with --lr-schedule cosine: only onecycle reads"
        + " it."), config("--onecycle-div-factor", "10").ignoredSettings());
    assertEquals(List.of("--lr-milestones 0.3 has no effect with --lr-decay-every 7: the step schedule decays at"
        + " fixed intervals instead."), config("--lr-schedule", "step", "--lr-decay-every", "7", "--lr-milestones",
        "0.3").ignoredSettings());
    assertEquals(List.of(), config("--lr-schedule", "step", "--lr-milestones", "0.3", "--warmup-steps", "4",
        "--optimizer", "sgd-nesterov", "--momentum", "0.5", "--clip-norm", "1").ignoredSettings());
  }

  private static TrainerConfig config(String... flagsAndValues) {
    TrainerConfigBuilder b = TrainerConfig.builder();
    for (int i = 0; i < flagsAndValues.length; i += 2) {
      b.set(flagsAndValues[i], flagsAndValues[i + 1]);
    }
    return b.build();
  }

  private static void assertRefused(String expected, String flag, String value) {
    DsSyncException e = assertThrows(DsSyncException.class, () -> config(flag, value));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
