package io.dssync.data.table;

import io.dssync.data.frame.HoldOut;
import java.io.Serializable;
import org.apache.spark.sql.Row;

/**
 * Which rows of one read go to validation: none, a seeded random fraction (the trainer's own
 * {@link HoldOut}: a hash of seed, input partition and row position, so no sort and no second
 * read), or the rows whose boolean indicator column is true.
 */
final class Validation implements Serializable {
  static final Validation NONE = new Validation(null, false);

  private final HoldOut holdOut;
  private final boolean indicator;

  private Validation(HoldOut holdOut, boolean indicator) {
    this.holdOut = holdOut;
    this.indicator = indicator;
  }

  static Validation fraction(double fraction, long seed) {
    return new Validation(new HoldOut(fraction, seed), false);
  }

  static Validation indicatorColumn() {
    return new Validation(null, true);
  }

  /** Whether row {@code index} of input {@code partition}, already read by {@code reader}, is a validation row. */
  boolean holds(RowReader reader, Row row, int partition, long index) {
    if (indicator) {
      return reader.validationRow(row);
    }
    return holdOut != null && holdOut.holds(partition, (int) index);
  }

  /** Which rows of a read a frame keeps. */
  enum Side {
    ALL,
    TRAIN,
    VALIDATION;

    boolean keeps(boolean validationRow) {
      return this == ALL || (this == VALIDATION) == validationRow;
    }
  }
}
