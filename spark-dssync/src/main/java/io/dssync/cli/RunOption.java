package io.dssync.cli;

import io.dssync.train.Setting.Group;
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
      + Preset.names() + " (flags given explicitly override it)", "none", Group.DATA_AND_MODEL),
  DATASET("--dataset", "Dataset name: " + String.join(", ", DatasetChoice.NAMES), "fashion-mnist",
      Group.DATA_AND_MODEL),
  SAVE_MODEL("--save-model", "Save the trained model as a Spark ML model directory (any Hadoop file system;"
      + " DsSyncClassificationModel.load reads it); a model trained from --model-file also as DIR/model.pt, which"
      + " torch.jit.load reads", "", Group.TRAINING),
  METRICS_OUT("--metrics-out", "Write per-step and per-stage metrics as JSON lines to this path"
      + " (any Hadoop file system; render with 'dssync report')", "", Group.TRAINING);

  final String flag;
  final String doc;
  final String defaultText;
  final Group group;

  RunOption(String flag, String doc, String defaultText, Group group) {
    this.flag = flag;
    this.doc = doc;
    this.defaultText = defaultText;
    this.group = group;
  }

  static Set<String> flags() {
    return Stream.of(values()).map(o -> o.flag).collect(Collectors.toCollection(LinkedHashSet::new));
  }
}
