package io.dssync.cli;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.table.BadRecords;
import io.dssync.data.table.LoadedTable;
import io.dssync.data.table.TableShape;
import io.dssync.data.table.TableSource;
import io.dssync.data.table.TableSplit;
import io.dssync.data.table.TableSplits;
import io.dssync.data.table.TableReader;
import io.dssync.errors.Errors;
import io.dssync.launch.CommandFlags;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * {@code dssync train --data PATH}: the user's table, read and checked by {@link TableReader}, as the
 * trainer's input, with its validation side (--test-data, --validation-col or --validation-fraction)
 * collected to the driver, which evaluates the consensus model on it between stages.
 */
final class TableData {
  private TableData() {}

  /** Whether the flags name a table instead of a built-in dataset. */
  static boolean given(CommandFlags flags) {
    return !flags.string(RunOption.DATA.flag, "").isEmpty();
  }

  static TrainingData load(SparkSession spark, CommandFlags flags, TrainerConfig config) {
    String[] features = flags.string(RunOption.FEATURES_COL.flag, "features").split(",");
    for (int i = 0; i < features.length; i++) {
      features[i] = features[i].trim();
    }
    TableSource source = TableSource.of(flags.string(RunOption.DATA.flag, ""),
        flags.string(RunOption.FORMAT.flag, "parquet"), features)
        .withLabel(flags.string(RunOption.LABEL_COL.flag, "label"));
    BadRecords bad = BadRecords.of(config.get(TrainerConfig.BAD_RECORDS));
    String test = flags.string(RunOption.TEST_DATA.flag, "");
    String indicator = flags.string(RunOption.VALIDATION_COL.flag, "");
    double fraction = fraction(flags.string(RunOption.VALIDATION_FRACTION.flag, "0"));
    TableSplit split;
    if (!test.isEmpty()) {
      split = TableSplits.testData(spark, source, source.atPath(test), bad);
    } else if (!indicator.isEmpty()) {
      split = TableSplits.indicator(spark, source, indicator, bad);
    } else if (fraction > 0) {
      split = TableSplits.fraction(spark, source, fraction, config.get(TrainerConfig.SEED), bad);
    } else {
      split = new TableSplit(TableReader.read(spark, source, bad), null);
    }
    LoadedTable train = split.train();
    TableShape shape = train.shape();
    int classes = shape.labelWidth() == 1 ? classes(train) : 0;
    LabeledArrays held = split.validation() == null ? null : collect(split.validation(), shape);
    return new TrainingData(train.frame(), DataFrames.FEATURES, DataFrames.LABEL, shape.channels(), shape.height(),
        shape.width(), classes, held, shape.idsInput() ? vocabulary(train) : 0, null, null, shape.labelWidth());
  }

  private static double fraction(String text) {
    try {
      double f = Double.parseDouble(text);
      if (f >= 0 && f < 1) {
        return f;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(RunOption.VALIDATION_FRACTION.flag, text, "must be a number in [0, 1)",
        "Give the share of the rows to hold out for validation, e.g. 0.1 (0: none).");
  }

  /** Classes of scalar labels: the largest label + 1 (a class loss then checks every label is an index). */
  private static int classes(LoadedTable table) {
    Row max = table.frame().agg(functions.max(DataFrames.LABEL)).first();
    double largest = max.isNullAt(0) ? 0 : max.getDouble(0);
    return largest >= 0 && largest == Math.rint(largest) && largest < Integer.MAX_VALUE ? (int) largest + 1 : 0;
  }

  /** Ids of a token-id table: the largest + 1. */
  private static int vocabulary(LoadedTable table) {
    double largest = table.frame().select(DataFrames.FEATURES).javaRDD()
        .map(r -> ((Vector) r.get(0)).toArray())
        .map(values -> java.util.Arrays.stream(values).max().orElse(0))
        .fold(0.0, Math::max);
    return (int) largest + 1;
  }

  /** The validation rows on the driver, labels as values (their classes are checked by the replica). */
  private static LabeledArrays collect(LoadedTable table, TableShape shape) {
    return DataFrames.collect(table.frame().collectAsList().iterator(), 0, 1, shape.featureSize(),
        Labels.values(shape.labelWidth()), "in the validation table");
  }
}
