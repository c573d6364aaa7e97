package io.dssync.train;

import static io.dssync.train.TrainerConfig.CROSS_RACK_PERIOD;
import static io.dssync.train.TrainerConfig.GROUP_SIZE;
import static io.dssync.train.TrainerConfig.LR_DECAY_EVERY;
import static io.dssync.train.TrainerConfig.LR_DECAY_FACTOR;
import static io.dssync.train.TrainerConfig.LR_MILESTONES;
import static io.dssync.train.TrainerConfig.LR_SCHEDULE;
import static io.dssync.train.TrainerConfig.MOMENTUM;
import static io.dssync.train.TrainerConfig.ONECYCLE_DIV_FACTOR;
import static io.dssync.train.TrainerConfig.ONECYCLE_FINAL_DIV_FACTOR;
import static io.dssync.train.TrainerConfig.ONECYCLE_PCT_START;
import static io.dssync.train.TrainerConfig.OPTIMIZER;
import static io.dssync.train.TrainerConfig.RACKS;
import static io.dssync.train.TrainerConfig.REPLAN_EVERY;
import static io.dssync.train.TrainerConfig.SHUFFLE_PERIOD;
import static io.dssync.train.TrainerConfig.WARMUP_STEPS;

import io.dssync.schedule.ScheduleKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The settings given a value that a run never reads (a typo'd schedule, or a flag kept from another run), one
 * line each, so the user does not believe they took effect.
 */
final class IgnoredSettings {
  private IgnoredSettings() {}

  static List<String> of(TrainerConfig c) {
    ScheduleKind kind = c.scheduleKind();
    List<String> lines = new ArrayList<>();
    if ((kind == ScheduleKind.FULL || kind == ScheduleKind.LOCAL)
        && !c.get(GROUP_SIZE).equals(GROUP_SIZE.defaultValue())) {
      lines.add(ignored(c, GROUP_SIZE, kind,
          "full averages all workers in one group, local keeps each worker alone"));
    }
    // An elastic butterfly whose N' is no power of g runs random groups (Fit.schedulePlan), which reshuffle;
    // auto's random and topology candidates reshuffle with this period too.
    boolean reshuffles = kind == ScheduleKind.RANDOM || kind == ScheduleKind.TOPOLOGY || kind == ScheduleKind.AUTO
        || (kind == ScheduleKind.BUTTERFLY && c.minWorkers() < c.workers());
    if (!reshuffles && !c.get(SHUFFLE_PERIOD).equals(SHUFFLE_PERIOD.defaultValue())) {
      lines.add(ignored(c, SHUFFLE_PERIOD, kind, "only random, topology and auto reshuffle groups"));
    }
    if (kind != ScheduleKind.TOPOLOGY && !c.get(CROSS_RACK_PERIOD).equals(CROSS_RACK_PERIOD.defaultValue())) {
      lines.add(ignored(c, CROSS_RACK_PERIOD, kind, "only topology reads it (auto chooses its own period)"));
    }
    if (kind != ScheduleKind.AUTO && !c.get(REPLAN_EVERY).equals(REPLAN_EVERY.defaultValue())) {
      lines.add(ignored(c, REPLAN_EVERY, kind, "only auto probes the links and re-plans"));
    }
    if (!c.get(RACKS).isEmpty() && !c.usesRacks()) {
      lines.add(ignored(c, RACKS, kind, "only topology groups by them, and --cross-rack-precision fp16 sends halves"
          + " between them (auto measures its own racks)"));
    }
    lines.addAll(optimizerSettings(c));
    return lines;
  }

  /** Those of the optimizer and the learning-rate schedule. */
  private static List<String> optimizerSettings(TrainerConfig c) {
    List<String> lines = new ArrayList<>();
    String optimizer = c.get(OPTIMIZER);
    if (optimizer.startsWith("adam") && !c.get(MOMENTUM).equals(MOMENTUM.defaultValue())) {
      lines.add(ignored(c, MOMENTUM, OPTIMIZER, "only sgd and sgd-nesterov use momentum"));
    }
    String schedule = c.get(LR_SCHEDULE);
    if (schedule.equals("onecycle") && !c.get(WARMUP_STEPS).equals(WARMUP_STEPS.defaultValue())) {
      lines.add(ignored(c, WARMUP_STEPS, LR_SCHEDULE, "onecycle warms up over --onecycle-pct-start of the run"));
    }
    for (Setting<?> s : List.of(LR_DECAY_FACTOR, LR_MILESTONES, LR_DECAY_EVERY)) {
      if (!schedule.equals("step") && !c.get(s).equals(s.defaultValue())) {
        lines.add(ignored(c, s, LR_SCHEDULE, "only the step schedule decays in steps"));
      }
    }
    if (schedule.equals("step") && c.get(LR_DECAY_EVERY) > 0
        && !c.get(LR_MILESTONES).equals(LR_MILESTONES.defaultValue())) {
      lines.add(ignored(c, LR_MILESTONES, LR_DECAY_EVERY, "the step schedule decays at fixed intervals instead"));
    }
    for (Setting<?> s : List.of(ONECYCLE_PCT_START, ONECYCLE_DIV_FACTOR, ONECYCLE_FINAL_DIV_FACTOR)) {
      if (!schedule.equals("onecycle") && !c.get(s).equals(s.defaultValue())) {
        lines.add(ignored(c, s, LR_SCHEDULE, "only onecycle reads it"));
      }
    }
    return lines;
  }

  private static String ignored(TrainerConfig c, Setting<?> setting, Setting<?> chosen, String why) {
    return String.format(Locale.ROOT, "%s %s has no effect with %s %s: %s.", setting.flag(), c.get(setting),
        chosen.flag(), c.get(chosen), why);
  }

  private static String ignored(TrainerConfig c, Setting<?> setting, ScheduleKind kind, String why) {
    return String.format(Locale.ROOT, "%s %s has no effect with --schedule %s: %s.", setting.flag(), c.get(setting),
        kind.cliName(), why);
  }
}
