package io.dssync.bench;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One benchmark result table: named columns, rows of cells. Written as CSV (for machines) and as a
 * Markdown table (for the summary). Numbers are formatted once, when a row is added, so the CSV
 * and the Markdown always show the same value.
 */
public final class BenchTable {
  private final String name;
  private final List<String> columns;
  private final List<List<String>> rows = new ArrayList<>();

  /** {@code name} becomes the file name ({@code <name>.csv}); keep it to [a-z0-9-]. */
  public BenchTable(String name, String... columns) {
    if (!name.matches("[a-z0-9][a-z0-9-]*")) {
      throw Errors.invalidSetting("bench table name", name, "must match [a-z0-9][a-z0-9-]*",
          "Use a lower-case file-system-safe name.");
    }
    this.name = name;
    this.columns = List.of(columns);
  }

  public String name() {
    return name;
  }

  public List<String> columns() {
    return columns;
  }

  public List<List<String>> rows() {
    return rows;
  }

  /** Adds a row; doubles get 4 significant decimals' worth of formatting, NaN prints as empty. */
  public BenchTable add(Object... cells) {
    if (cells.length != columns.size()) {
      throw DataErrors.lengthMismatch("cells of a row of table " + name, columns.size(), cells.length);
    }
    List<String> row = new ArrayList<>(cells.length);
    for (Object c : cells) {
      row.add(format(c));
    }
    rows.add(row);
    return this;
  }

  /** The cell of {@code column} in row {@code row}, as written. */
  public String cell(int row, String column) {
    int c = columns.indexOf(column);
    if (c < 0) {
      throw Errors.unknownName("column of table " + name, column, columns.toArray(new String[0]));
    }
    return rows.get(row).get(c);
  }

  public String toCsv() {
    StringBuilder sb = new StringBuilder();
    sb.append(csvLine(columns));
    for (List<String> row : rows) {
      sb.append(csvLine(row));
    }
    return sb.toString();
  }

  public String toMarkdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", columns)).append(" |\n");
    sb.append("|").append("---|".repeat(columns.size())).append('\n');
    for (List<String> row : rows) {
      sb.append("| ");
      for (int i = 0; i < row.size(); i++) {
        sb.append(i == 0 ? "" : " | ").append(row.get(i).replace("|", "\\|"));
      }
      sb.append(" |\n");
    }
    return sb.toString();
  }

  static String format(Object cell) {
    if (cell instanceof Double || cell instanceof Float) {
      double d = ((Number) cell).doubleValue();
      if (!Double.isFinite(d)) {
        return "";
      }
      double a = Math.abs(d);
      String pattern = a == 0 || a >= 1000 ? "%.1f" : a >= 1 ? "%.3f" : "%.4f";
      return String.format(Locale.ROOT, pattern, d);
    }
    return String.valueOf(cell);
  }

  private static String csvLine(List<String> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      boolean quote = c.contains(",") || c.contains("\"") || c.contains("\n");
      sb.append(i == 0 ? "" : ",").append(quote ? '"' + c.replace("\"", "\"\"") + '"' : c);
    }
    return sb.append('\n').toString();
  }
}
