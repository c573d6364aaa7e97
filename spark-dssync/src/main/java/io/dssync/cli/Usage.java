package io.dssync.cli;

import io.dssync.launch.TrainingArgs.RunFlag;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;

/** Help text, generated from the setting table so it never drifts from the code. */
final class Usage {
  private Usage() {}

  static String text() {
    StringBuilder sb = new StringBuilder();
    sb.append("Usage: dssync train [flags]       train a model with Divide-and-Shuffle Synchronization\n")
        .append("       dssync report [--out DIR] RUN.jsonl...  plots and an HTML page from metrics files\n")
        .append("       dssync bench MODE [flags]        benchmarks (dssync bench help lists the modes)\n")
        .append("       dssync help\n\n")
        .append("Run flags of train:\n");
    for (RunFlag f : RunFlag.values()) {
      sb.append(String.format("  %-26s %s%n", f.flag + " VALUE", f.help()));
    }
    for (RunOption o : RunOption.values()) {
      sb.append(String.format("  %-26s %s (default: %s)%n", o.flag + " VALUE", o.doc, o.defaultText));
    }
    sb.append("\nPresets (--preset NAME):\n").append(Preset.help());
    sb.append("\nTraining flags (also Spark conf keys dssync.<name>):\n");
    for (Setting<?> s : TrainerConfig.ALL) {
      sb.append(String.format("  %-26s %s (default: %s)%n", s.flag() + " VALUE", s.doc(), s.defaultValue()));
    }
    return sb.toString();
  }
}
