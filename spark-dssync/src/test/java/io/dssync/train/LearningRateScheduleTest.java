package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.testing.TorchScripts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Each learning-rate schedule at steps worked out by hand from its formula, the step schedule's default
 * against the formula it always had, and step and one-cycle against PyTorch's schedulers.
 */
class LearningRateScheduleTest {
  private static final double TOLERANCE = 1e-7;

  @Test
  void warmUpRisesLinearlyToThePeakThenConstantHoldsIt() {
    LearningRateSchedule lr = new LearningRateSchedule("constant", 0.2, 4, 10);
    // peak*(step + 1)/W: 0.05, 0.1, 0.15, 0.2, then 0.2.
    assertRates(lr, 0.05, 0.1, 0.15, 0.2, 0.2, 0.2);
  }

  @Test
  void linearWarmsUpThenDecaysLinearlyTowardsZeroAtTheEndOfTheRun() {
    // Peak 0.2, 4 warm-up steps of 14: after warm-up peak*(1 - (step - 4)/10).
    LearningRateSchedule lr = new LearningRateSchedule("linear", 0.2, 4, 14);
    assertRates(lr, 0.05, 0.1, 0.15, 0.2, 0.2, 0.18);
    assertEquals(0.1, lr.at(9), TOLERANCE); // half-way: (9 - 4)/10 = 0.5
    assertEquals(0.02, lr.at(13), TOLERANCE); // the last step: 0.2*(1 - 0.9)
  }

  @Test
  void cosineAnnealsFromThePeakToZero() {
    LearningRateSchedule lr = new LearningRateSchedule("cosine", 0.2, 0, 100);
    assertEquals(0.2, lr.at(0), TOLERANCE);
    assertEquals(0.1, lr.at(50), TOLERANCE); // 0.5*0.2*(1 + cos(pi/2))
    assertEquals(0.2 * (1 + Math.cos(Math.PI * 0.75)) / 2, lr.at(75), TOLERANCE); // 0.0292893
  }

  @Test
  void stepDecaysAtMilestonesGivenAsFractionsOfTheStepsAfterWarmUp() {
    // Peak 1, 10 warm-up steps of 110, x0.2 at 30%, 60% and 90% of the 100 steps after: steps 40, 70, 100.
    StepDecay decay = new StepDecay(0.2, StepDecay.parseMilestones("0.3, 0.6,0.9"), 0);
    LearningRateSchedule lr = new LearningRateSchedule("step", 1.0, 10, 110, decay, OneCycle.DEFAULT);
    assertEquals(1.0, lr.at(39), TOLERANCE);
    assertEquals(0.2, lr.at(40), TOLERANCE);
    assertEquals(0.2, lr.at(69), TOLERANCE);
    assertEquals(0.04, lr.at(70), TOLERANCE);
    assertEquals(0.008, lr.at(100), TOLERANCE);
    assertEquals(0.008, lr.at(109), TOLERANCE);
  }

  @Test
  void stepDecaysEveryFixedNumberOfStepsWhenAsked() {
    // Halve every 30 steps after 5 warm-up steps: steps 35, 65, 95.
    LearningRateSchedule lr = new LearningRateSchedule("step", 0.4, 5, 200,
        new StepDecay(0.5, StepDecay.DEFAULT.milestones(), 30), OneCycle.DEFAULT);
    assertEquals(0.4, lr.at(34), TOLERANCE);
    assertEquals(0.2, lr.at(35), TOLERANCE);
    assertEquals(0.1, lr.at(65), TOLERANCE);
    assertEquals(0.05, lr.at(95), TOLERANCE);
  }

  @Test
  void theStepScheduleByDefaultGivesTheFloatsItAlwaysGave() {
    for (double peak : new double[] {0.05, 0.1, 0.3, 0.001, 0.0123, 1e-4, 0.7}) {
      for (long total : new long[] {7, 100, 1003}) {
        for (int warmup : new int[] {0, 5}) {
          LearningRateSchedule lr = new LearningRateSchedule("step", peak, warmup, total);
          for (long step = 0; step < total; step++) {
            assertEquals(formerStep(peak, warmup, total, step), lr.at(step),
                "peak " + peak + " total " + total + " warm-up " + warmup + " step " + step);
          }
        }
      }
    }
  }

  /** The step schedule as the library computed it before its decay was configurable: x0.1 at 50% and 75%. */
  private static float formerStep(double peak, int warmup, long total, long step) {
    if (step < warmup) {
      return (float) (peak * (step + 1) / warmup);
    }
    double progress = total <= warmup ? 1.0 : (double) (step - warmup) / (total - warmup);
    return (float) (progress < 0.5 ? peak : progress < 0.75 ? peak * 0.1 : peak * 0.01);
  }

  @Test
  void oneCycleWarmsUpFromPeakOverDivFactorAndAnnealsToItsFinalDivision() {
    // Peak 1, 100 steps, pct_start 0.3, div 25, final div 1e4: starts at 0.04, peaks at step 0.3*100 - 1 = 29,
    // ends at 0.04/1e4 = 4e-6 at step 99. Half-way down, step 64 = 29 + 70/2: (1 + 4e-6)/2 = 0.500002.
    LearningRateSchedule lr = new LearningRateSchedule("onecycle", 1.0, 0, 100);
    assertEquals(0.04, lr.at(0), TOLERANCE);
    assertEquals(1.0, lr.at(29), TOLERANCE);
    assertEquals(0.500002, lr.at(64), TOLERANCE);
    assertEquals(4e-6, lr.at(99), 1e-12);
    // A quarter into the warm-up (pct 0.25 at step 7.25, not a step): step 10, pct 10/29, by the cosine.
    double pct = 10.0 / 29;
    assertEquals(0.04 + 0.96 * (1 - Math.cos(Math.PI * pct)) / 2, lr.at(10), TOLERANCE);
  }

  @Test
  void oneCycleWhoseWarmUpIsOneStepStartsAtTheInitialRate() {
    // 10 steps at pct_start 0.1: the warm-up ends at step 0.1*10 - 1 = 0, where PyTorch would divide 0 by 0.
    LearningRateSchedule lr = new LearningRateSchedule("onecycle", 1.0, 0, 10, StepDecay.DEFAULT,
        new OneCycle(0.1, 10, 100));
    assertEquals(0.1, lr.at(0), TOLERANCE);
    // Step 1 is 1/9 of the annealing from 1 to 0.001.
    assertEquals(0.001 + 0.999 * (1 + Math.cos(Math.PI / 9)) / 2, lr.at(1), TOLERANCE);
    assertEquals(0.001, lr.at(9), 1e-9);
  }

  @Test
  void oneCycleAndStepMatchPyTorchsSchedulers() {
    TorchScripts.requireTorch();
    long total = 97;
    List<String> runs = List.of(
        "OneCycleLR(opt, max_lr=0.3, total_steps=97, pct_start=0.3, div_factor=25.0, final_div_factor=10000.0,"
            + " anneal_strategy='cos', three_phase=False, cycle_momentum=False)",
        "OneCycleLR(opt, max_lr=0.3, total_steps=97, pct_start=0.15, div_factor=10.0, final_div_factor=100.0,"
            + " anneal_strategy='cos', three_phase=False, cycle_momentum=False)",
        "MultiStepLR(opt, milestones=[24, 48, 72], gamma=0.5)",
        "StepLR(opt, step_size=10, gamma=0.7)");
    List<LearningRateSchedule> ours = List.of(
        new LearningRateSchedule("onecycle", 0.3, 0, total),
        new LearningRateSchedule("onecycle", 0.3, 0, total, StepDecay.DEFAULT, new OneCycle(0.15, 10, 100)),
        // Milestones at steps 24, 48, 72 of 97: fractions just below them (24/97 = 0.2474...).
        new LearningRateSchedule("step", 0.3, 0, total, new StepDecay(0.5, new double[] {0.247, 0.494, 0.742}, 0),
            OneCycle.DEFAULT),
        new LearningRateSchedule("step", 0.3, 0, total, new StepDecay(0.7, StepDecay.DEFAULT.milestones(), 10),
            OneCycle.DEFAULT));
    for (int i = 0; i < runs.size(); i++) {
      List<Double> torch = torchRates(runs.get(i), total);
      assertEquals(total, torch.size(), runs.get(i));
      double largest = 0;
      for (int step = 0; step < total; step++) {
        double expected = torch.get(step);
        double actual = ours.get(i).at(step);
        largest = Math.max(largest, Math.abs(actual - expected) / expected);
        assertTrue(Math.abs(actual - expected) <= 1e-6 * expected, String.format(Locale.ROOT,
            "%s step %d: ours %s, PyTorch %s", runs.get(i), step, actual, expected));
      }
      System.out.printf(Locale.ROOT, "%s: largest relative difference %.3g%n", runs.get(i), largest);
    }
  }

  /** The rate torch.optim.lr_scheduler.{@code scheduler} sets at each of {@code total} steps (0.3 = initial). */
  private static List<Double> torchRates(String scheduler, long total) {
    String script = String.join("\n",
        "import torch",
        "p = torch.zeros(1, requires_grad=True)",
        "opt = torch.optim.SGD([p], lr=0.3)",
        "sched = torch.optim.lr_scheduler." + scheduler,
        "for _ in range(" + total + "):",
        "    print(repr(opt.param_groups[0]['lr']))",
        "    opt.step()",
        "    sched.step()");
    TorchScripts.Result r = TorchScripts.run(List.of(TorchScripts.PYTHON, "-c", script), 120, true);
    assertEquals(0, r.exit(), r.output());
    List<Double> rates = new ArrayList<>();
    for (String line : r.output().split("\n")) {
      if (!line.isBlank() && Character.isDigit(line.charAt(0))) {
        rates.add(Double.parseDouble(line.trim()));
      }
    }
    return rates;
  }

  private static void assertRates(LearningRateSchedule lr, double... expected) {
    for (int step = 0; step < expected.length; step++) {
      assertEquals(expected[step], lr.at(step), TOLERANCE, "step " + step);
    }
  }
}
