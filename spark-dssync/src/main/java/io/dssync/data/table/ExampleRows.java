package io.dssync.data.table;

import io.dssync.errors.DataErrors;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The {@code (features, label)} rows of one input partition of a checked table, on one side of its
 * validation split. Bad rows were counted and logged by the check; here they are dropped (skip)
 * or, should the table have changed since the check, fail as the check would have (fail).
 */
final class ExampleRows implements Iterator<Row> {
  private final Iterator<Row> rows;
  private final int partition;
  private final RowReader reader;
  private final Validation validation;
  private final Validation.Side side;
  private final BadRecords policy;
  private final boolean vectorLabel;
  private final String table;
  private long index;
  private Row next;

  ExampleRows(Iterator<Row> rows, int partition, CheckedTable.Conversion conversion) {
    this.rows = rows;
    this.partition = partition;
    this.reader = conversion.reader();
    this.validation = conversion.validation();
    this.side = conversion.side();
    this.policy = conversion.policy();
    this.vectorLabel = conversion.vectorLabel();
    this.table = conversion.table();
  }

  @Override
  public boolean hasNext() {
    while (next == null && rows.hasNext()) {
      Row row = rows.next();
      long at = index++;
      RowReader.Example e;
      try {
        e = reader.read(row);
      } catch (BadRow b) {
        if (policy == BadRecords.FAIL) {
          throw DataErrors.badRecord("in table " + table + ", " + reader.where(row, partition, at), b.problem, b.fix);
        }
        continue;
      }
      if (side.keeps(validation.holds(reader, row, partition, at))) {
        next = RowFactory.create(Vectors.dense(e.features()),
            vectorLabel ? Vectors.dense(e.label()) : (Object) e.label()[0]);
      }
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row out = next;
    next = null;
    return out;
  }
}
