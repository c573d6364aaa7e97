package io.dssync.errors;

import java.util.Arrays;

/**
 * Errors of the data: datasets, tables, their columns and records.
 */
public final class DataErrors {
  private DataErrors() {}

  public static DsSyncException badRecord(String where, String problem, String fix) {
    return new DsSyncException(ErrorKind.DATA, "Bad record " + where + ": " + problem + ". " + fix);
  }

  public static DsSyncException datasetUnavailable(String dataset, String tried, String howToGet) {
    return new DsSyncException(
        ErrorKind.DATASET,
        "Dataset " + dataset + " is not available (tried: " + tried + "). " + howToGet);
  }

  public static DsSyncException datasetCorrupt(String dataset, String file, String problem) {
    return new DsSyncException(
        ErrorKind.DATASET,
        "Dataset " + dataset + " file " + file + " failed verification: " + problem
            + ". Delete the file so it is fetched again.");
  }

  public static DsSyncException lengthMismatch(String what, int expected, int actual) {
    return new DsSyncException(
        ErrorKind.DATA, what + " has length " + actual + " but " + expected + " was expected.");
  }

  /** A table path (any Hadoop file system) that matches no file or directory. */
  public static DsSyncException tableNotFound(String path) {
    return new DsSyncException(ErrorKind.CONFIG, "Table " + path + " does not exist: no file or directory matches"
        + " it. Check the path and its file system scheme (file:///..., hdfs://...); a relative path is relative"
        + " to the working directory of the driver.");
  }

  /** The file system of a table's {@code path} could not be asked whether it exists. */
  public static DsSyncException tableUnopenable(String path, Throwable cause) {
    return new DsSyncException(ErrorKind.CONFIG, "Table " + path + " cannot be opened: "
        + Errors.firstLine(cause.getMessage()) + ". Check the path's file system scheme (file:///..., hdfs://...)"
        + " and that its Hadoop file system is on the class path.", cause);
  }

  /** Spark's {@code format} reader could not read the table at {@code path}. */
  public static DsSyncException tableUnreadable(String path, String format, Throwable cause) {
    return new DsSyncException(ErrorKind.DATA, "Table " + path + " could not be read as " + format + ": "
        + Errors.firstLine(cause.getMessage()) + ". Check that the files are " + format
        + " (or name their format), and that every file of the folder is.", cause);
  }

  /** A table with no rows at all, or none left once its bad records were dropped ({@code why}). */
  public static DsSyncException emptyTable(String table, String why) {
    return new DsSyncException(ErrorKind.DATA, "Table " + table + " is empty: " + why
        + ". Training needs at least one example; check the path, the filter that made the table, or the"
        + " bad records named in the executor logs.");
  }

  /** {@code table} has no {@code role} ("feature", "label" ...) column {@code column}; suggests a close name. */
  public static DsSyncException missingColumn(String table, String role, String column, String[] available) {
    String guess = Errors.closest(column, available);
    return new DsSyncException(ErrorKind.CONFIG, "Table " + table + " has no " + role + " column '" + column + "'"
        + (guess == null ? "" : " (did you mean " + guess + "?)") + "; its columns are "
        + Arrays.toString(available) + ". Name one of those columns as the " + role + " column.");
  }

  /**
   * Column {@code column} of {@code table}, the {@code role} column, has {@code type}, which does
   * not fit: {@code allowed} says what fits, {@code fix} how to get there.
   */
  public static DsSyncException columnType(String table, String role, String column, String type, String allowed,
      String fix) {
    return new DsSyncException(ErrorKind.CONFIG, "The " + role + " column '" + column + "' of table " + table
        + " has type " + type + "; " + allowed + ". " + fix);
  }

  /**
   * Rows of {@code column} of {@code table} hold {@code what} of different sizes: the row at
   * {@code where} has {@code actual}, the first row ({@code firstWhere}) {@code expected}.
   */
  public static DsSyncException unequalRows(String table, String column, String what, String where, String actual,
      String firstWhere, String expected) {
    return new DsSyncException(ErrorKind.DATA, "Column '" + column + "' of table " + table + " holds " + what
        + " of different sizes: " + where + " has " + actual + ", but the first row (" + firstWhere + ") has "
        + expected + ". Every example must have the same size: pad, crop or filter the rows before training.");
  }

  /** A training table and its validation table ({@code --test-data}) whose examples differ in {@code what}. */
  public static DsSyncException splitsDiffer(String train, String validation, String what, Object inTrain,
      Object inValidation) {
    return new DsSyncException(ErrorKind.CONFIG, "The validation table " + validation + " does not fit the training"
        + " table " + train + ": its " + what + " is " + inValidation + " but the training table's is " + inTrain
        + ". Prepare both tables the same way (same columns, lengths and image sizes).");
  }
}
