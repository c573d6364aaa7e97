package io.dssync.bench;

import io.dssync.errors.Errors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

/**
 * Where one benchmark mode writes: {@code <dir>/<mode>/} holding one CSV per table, PNG charts and
 * {@code summary.md}, which embeds the tables and links the charts. The summary starts with the
 * command line and the machine, so a reader can rerun it.
 */
public final class ResultsFolder {
  private final Path dir;
  private final StringBuilder summary = new StringBuilder();

  private ResultsFolder(Path dir) {
    this.dir = dir;
  }

  /** Creates (or reuses) {@code <root>/<mode>} and starts its summary with a title and the command. */
  public static ResultsFolder create(Path root, String mode, String commandLine) {
    Path dir = root.resolve(mode);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw Errors.invalidSetting("--out", root, "cannot create " + dir + ": " + e.getMessage(),
          "Pass a writable folder.");
    }
    ResultsFolder folder = new ResultsFolder(dir);
    folder.summary.append("# dssync bench ").append(mode).append("\n\n")
        .append("Command: `").append(commandLine).append("`\n\n")
        .append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
        .append(System.getProperty("java.version")).append(", ").append(System.getProperty("os.name"))
        .append(' ').append(System.getProperty("os.arch")).append("; written ").append(Instant.now())
        .append("\n\n");
    return folder;
  }

  public Path dir() {
    return dir;
  }

  /** Writes {@code <table>.csv} and adds the table, under a heading, to the summary. */
  public Path write(BenchTable table, String heading) {
    Path csv = dir.resolve(table.name() + ".csv");
    writeString(csv, table.toCsv());
    summary.append("## ").append(heading).append("\n\n").append(table.toMarkdown())
        .append("\n(").append(csv.getFileName()).append(")\n\n");
    return csv;
  }

  /** Writes {@code <name>.png} and links it from the summary. */
  public Path chart(String name, XYChart chart) {
    Path png = dir.resolve(name + ".png");
    try {
      BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + png, e);
    }
    summary.append("![").append(chart.getTitle()).append("](").append(png.getFileName()).append(")\n\n");
    return png;
  }

  /** Adds a paragraph of prose (notes, ratios against targets) to the summary. */
  public void note(String markdown) {
    summary.append(markdown).append("\n\n");
  }

  /** Writes {@code summary.md} and returns its path. */
  public Path finish() {
    Path md = dir.resolve("summary.md");
    writeString(md, summary.toString());
    return md;
  }

  private static void writeString(Path path, String text) {
    try {
      Files.writeString(path, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }
}
