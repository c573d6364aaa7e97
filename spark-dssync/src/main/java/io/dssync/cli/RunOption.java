package io.dssync.cli;

/** Flags of {@code dssync train} that are about the run, not the training algorithm. */
enum RunOption {
  PRESET("--preset", "A workload with sizes that train in about ten minutes on 2 cores with 4 workers: "
      + Preset.names() + " (flags given explicitly override it; see below)", "none"),
  MASTER("--master", "Spark master URL; local mode uses one JVM with N task threads", "local[<workers>]"),
  DATASET("--dataset", "Dataset name: " + String.join(", ", DatasetChoice.NAMES), "fashion-mnist"),
  TRAIN_LIMIT("--train-limit", "Use only the first N training examples (0 = all)", "0"),
  TEST_LIMIT("--test-limit", "Evaluate on only the first N test examples (0 = all)", "0"),
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

  static RunOption find(String flag) {
    for (RunOption o : values()) {
      if (o.flag.equals(flag)) {
        return o;
      }
    }
    return null;
  }
}
