package io.dssync.bench.simulate;

import io.dssync.launch.CommandFlags;
import io.dssync.bench.BenchMode;
import io.dssync.bench.CsvRows;
import io.dssync.bench.ResultsFolder;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import io.dssync.schedule.RingRule;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code dssync bench simulate}: calibrates the {@link CostModel} from the allreduce (and, when
 * present, train) results, reports its error at every measured point, and predicts step time and
 * consensus speed per schedule for N up to 1024. Needs no Spark.
 */
public final class SimulateBench implements BenchMode {
  static final List<Integer> DEFAULT_WORKERS = List.of(4, 8, 16, 32, 64, 128, 256, 512, 1024);
  /** The all-reduce table's column that names the algorithm its cells ran. */
  static final String ALL_REDUCE_COLUMN = "all_reduce";
  private static final Set<String> FLAGS = Set.of("--out", "--allreduce-csv", "--train-csv", "--workers",
      "--group-size", "--global-every", "--racks", "--inter-rack-MBps", "--inter-rack-latency-ms", "--state-floats",
      "--compute-ms", "--dimension", "--trials", "--seed", "--cross-rack-period", "--steps-per-stage", "--all-reduce");

  @Override
  public String name() {
    return "simulate";
  }

  @Override
  public String summary() {
    return "cost model calibrated from allreduce/train: step time and consensus per schedule up to N=1024";
  }

  @Override
  public String usage() {
    return """
        Usage: dssync bench simulate [flags]
          --out DIR                 results folder: reads DIR/allreduce/allreduce.csv and, if present,
                                    DIR/train/runs.csv; writes DIR/simulate/ (default bench-results)
          --allreduce-csv FILE      calibration all-reduce table (default DIR/allreduce/allreduce.csv)
          --train-csv FILE          measured training runs (default DIR/train/runs.csv; optional)
          --workers LIST            N to predict for (default 4,8,16,...,1024)
          --group-size G            g of the random, butterfly and group+global schedules (default 4)
          --global-every H          H of local SGD and of group + global average (default 8)
          --racks R                 racks of equal size, consecutive ranks (default 2); all-reduce cells whose
                                    groups span racks calibrate the uplink, the others the in-rack link
          --inter-rack-MBps X       each rack's uplink (default: calibrated, else the in-rack bandwidth / 10)
          --inter-rack-latency-ms X per-message latency between racks (default: calibrated, else in-rack)
          --cross-rack-period C     C of the topology predictions (default 4); auto is predicted as well
          --all-reduce A            auto, direct or ring: how groups of three or more average in the
                                    predictions, as train's --all-reduce (default auto: the ring, since
                                    every worker has a host of its own here); a train run whose
                                    configuration ends in -direct or -ring is predicted with that one
          --state-floats S          model size in floats (default: median of the train runs, else 1000000)
          --compute-ms C            compute ms per step (default: median of the train runs, else 100)
          --steps-per-stage S       the last step of every S does not average (the stage-end average of
                                    all ranks stands in for it); default: the train runs' S when they
                                    agree, else every step averages
          --dimension D, --trials K, --seed X   consensus simulation (default 8, 3, 42)
        Writes simulate.csv (prediction error at every measured point), calibration.csv,
        predictions.csv, PNG charts and summary.md.
        """;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    CommandFlags flags = CommandFlags.parse(args, FLAGS);
    Path root = flags.path("--out", "bench-results");
    Path allReduceCsv = flags.path("--allreduce-csv", root.resolve("allreduce").resolve("allreduce.csv").toString());
    Path trainCsv = flags.path("--train-csv", root.resolve("train").resolve("runs.csv").toString());
    List<String> notes = new ArrayList<>();
    List<TrainRunPoint> runs = new ArrayList<>();
    if (Files.isRegularFile(trainCsv)) {
      List<String> skipped = new ArrayList<>();
      runs.addAll(TrainRunPoint.read(CsvRows.read(trainCsv), skipped));
      notes.add("Train runs read from `" + trainCsv + "`: " + runs.size() + " used" + (skipped.isEmpty() ? ""
          : "; skipped " + String.join("; ", skipped)) + ".");
    } else {
      notes.add("No train results at `" + trainCsv + "`: latency and bandwidth are calibrated from the all-reduce"
          + " table alone, compute time and model size come from --compute-ms / --state-floats (or their"
          + " defaults), and there are no measured step times to check the predictions against.");
    }
    SimulateSettings settings = SimulateSettings.from(flags, runs);
    if (!Files.isRegularFile(allReduceCsv)) {
      throw Errors.invalidSetting("--allreduce-csv", allReduceCsv, "the file does not exist",
          "Run 'dssync bench allreduce --out " + root + "' first, or pass the file with --allreduce-csv.");
    }
    Map<String, RackCalibration.Links> fits = fitPerNetwork(CsvRows.read(allReduceCsv), settings.racks());
    ResultsFolder folder = ResultsFolder.create(root, name(), "dssync bench simulate " + String.join(" ", args));
    Path summary = SimulateReport.write(folder, settings, fits, CsvRows.read(allReduceCsv), runs, notes);
    out.println("dssync bench simulate: wrote " + summary);
    fits.forEach((network, links) -> out.printf(Locale.ROOT,
        "  %s: in-rack latency %.3f ms, bandwidth %.1f MB/s (%d points); uplink %s%n", network,
        links.inRack().latencyMs(), links.inRack().bandwidthMBps(), links.inRack().points(),
        links.crossCells() == 0 ? "not measured (no cell crossed racks)" : String.format(Locale.ROOT,
            "%.2f MB/s, latency %.1f ms, %s (%d cross-rack points)", links.uplinkMBps(), links.interRackLatencyMs(),
            Double.isInfinite(links.uplinkQueueMB()) ? "every byte at that rate" : String.format(Locale.ROOT,
                "%.1f MB of a phase at that rate, the rest at %.0f%% of it", links.uplinkQueueMB(),
                100 * links.uplinkOverflowShare()), links.crossCells())));
    return 0;
  }

  /** One calibration (in-rack link, and the uplink when cells crossed racks) per network label. */
  static Map<String, RackCalibration.Links> fitPerNetwork(CsvRows csv, int racks) {
    Map<String, List<RackCalibration.Cell>> byNetwork = new LinkedHashMap<>();
    for (int r = 0; r < csv.size(); r++) {
      byNetwork.computeIfAbsent(csv.text(r, "network"), k -> new ArrayList<>()).add(cell(csv, r));
    }
    if (byNetwork.isEmpty()) {
      throw DataErrors.badRecord("all-reduce table", "it has no rows", "Rerun dssync bench allreduce.");
    }
    Map<String, RackCalibration.Links> fits = new LinkedHashMap<>();
    byNetwork.forEach((network, cells) -> fits.put(network, RackCalibration.calibrate(cells, racks)));
    return fits;
  }

  /**
   * Row {@code r} of the all-reduce table, priced for the all-reduce its {@code all_reduce} column
   * names; a table without that column comes from a build that averaged every group directly.
   */
  static RackCalibration.Cell cell(CsvRows csv, int r) {
    RingRule measuredWith = RingRule.DIRECT;
    if (csv.hasColumn(ALL_REDUCE_COLUMN)) {
      String named = csv.text(r, ALL_REDUCE_COLUMN).trim();
      measuredWith = Arrays.stream(RingRule.values()).filter(rule -> rule.label().equals(named)).findFirst()
          .orElseThrow(() -> DataErrors.badRecord("all-reduce table", "row " + (r + 2) + " names all-reduce '" + named
              + "', none of auto, direct, ring", "Rerun dssync bench allreduce, which writes the column."));
    }
    return new RackCalibration.Cell((int) csv.number(r, "workers"), (int) csv.number(r, "group_size"),
        (long) csv.number(r, "bytes"), csv.number(r, "time_ms_median"), measuredWith);
  }
}
