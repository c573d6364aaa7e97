package io.dssync.data.table;

import java.util.List;

/**
 * The partitions' {@link PartitionScan}s of one read, joined in partition order: totals, the first
 * bad row, the first good row's sizes, and the first good row whose sizes differ from those.
 */
final class TableScan {
  long rows;
  long bad;
  long validation;
  String badWhere;
  BadRow badRow;
  RowShape first;
  String firstWhere;
  RowShape mismatch;
  String mismatchWhere;

  static TableScan of(List<PartitionScan> partitions) {
    TableScan all = new TableScan();
    for (PartitionScan p : partitions) {
      all.rows += p.rows;
      all.bad += p.bad;
      all.validation += p.validation;
      if (all.badRow == null && p.badRow != null) {
        all.badRow = p.badRow;
        all.badWhere = p.badWhere;
      }
      if (p.first == null || all.mismatch != null) {
        continue;
      }
      if (all.first == null) {
        all.first = p.first;
        all.firstWhere = p.firstWhere;
      }
      // A partition that starts like the first one can still change sizes later on.
      if (!p.first.equals(all.first)) {
        all.mismatch = p.first;
        all.mismatchWhere = p.firstWhere;
      } else if (p.mismatch != null) {
        all.mismatch = p.mismatch;
        all.mismatchWhere = p.mismatchWhere;
      }
    }
    return all;
  }

  long good() {
    return rows - bad;
  }
}
