package io.dssync.cli;

import io.dssync.errors.Errors;
import io.dssync.metrics.MetricsRun;
import io.dssync.metrics.Report;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** {@code dssync report [--out DIR] RUN...}: PNG charts and an HTML page from metrics files. */
final class ReportCommand {
  static final String USAGE = """
      Usage: dssync report [--out DIR] RUN.jsonl [RUN.jsonl ...]

      Renders the metrics files written by 'dssync train --metrics-out FILE' (or the Spark ML
      param metricsPath) as PNG charts and DIR/index.html (default DIR: dssync-report). Several
      runs share each chart, for comparisons. Paths may be on any Hadoop file system.
        loss_vs_step.png, loss_vs_time.png          training loss (moving average of 10 steps)
        <metric>_vs_step.png, <metric>_vs_time.png  the task's validation metric per evaluated stage:
                                                    accuracy, masked_accuracy or auc (metric_vs_*
                                                    when the runs' metrics differ), named on the axis
        sync_share_vs_step.png                      share of each step spent synchronizing
      """;

  private ReportCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    String outDir = "dssync-report";
    List<String> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--help", "-h" -> {
          out.print(USAGE);
          return 0;
        }
        case "--out" -> {
          if (i + 1 >= args.length) {
            throw Errors.invalidSetting("--out", "(nothing)", "a flag needs a value", "Write --out DIR.");
          }
          outDir = args[++i];
        }
        default -> {
          if (args[i].startsWith("--out=")) {
            outDir = args[i].substring("--out=".length());
          } else if (args[i].startsWith("--")) {
            throw Errors.unknownName("report flag", args[i], new Object[] {"--out", "--help"});
          } else {
            files.add(args[i]);
          }
        }
      }
    }
    // Rendering PNGs needs no display.
    System.setProperty("java.awt.headless", "true");
    Configuration hadoop = new Configuration();
    List<MetricsRun> runs = new ArrayList<>();
    for (String f : files) {
      runs.add(MetricsRun.read(f, hadoop));
    }
    for (String written : Report.render(runs, outDir, hadoop)) {
      out.println(written);
    }
    return 0;
  }
}
