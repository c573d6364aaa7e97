package io.dssync.data.table;

import io.dssync.errors.Errors;
import java.util.Arrays;
import java.util.Locale;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.SparkSession;

/** The file formats a {@link TableSource} is read in, each with Spark's own reader. */
public enum TableFormat {
  PARQUET,
  /** With a header line; column types are inferred (one extra pass over the files). */
  CSV,
  JSON,
  ORC,
  /** Spark's libsvm reader: a {@code features} vector and a double {@code label}. */
  LIBSVM;

  /** The name Spark's {@code format(...)} and the command line use. */
  public String sparkName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The format named {@code name} (any case); a typo gets the closest name suggested. */
  public static TableFormat of(String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (TableFormat f : values()) {
      if (f.sparkName().equals(wanted)) {
        return f;
      }
    }
    throw Errors.unknownName("table format", name, Arrays.stream(values()).map(TableFormat::sparkName).toArray());
  }

  /** Spark's reader for this format, with the options that make a plain file a table. */
  DataFrameReader reader(SparkSession spark) {
    DataFrameReader reader = spark.read().format(sparkName());
    return this == CSV ? reader.option("header", "true").option("inferSchema", "true") : reader;
  }

  @Override
  public String toString() {
    return sparkName();
  }
}
