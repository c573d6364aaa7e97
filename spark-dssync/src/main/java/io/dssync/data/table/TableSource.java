package io.dssync.data.table;

import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.List;

/**
 * A user's table on any Hadoop file system: where it is, its {@link TableFormat}, and which
 * {@link TableColumns} hold the features and the label. Immutable; the {@code with...} methods
 * return changed copies, e.g. {@code TableSource.of("hdfs:///t", "parquet", "pixels").withLabel("y")}.
 */
public record TableSource(String path, TableFormat format, TableColumns columns) implements Serializable {
  public TableSource {
    if (path == null || path.isBlank()) {
      throw Errors.invalidSetting("path", path, "a table needs a path", "Give the file or folder of the table.");
    }
    if (format == null || columns == null) {
      throw Errors.invalidSetting(format == null ? "format" : "columns", null, "it is required",
          "Name the table's format and its feature columns.");
    }
  }

  /** The table at {@code path} in {@code format} (validated), features from {@code featureColumns}, label "label". */
  public static TableSource of(String path, String format, String... featureColumns) {
    return new TableSource(path, TableFormat.of(format), TableColumns.of(featureColumns));
  }

  public List<String> featureColumns() {
    return columns.features();
  }

  public String labelColumn() {
    return columns.label();
  }

  public TableSource withLabel(String labelColumn) {
    return new TableSource(path, format, columns.withLabel(labelColumn));
  }

  public TableSource withLayout(ImageLayout layout) {
    return new TableSource(path, format, columns.withLayout(layout));
  }

  /** The same format and columns at another path: the {@code --test-data} table of this training table. */
  public TableSource atPath(String otherPath) {
    return new TableSource(otherPath, format, columns);
  }
}
