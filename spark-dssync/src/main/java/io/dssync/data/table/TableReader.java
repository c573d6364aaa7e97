package io.dssync.data.table;

import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.FileErrors;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Reads a user's table into the {@code (features, label)} frame the trainer consumes, checking
 * the path, the columns and every row first (see the package documentation for what is accepted).
 */
public final class TableReader {
  /**
   * The classes a table check sends from executors to the driver (one scan per input partition),
   * for Spark's Kryo registration: plain Serializable classes, since a scan may carry the first
   * bad row's exception, which Java serialization writes and Kryo's field serializer does not.
   */
  public static final List<Class<?>> TASK_RESULT_CLASSES = List.of(PartitionScan.class);

  private TableReader() {}

  /** Reads and checks {@code source}; the first bad row fails the read ({@link BadRecords#FAIL}). */
  public static LoadedTable read(SparkSession spark, TableSource source) {
    return read(spark, source, BadRecords.FAIL);
  }

  /** Reads and checks {@code source}, with bad rows failing the read or dropped as {@code badRecords} says. */
  public static LoadedTable read(SparkSession spark, TableSource source, BadRecords badRecords) {
    return CheckedTable.check(load(spark, source), source.path(), source.columns(), null, Validation.NONE, badRecords)
        .loaded(Validation.Side.ALL);
  }

  /**
   * Checks and normalizes a DataFrame the caller already has (e.g. images read with
   * {@code spark.read().format("image")} and a label column added), named {@code name} in errors.
   */
  public static LoadedTable fromFrame(Dataset<Row> table, String name, TableColumns columns, BadRecords badRecords) {
    return CheckedTable.check(table, name, columns, null, Validation.NONE, badRecords).loaded(Validation.Side.ALL);
  }

  /**
   * The table at {@code source}'s path as Spark's reader of its format gives it, all columns, after
   * checking that the path exists; a folder without readable files is an empty table.
   */
  public static Dataset<Row> load(SparkSession spark, TableSource source) {
    String path = source.path();
    requireExists(spark, source);
    Dataset<Row> table;
    try {
      table = source.format().reader(spark).load(path);
    } catch (Exception e) { // AnalysisException and SparkException are checked, thrown undeclared from Scala
      if (e instanceof SparkThrowable t && "UNABLE_TO_INFER_SCHEMA".equals(t.getErrorClass())) {
        throw DataErrors.emptyTable(path, "it has no data files that Spark's " + source.format() + " reader can read");
      }
      throw DataErrors.tableUnreadable(path, source.format().sparkName(), e);
    }
    if (table.schema().isEmpty()) {
      throw DataErrors.emptyTable(path, "it has no columns");
    }
    return table;
  }

  /** Before Spark plans a read: a path that matches nothing is named as such, not as a planner error. */
  private static void requireExists(SparkSession spark, TableSource source) {
    String path = source.path();
    FileStatus[] matches;
    try {
      Path p = new Path(path);
      FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
      matches = FileErrors.throughHadoop(path, () -> fs.globStatus(p));
    } catch (DsSyncException e) {
      throw e;
    } catch (IOException | IllegalArgumentException e) {
      throw DataErrors.tableUnopenable(path, e);
    }
    if (matches == null || matches.length == 0) {
      throw DataErrors.tableNotFound(path);
    }
  }
}
