package io.dssync.data.table;

import io.dssync.errors.DataErrors;
import java.util.Objects;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

/**
 * A training table and its validation table, in one of three ways: a second table
 * ({@code --test-data}), a seeded random fraction of the rows, or a boolean indicator column
 * (true rows validate, as XGBoost4J-Spark's {@code validationIndicatorCol}). The latter two read
 * the table once for both sides' checks; rows skipped as bad records count on the training side.
 */
public final class TableSplits {
  private TableSplits() {}

  /** {@code train} for training, {@code test} for validation; both checked, and their examples must match. */
  public static TableSplit testData(SparkSession spark, TableSource train, TableSource test,
      BadRecords badRecords) {
    LoadedTable t = TableReader.read(spark, train, badRecords);
    LoadedTable v = TableReader.read(spark, test, badRecords);
    requireSameExamples(train.path(), t, test.path(), v);
    return new TableSplit(t, v);
  }

  /**
   * Each row of {@code source} goes to validation with probability {@code fraction} in (0, 1), by a
   * hash of {@code seed}, its input partition and its position there: the same files and seed give
   * the same split.
   */
  public static TableSplit fraction(SparkSession spark, TableSource source, double fraction,
      long seed, BadRecords badRecords) {
    Validation validation = Validation.fraction(fraction, seed);
    return split(CheckedTable.check(TableReader.load(spark, source), source.path(), source.columns(), null,
        validation, badRecords), "fraction " + fraction + ", seed " + seed);
  }

  /** Rows whose boolean column {@code indicatorColumn} is true validate, the others train. */
  public static TableSplit indicator(SparkSession spark, TableSource source,
      String indicatorColumn, BadRecords badRecords) {
    return split(CheckedTable.check(TableReader.load(spark, source), source.path(), source.columns(),
        indicatorColumn, Validation.indicatorColumn(), badRecords), "indicator column '" + indicatorColumn + "'");
  }

  private static TableSplit split(CheckedTable table, String how) {
    LoadedTable train = table.loaded(Validation.Side.TRAIN);
    LoadedTable validation = table.loaded(Validation.Side.VALIDATION);
    if (train.rows() == 0 || validation.rows() == 0) {
      throw DataErrors.emptyTable(table.name + " (" + (train.rows() == 0 ? "training" : "validation")
          + " side of the split by " + how + ")", "all " + table.scan.good() + " good rows went to the other side");
    }
    return new TableSplit(train, validation);
  }

  private static void requireSameExamples(String trainPath, LoadedTable train, String testPath, LoadedTable test) {
    TableShape a = train.shape();
    TableShape b = test.shape();
    if (!a.features().equals(b.features())) {
      throw DataErrors.splitsDiffer(trainPath, testPath, "example shape (channels x height x width)",
          a.features(), b.features());
    }
    if (a.labelWidth() != b.labelWidth()) {
      throw DataErrors.splitsDiffer(trainPath, testPath, "label width", a.labelWidth(), b.labelWidth());
    }
    DataType la = train.frame().schema().apply("label").dataType();
    DataType lb = test.frame().schema().apply("label").dataType();
    if (!Objects.equals(la, lb)) {
      throw DataErrors.splitsDiffer(trainPath, testPath, "label type", la.simpleString(),
          lb.simpleString());
    }
    if (a.idsInput() != b.idsInput()) {
      throw DataErrors.splitsDiffer(trainPath, testPath, "feature kind",
          a.idsInput() ? "token ids" : "numbers", b.idsInput() ? "token ids" : "numbers");
    }
  }
}
