package io.dssync.cli;

import io.dssync.bench.Benchmarks;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.SparkFailures;
import java.io.PrintStream;
import java.util.Arrays;

/** The {@code dssync} command: {@code dssync train|export-model|report|bench ...}, {@code dssync help}, {@code dssync --version}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    // A YARN cluster-mode driver runs inside the application master, which reports any System.exit
    // before main returns as a failure ("Shutdown hook called before final status was reported").
    if (code == 0 && isYarnClusterDriver()) {
      return;
    }
    System.exit(code);
  }

  private static boolean isYarnClusterDriver() {
    return "cluster".equals(System.getProperty("spark.submit.deployMode"))
        && System.getProperty("spark.master", "").startsWith("yarn");
  }

  /**
   * Runs a command and returns its exit code: 0 success, 1 training failed, 2 bad usage (a bad flag
   * or setting, a dataset that cannot be had); 130 is the JVM's own on Ctrl-C.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(Usage.text());
      return args.length == 0 ? 2 : 0;
    }
    if (args[0].equals("--version") || args[0].equals("version")) {
      out.println(Version.text());
      return 0;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      return switch (args[0]) {
        case "train" -> TrainCommand.run(rest, out, err);
        case "report" -> ReportCommand.run(rest, out, err);
        case "export-model" -> ExportModelCommand.run(rest, out, err);
        case "bench" -> Benchmarks.run(rest, out, err);
        default -> {
          err.println("Unknown command '" + args[0] + "'. Run 'dssync help'.");
          yield 2;
        }
      };
    } catch (DsSyncException e) {
      return report(e, err);
    } catch (OutOfMemoryError e) {
      // The command ends here either way: say which heap to raise instead of the JVM's stack trace.
      Runtime rt = Runtime.getRuntime();
      return report(SparkFailures.driverOutOfHeap(rt.maxMemory(), rt.totalMemory() - rt.freeMemory()), err);
    }
  }

  private static int report(DsSyncException e, PrintStream err) {
    err.println("dssync: " + e.getMessage());
    return switch (e.kind()) {
      case CONFIG, DATASET -> 2;
      default -> 1;
    };
  }
}
