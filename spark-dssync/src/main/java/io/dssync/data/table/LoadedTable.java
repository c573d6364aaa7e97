package io.dssync.data.table;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A checked table in the form the trainer consumes: {@code frame} has exactly the columns
 * {@code features} (dense ml Vector) and {@code label} (double, or a dense ml Vector when
 * {@code shape.labelWidth()} values per row came from an array or vector column). {@code rows} is
 * its row count, {@code skipped} the bad rows dropped under {@link BadRecords#SKIP}. The frame is
 * not cached: each action on it reads the table again.
 */
public record LoadedTable(Dataset<Row> frame, TableShape shape, long rows, long skipped) {}
