package io.dssync.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Flags of {@code dssync train} that are about the run, not the training algorithm, besides the
 * ones every training command has ({@link io.dssync.launch.TrainingArgs.RunFlag}).
 */
enum RunOption {
  PRESET("--preset", "A workload with sizes that train in about ten minutes on 2 cores with 4 workers: "
      + Preset.names() + " (flags given explicitly override it; see below)", "none"),
  DATASET("--dataset", "Dataset name: " + String.join(", ", DatasetChoice.NAMES), "fashion-mnist"),
  METRICS_OUT("--metrics-out", "Write per-step and per-stage metrics as JSON lines to this path"
      + " (any Hadoop file system; render with 'dssync report')", "");

  final String flag;
  final String doc;
  final String defaultText;

  RunOption(String flag, String doc, String defaultText) {
    this.flag = flag;
    this.doc = doc;
    this.defaultText = defaultText;
  }

  static Set<String> flags() {
    return Stream.of(values()).map(o -> o.flag).collect(Collectors.toCollection(LinkedHashSet::new));
  }
}
