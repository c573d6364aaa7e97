package io.dssync.data.table;

import io.dssync.errors.DataErrors;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one pass over an input partition found: rows, bad rows, validation rows, the first bad
 * row, the first good row's sizes and the first good row whose sizes differ from them. Every check
 * of a table's rows comes from these, in one Spark job.
 */
final class PartitionScan implements Serializable {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionScan.class);
  /** Enough to see what is wrong without flooding an executor log. */
  static final int LOGGED_PER_PARTITION = 5;

  final int partition;
  long rows;
  long bad;
  long validation;
  String badWhere;
  BadRow badRow;
  RowShape first;
  String firstWhere;
  RowShape mismatch;
  String mismatchWhere;

  private PartitionScan(int partition) {
    this.partition = partition;
  }

  /**
   * Reads every row of {@code partition}; under {@link BadRecords#FAIL} stops at the first bad
   * row, and always at the first row of other sizes (both end the read with an error).
   */
  static PartitionScan of(Iterator<Row> rows, int partition, RowReader reader, Validation validation,
      BadRecords policy, String table) {
    PartitionScan scan = new PartitionScan(partition);
    for (long index = 0; rows.hasNext(); index++) {
      Row row = rows.next();
      scan.rows++;
      try {
        RowReader.Example e = reader.read(row);
        RowShape shape = new RowShape(e.channels(), e.height(), e.width(), e.label().length);
        if (scan.first == null) {
          scan.first = shape;
          scan.firstWhere = reader.where(row, partition, index);
        } else if (!shape.equals(scan.first)) {
          scan.mismatch = shape;
          scan.mismatchWhere = reader.where(row, partition, index);
          break;
        }
        if (validation.holds(reader, row, partition, index)) {
          scan.validation++;
        }
      } catch (BadRow b) {
        scan.bad++;
        String where = "in table " + table + ", " + reader.where(row, partition, index);
        if (scan.badRow == null) {
          scan.badRow = b;
          scan.badWhere = where;
        }
        if (policy == BadRecords.FAIL) {
          break;
        }
        if (scan.bad <= LOGGED_PER_PARTITION) {
          LOG.warn("Skipping (--bad-records skip): {}", DataErrors.badRecord(where, b.problem, b.fix).getMessage());
        }
      }
    }
    if (policy == BadRecords.SKIP && scan.bad > LOGGED_PER_PARTITION) {
      LOG.warn("Skipped {} bad records in input partition {} of table {} (--bad-records skip)", scan.bad, partition,
          table);
    }
    return scan;
  }
}
