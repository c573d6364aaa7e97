package io.dssync.data.table;

import io.dssync.data.frame.DataFrames;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.errors.SparkFailures;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A table whose schema and rows passed every check: the schema by {@link ColumnPlan}, the rows by
 * one Spark job of {@link PartitionScan}s (bad records, equal sizes, emptiness, how many rows go
 * to validation). Gives the normalized frame of either side of the validation split.
 */
final class CheckedTable {
  /** What converting a partition needs on an executor. */
  record Conversion(RowReader reader, Validation validation, Validation.Side side, BadRecords policy,
      boolean vectorLabel, String table) implements Serializable {}

  final String name;
  final TableShape shape;
  final TableScan scan;
  private final Dataset<Row> selected;
  private final ColumnPlan plan;
  private final Validation validation;
  private final BadRecords policy;

  private CheckedTable(String name, Dataset<Row> selected, ColumnPlan plan, Validation validation,
      BadRecords policy, TableScan scan, TableShape shape) {
    this.name = name;
    this.selected = selected;
    this.plan = plan;
    this.validation = validation;
    this.policy = policy;
    this.scan = scan;
    this.shape = shape;
  }

  /**
   * Checks {@code columns} of {@code table} (named {@code name} in errors) with a validation
   * split by {@code validation} ({@code indicator}: its column, or null), reading the rows once.
   */
  static CheckedTable check(Dataset<Row> table, String name, TableColumns columns, String indicator,
      Validation validation, BadRecords policy) {
    ColumnPlan plan = ColumnPlan.of(table.schema(), columns, indicator, name);
    Dataset<Row> selected = table.select(plan.selected().stream().map(CheckedTable::column).toArray(Column[]::new));
    RowReader reader = new RowReader(plan);
    List<PartitionScan> scans;
    try {
      scans = selected.javaRDD().mapPartitionsWithIndex(
          (p, rows) -> List.of(PartitionScan.of(rows, p, reader, validation, policy, name)).iterator(), true)
          .collect();
    } catch (DsSyncException e) {
      throw e;
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      throw SparkFailures.fromTaskFailure(e, "Reading table " + name);
    }
    TableScan scan = TableScan.of(scans);
    if (policy == BadRecords.FAIL && scan.badRow != null) {
      throw DataErrors.badRecord(scan.badWhere, scan.badRow.problem, scan.badRow.fix);
    }
    if (scan.mismatch != null) {
      throw unequal(name, plan, scan);
    }
    if (scan.good() == 0) {
      throw DataErrors.emptyTable(name, scan.rows == 0 ? "it has no rows"
          : "all " + scan.rows + " rows are bad records, skipped under --bad-records skip");
    }
    return new CheckedTable(name, selected, plan, validation, policy, scan, shape(name, plan, scan.first,
        columns.layout()));
  }

  /** The normalized {@code (features, label)} frame of {@code side}, with its row counts. */
  LoadedTable loaded(Validation.Side side) {
    boolean vectorLabel = plan.label != ColumnPlan.Label.NUMBER;
    Conversion conversion = new Conversion(new RowReader(plan), validation, side, policy, vectorLabel, name);
    JavaRDD<Row> rows = selected.javaRDD().mapPartitionsWithIndex(
        (p, raw) -> new ExampleRows(raw, p, conversion), true);
    StructType schema = new StructType(new StructField[] {
        DataTypes.createStructField(DataFrames.FEATURES, SQLDataTypes.VectorType(), false),
        DataTypes.createStructField(DataFrames.LABEL, vectorLabel ? SQLDataTypes.VectorType() : DataTypes.DoubleType,
            false)});
    long count = switch (side) {
      case ALL -> scan.good();
      case TRAIN -> scan.good() - scan.validation;
      case VALIDATION -> scan.validation;
    };
    return new LoadedTable(selected.sparkSession().createDataFrame(rows, schema), shape, count,
        side == Validation.Side.VALIDATION ? 0 : scan.bad);
  }

  /** A column by its exact name, also when the name holds dots or spaces. */
  private static Column column(String name) {
    return functions.col("`" + name.replace("`", "``") + "`");
  }

  private static DsSyncException unequal(String name, ColumnPlan plan, TableScan scan) {
    boolean image = plan.features == ColumnPlan.Features.IMAGE;
    if (!scan.mismatch.sameFeatures(scan.first)) {
      String what = image ? "images" : plan.features == ColumnPlan.Features.VECTOR ? "vectors" : "arrays";
      return DataErrors.unequalRows(name, plan.featureName(), what, scan.mismatchWhere, scan.mismatch.features(image),
          scan.firstWhere, scan.first.features(image));
    }
    return DataErrors.unequalRows(name, plan.labelName, plan.label == ColumnPlan.Label.VECTOR ? "vectors" : "arrays",
        scan.mismatchWhere, scan.mismatch.label(), scan.firstWhere, scan.first.label());
  }

  /** The examples' shape: the images', or flat {@code 1 x 1 x d} unless a layout was given for them. */
  private static TableShape shape(String name, ColumnPlan plan, RowShape first, ImageLayout layout) {
    boolean ids = plan.features == ColumnPlan.Features.ID_ARRAY;
    if (layout == null) {
      return new TableShape(first.channels(), first.height(), first.width(), first.labelWidth(), ids);
    }
    if (plan.features == ColumnPlan.Features.IMAGE) {
      if (layout.channels() != first.channels() || layout.height() != first.height()
          || layout.width() != first.width()) {
        throw Errors.invalidSetting("imageLayout", layout, "the images of column '" + plan.featureName() + "' of table "
            + name + " are " + first.features(true), "Leave the layout unset for an image column, or give theirs.");
      }
    } else if (layout.size() != first.width()) {
      throw Errors.invalidSetting("imageLayout", layout, "it holds " + layout.size() + " values but each example of"
          + " table " + name + " has " + first.width() + " features (column " + plan.featureName() + ")",
          "Give a layout of " + first.width() + " values, or none for 1 x 1 x " + first.width() + ".");
    }
    return new TableShape(layout.channels(), layout.height(), layout.width(), first.labelWidth(), ids);
  }
}
