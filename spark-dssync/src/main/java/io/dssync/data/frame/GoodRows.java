package io.dssync.data.frame;

import io.dssync.data.Labels;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes on the (features, label) rows of one partition that {@link RowPacker} accepts; logs the first few it drops.
 */
final class GoodRows implements Iterator<Row> {
  private static final Logger LOG = LoggerFactory.getLogger(GoodRows.class);
  /** Enough to see what is wrong without flooding an executor log with a million lines. */
  private static final int LOGGED_PER_PARTITION = 5;

  private final Iterator<Row> rows;
  private final RowPacker checker;
  private final int partition;
  private int index;
  private long dropped;
  private Row next;

  GoodRows(Iterator<Row> rows, int featureSize, Labels labels, int partition) {
    this.rows = rows;
    this.checker = new RowPacker(featureSize, labels, "in input partition " + partition);
    this.partition = partition;
  }

  @Override
  public boolean hasNext() {
    while (next == null && rows.hasNext()) {
      Row row = rows.next();
      checker.restartAt(index++);
      try {
        checker.add(row.get(0), row.get(1));
        next = row;
      } catch (DsSyncException e) {
        if (e.kind() != ErrorKind.DATA) {
          throw e;
        }
        dropped++;
        if (dropped <= LOGGED_PER_PARTITION) {
          LOG.warn("Skipping (--bad-records skip): {}", e.getMessage());
        }
      }
    }
    if (next == null && dropped > LOGGED_PER_PARTITION) {
      LOG.warn("Skipped {} bad records in input partition {} (--bad-records skip)", dropped, partition);
      dropped = 0; // report once
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
