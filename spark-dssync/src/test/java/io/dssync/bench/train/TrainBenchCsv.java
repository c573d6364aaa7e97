package io.dssync.bench.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A benchmark CSV read back from disk (no quoted cells are expected in these tables). */
public record TrainBenchCsv(List<String> header, List<Map<String, String>> rows) {
  public static TrainBenchCsv read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    assertTrue(lines.size() >= 2, csv + " has a header and at least one row");
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(header.size(), cells.length, "cells in line '" + line + "' of " + csv);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < cells.length; i++) {
        row.put(header.get(i), cells[i]);
      }
      rows.add(row);
    }
    return new TrainBenchCsv(header, rows);
  }

  /** The finite number in {@code column} of row {@code row}. */
  public double number(int row, String column) {
    String text = rows.get(row).get(column);
    assertTrue(text != null && !text.isEmpty(), "column " + column + " of row " + row + " is empty: " + rows.get(row));
    double d = Double.parseDouble(text);
    assertTrue(Double.isFinite(d), column + " of row " + row + " is finite");
    return d;
  }

  public String text(int row, String column) {
    return rows.get(row).get(column);
  }

  public void requireColumns(String... columns) {
    for (String c : columns) {
      assertTrue(header.contains(c), "column " + c + " in " + header);
    }
  }

  /** Fails if a PNG file is missing or does not start with the PNG signature. */
  public static void requirePng(Path png) throws IOException {
    byte[] head = Arrays.copyOf(Files.readAllBytes(png), 8);
    assertEquals("\u0089PNG", new String(head, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1), png + " is a PNG");
  }
}
