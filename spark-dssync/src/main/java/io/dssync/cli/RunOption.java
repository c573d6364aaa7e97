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
  DATA("--data", "A table to train on instead of --dataset (any Hadoop file system path), read with --format;"
      + " see docs/own-data.md", "", Group.DATA_AND_MODEL),
  FORMAT("--format", "Format of --data and --test-data: parquet, csv (with a header), json, orc or libsvm", "parquet",
      Group.DATA_AND_MODEL),
  FEATURES_COL("--features-col", "Feature column(s) of --data: one vector, array or image column, or several numeric"
      + " columns separated by commas (assembled in that order)", "features", Group.DATA_AND_MODEL),
  LABEL_COL("--label-col", "Label column of --data: a number (class index or target) or an array/vector of them",
      "label", Group.DATA_AND_MODEL),
  TEST_DATA("--test-data", "A held-out table (same format and columns as --data) the driver evaluates on", "",
      Group.DATA_AND_MODEL),
  VALIDATION_COL("--validation-col", "A boolean column of --data: true rows are held out for validation", "",
      Group.DATA_AND_MODEL),
  VALIDATION_FRACTION("--validation-fraction", "Hold out this share of --data's rows (seeded by --seed) for"
      + " validation, when neither --test-data nor --validation-col is given", "0", Group.DATA_AND_MODEL),
  SAVE_MODEL("--save-model", "Save the trained model as a Spark ML model directory (any Hadoop file system;"
      + " DsSyncRegressionModel.load reads it for mse, l1 and huber, DsSyncClassificationModel.load otherwise)"
      + " with its weights as DIR/weights.safetensors; a model trained from --model-file also as DIR/model.pt,"
      + " which torch.jit.load reads", "", Group.TRAINING),
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
