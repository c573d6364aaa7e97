package io.dssync.data;

import io.dssync.data.fetch.DebianPackageSource;
import io.dssync.data.fetch.FetchSource;
import io.dssync.data.fetch.ProcessRunner;
import io.dssync.data.fetch.TempFolders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Produces the King James text, one verse a line ({@code Ge1:1 In the beginning ...}), with the
 * {@code bible} program of Debian's {@code bible-kjv}: the installed one when there is one, else
 * the program and its compressed text ({@code bible-kjv-text}) taken from the downloaded packages
 * without installing them. The text is stored in a compressed random-access form that only this
 * program reads, hence running it instead of reading the data file.
 */
final class BibleProgramSource implements FetchSource {
  static final String PROGRAM_PACKAGE = "bible-kjv";
  static final String TEXT_PACKAGE = "bible-kjv-text";
  /** {@code -f} turns pretty-printing off: one verse a line, preceded by its reference. */
  private static final List<String> ARGS = List.of("-f", "Gen1:1-Rev22:21");
  private static final long TIMEOUT_S = 120;

  private final Path workParent;

  BibleProgramSource(Path workParent) {
    this.workParent = workParent;
  }

  @Override
  public String describe(String fileName) {
    return "the bible program of the Debian packages " + PROGRAM_PACKAGE + " + " + TEXT_PACKAGE;
  }

  @Override
  public void fetch(String fileName, Path target) throws IOException {
    Files.createDirectories(workParent);
    Path work = Files.createTempDirectory(workParent, ".bible-");
    try {
      if (runInstalled(work, target)) {
        return;
      }
      runUnpacked(work, target);
    } finally {
      TempFolders.deleteTree(work);
    }
  }

  private static boolean runInstalled(Path work, Path target) {
    try {
      List<String> command = new java.util.ArrayList<>(List.of("bible"));
      command.addAll(ARGS);
      return ProcessRunner.run(command, work, target, TIMEOUT_S) == 0;
    } catch (IOException e) {
      return false; // not installed: no program on the PATH
    }
  }

  /** Runs a copy of the program with its data from the packages (installed or downloaded). */
  static void runUnpacked(Path work, Path target) throws IOException {
    Path program = work.resolve("bible");
    try (FetchSource programPackage = new DebianPackageSource(PROGRAM_PACKAGE, work);
        FetchSource textPackage = new DebianPackageSource(TEXT_PACKAGE, work)) {
      programPackage.fetch("bible", program);
      textPackage.fetch("bible.data", work.resolve("bible.data"));
      textPackage.fetch("bible.data.conc", work.resolve("bible.data.conc"));
    }
    if (!program.toFile().setExecutable(true)) {
      throw new IOException("cannot make " + program + " executable");
    }
    List<String> command = new java.util.ArrayList<>(
        List.of(program.toString(), "-p", work.toString()));
    command.addAll(ARGS);
    int code = ProcessRunner.run(command, work, target, TIMEOUT_S);
    if (code != 0) {
      throw new IOException("the bible program exited with " + code + ": "
          + ProcessRunner.tail(target));
    }
  }
}
