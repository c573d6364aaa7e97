package io.dssync.bench;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CSV file as {@link BenchTable} writes it (header line, quoted cells where needed), read back
 * by column name: the simulator reads the other modes' results with it.
 */
public final class CsvRows {
  private final Path path;
  private final List<String> columns;
  private final List<List<String>> rows;

  private CsvRows(Path path, List<String> columns, List<List<String>> rows) {
    this.path = path;
    this.columns = columns;
    this.rows = rows;
  }

  public static CsvRows read(Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw Errors.invalidSetting("results file", path, "cannot read it: " + e.getMessage(),
          "Run the mode that writes it first, or pass the folder that holds it with --out.");
    }
    List<List<String>> lines = parse(text);
    if (lines.isEmpty()) {
      throw DataErrors.badRecord(path.toString(), "the file is empty", "Rerun the mode that writes it.");
    }
    List<String> header = lines.get(0);
    List<List<String>> body = lines.subList(1, lines.size());
    for (int i = 0; i < body.size(); i++) {
      if (body.get(i).size() != header.size()) {
        throw DataErrors.badRecord(path + " line " + (i + 2),
            "it has " + body.get(i).size() + " cells but the header has "
            + header.size(), "Rerun the mode that writes it.");
      }
    }
    return new CsvRows(path, List.copyOf(header), List.copyOf(body));
  }

  List<String> columns() {
    return columns;
  }

  public int size() {
    return rows.size();
  }

  public boolean hasColumn(String column) {
    return columns.contains(column);
  }

  public String text(int row, String column) {
    int c = columns.indexOf(column);
    if (c < 0) {
      throw DataErrors.badRecord(path.toString(), "it has no column '" + column + "' (columns: " + columns + ")",
          "Rerun the mode that writes it with this version of dssync.");
    }
    return rows.get(row).get(c);
  }

  /** The cell as a number; NaN when empty (BenchTable writes non-finite numbers as empty cells). */
  public double number(int row, String column) {
    String t = text(row, column).trim();
    if (t.isEmpty()) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw DataErrors.badRecord(path + " line " + (row + 2), "column " + column + " holds '" + t + "', not a number",
          "Rerun the mode that writes it.");
    }
  }

  /** Lines of cells; quotes may wrap a cell that holds commas, quotes ("") or newlines. */
  static List<List<String>> parse(String text) {
    List<List<String>> lines = new ArrayList<>();
    List<String> line = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        line.add(cell.toString());
        cell.setLength(0);
      } else if (c == '\n') {
        line.add(cell.toString());
        cell.setLength(0);
        lines.add(line);
        line = new ArrayList<>();
      } else if (c != '\r') {
        cell.append(c);
      }
    }
    if (cell.length() > 0 || !line.isEmpty()) {
      line.add(cell.toString());
      lines.add(line);
    }
    return lines;
  }
}
