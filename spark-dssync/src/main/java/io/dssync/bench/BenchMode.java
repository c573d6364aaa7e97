package io.dssync.bench;

import java.io.PrintStream;

/** One mode of {@code dssync bench}: parses its own flags, runs, writes a results folder. */
public interface BenchMode {
  /** The mode's name on the command line, e.g. {@code allreduce}. */
  String name();

  /** One line for {@code dssync bench help}. */
  String summary();

  /** The mode's flags and defaults, printed by {@code dssync bench MODE --help}. */
  String usage();

  /**
   * Runs the benchmark; progress goes to {@code err}, the path of the written summary and its key
   * ratios to {@code out}. Returns the exit code (0 on success).
   */
  int run(String[] args, PrintStream out, PrintStream err);
}
