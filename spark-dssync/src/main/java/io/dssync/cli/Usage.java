package io.dssync.cli;

import io.dssync.launch.TrainingArgs.RunFlag;
import io.dssync.train.Setting;
import io.dssync.train.Setting.Group;
import io.dssync.train.TrainerConfig;
import java.util.Locale;

/** Help text, generated from the setting declarations so it never drifts from the code. */
final class Usage {
  private Usage() {}

  /** {@code dssync help}: the commands, then the flags of {@code dssync train}. */
  static String text() {
    return "Usage: dssync train [flags]       train a model with Divide-and-Shuffle Synchronization\n"
        + "       dssync export-model --checkpoint PATH --save-model DIR  a checkpoint as a model directory\n"
        + "       dssync report [--out DIR] RUN.jsonl...  plots and an HTML page from metrics files\n"
        + "       dssync bench MODE [flags]        benchmarks (dssync bench help lists the modes)\n"
        + "       dssync --version                 the version of this build\n"
        + "       dssync help\n\n"
        + train();
  }

  /** {@code dssync train --help}: its flags by group, then the presets. */
  static String train() {
    StringBuilder sb = new StringBuilder();
    sb.append("dssync train: flags take a value, as --flag VALUE or --flag=VALUE. Training settings are also\n")
        .append("TrainerConfig constants and Spark conf keys spark.dssync.<name> (a flag wins over the key);\n")
        .append("see docs/configuration.md.\n");
    for (Group group : Group.values()) {
      sb.append('\n').append(capitalised(group.title())).append(":\n");
      // What to train on comes before how to read it; elsewhere the settings lead.
      if (group == Group.DATA_AND_MODEL) {
        runFlags(sb, group);
        settings(sb, group);
      } else {
        settings(sb, group);
        runFlags(sb, group);
      }
    }
    // A setting declared without a group still shows, so that help never hides one.
    boolean header = false;
    for (Setting<?> s : TrainerConfig.ALL) {
      if (s.group() == null) {
        if (!header) {
          sb.append("\nOther:\n");
          header = true;
        }
        line(sb, s.flag(), s.doc(), s.defaultValue());
      }
    }
    sb.append("\nPresets (--preset NAME):\n").append(Preset.help());
    return sb.toString();
  }

  private static void runFlags(StringBuilder sb, Group group) {
    for (RunOption o : RunOption.values()) {
      if (o.group == group) {
        line(sb, o.flag, o.doc, o.defaultText);
      }
    }
    for (RunFlag f : RunFlag.values()) {
      if (f.group == group) {
        line(sb, f.flag, f.doc, f.defaultText);
      }
    }
  }

  private static void settings(StringBuilder sb, Group group) {
    for (Setting<?> s : TrainerConfig.ALL) {
      if (s.group() == group) {
        line(sb, s.flag(), s.doc(), s.defaultValue());
      }
    }
  }

  private static void line(StringBuilder sb, String flag, String doc, Object defaultValue) {
    String shown = String.valueOf(defaultValue).isEmpty() ? "none" : String.valueOf(defaultValue);
    sb.append(String.format(Locale.ROOT, "  %-26s %s (default: %s)%n", flag + " VALUE", doc, shown));
  }

  private static String capitalised(String title) {
    return Character.toUpperCase(title.charAt(0)) + title.substring(1);
  }
}
