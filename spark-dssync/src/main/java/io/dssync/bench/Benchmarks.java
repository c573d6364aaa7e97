package io.dssync.bench;

import io.dssync.bench.allreduce.AllReduceBench;
import io.dssync.bench.peer.PeerBench;
import io.dssync.bench.simulate.SimulateBench;
import io.dssync.bench.train.TrainBench;
import io.dssync.errors.Errors;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** The registry of {@code dssync bench} modes. To add one, implement {@link BenchMode} and list it here. */
public final class Benchmarks {
  private static final Map<String, BenchMode> MODES = new LinkedHashMap<>();

  static {
    // Each mode registers itself here, in the order help lists them.
    register(new TrainBench());
    register(new PeerBench());
    register(new AllReduceBench());
    register(new SimulateBench());
  }

  private Benchmarks() {}

  static void register(BenchMode mode) {
    MODES.put(mode.name(), mode);
  }

  public static String usage() {
    StringBuilder sb = new StringBuilder(
        "Usage: dssync bench MODE [flags]   (dssync bench MODE --help for its flags)\n");
    for (BenchMode m : MODES.values()) {
      sb.append(String.format("  %-12s %s%n", m.name(), m.summary()));
    }
    return sb.toString();
  }

  /** Runs {@code args[0]} with the remaining flags. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
      out.print(usage());
      return args.length == 0 ? 2 : 0;
    }
    BenchMode mode = MODES.get(args[0]);
    if (mode == null) {
      throw Errors.unknownName("bench mode", args[0], MODES.keySet().toArray());
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (Arrays.asList(rest).contains("--help")) {
      out.print(mode.usage());
      return 0;
    }
    return mode.run(rest, out, err);
  }
}
