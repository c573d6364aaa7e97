package io.dssync.cli;

import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;

/** Help text, generated from the setting table so it never drifts from the code. */
final class Usage {
  private Usage() {}

  static String text() {
    StringBuilder sb = new StringBuilder();
    sb.append("Usage: dssync train [flags]\n\n")
        .append("Trains a model with Divide-and-Shuffle Synchronization on Spark.\n\n")
        .append("Run flags:\n");
    for (RunOption o : RunOption.values()) {
      sb.append(String.format("  %-26s %s (default: %s)%n", o.flag + " VALUE", o.doc, o.defaultText));
    }
    sb.append("\nTraining flags (also Spark conf keys dssync.<name>):\n");
    for (Setting<?> s : TrainerConfig.ALL) {
      sb.append(String.format("  %-26s %s (default: %s)%n", s.flag() + " VALUE", s.doc(), s.defaultValue()));
    }
    return sb.toString();
  }
}
