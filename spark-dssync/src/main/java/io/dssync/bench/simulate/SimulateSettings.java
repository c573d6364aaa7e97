package io.dssync.bench.simulate;

import io.dssync.launch.CommandFlags;
import io.dssync.bench.allreduce.AllReduceRow;
import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.schedule.RingRule;
import io.dssync.train.PlannedAllReduce;
import java.util.List;

/**
 * The simulate mode's validated settings. Compute time and model size default to the medians of
 * the measured train runs (so predictions describe the workload that was measured), else to fixed
 * defaults; inter-rack link settings are relative to each network's fitted link unless given.
 * Steps per stage (whose last step does not average) come from --steps-per-stage, else from the
 * train runs when they agree, else 0: every step averages. The all-reduce (--all-reduce, as train's)
 * is the one the predictions assume.
 */
record SimulateSettings(List<Integer> workers, int groupSize, int globalEvery, int racks, double interRackMBps,
    double interRackLatencyMs, long stateFloats, double computeMs, String computeSource, int dimension,
    int trials, long seed, int crossRackPeriod, int stepsPerStage, RingRule allReduce) {
  static final long DEFAULT_STATE_FLOATS = 1_000_000;
  static final double DEFAULT_COMPUTE_MS = 100;
  /** Without a measured inter-rack link, the uplink is this many times slower than a worker's link. */
  static final double DEFAULT_INTER_RACK_SLOWDOWN = 10;

  static SimulateSettings from(CommandFlags flags, List<TrainRunPoint> runs) {
    List<Integer> workers = flags.integers("--workers", SimulateBench.DEFAULT_WORKERS, 1, 4096);
    int g = flags.integer("--group-size", 4, 2, 4096);
    int h = flags.integer("--global-every", 8, 1, 1_000_000);
    int racks = flags.integer("--racks", 2, 1, 4096);
    double interRackMBps = flags.number("--inter-rack-MBps", Double.NaN, 0);
    double interRackLatency = flags.has("--inter-rack-latency-ms")
        ? flags.nonNegative("--inter-rack-latency-ms", 0) : Double.NaN;
    double[] states = runs.stream().mapToDouble(TrainRunPoint::stateFloats).toArray();
    double[] computes = runs.stream().mapToDouble(TrainRunPoint::computeMsPerStep).toArray();
    long stateFloats = flags.has("--state-floats") ? flags.integer("--state-floats", 0, 1, Integer.MAX_VALUE)
        : states.length > 0 ? (long) AllReduceRow.median(states) : DEFAULT_STATE_FLOATS;
    String computeSource;
    double computeMs;
    if (flags.has("--compute-ms")) {
      computeMs = flags.nonNegative("--compute-ms", DEFAULT_COMPUTE_MS);
      computeSource = "--compute-ms";
    } else if (computes.length > 0) {
      computeMs = AllReduceRow.median(computes);
      computeSource = "median of " + computes.length + " train runs";
    } else {
      computeMs = DEFAULT_COMPUTE_MS;
      computeSource = "default (no train runs)";
    }
    return new SimulateSettings(workers, g, h, racks, interRackMBps, interRackLatency, stateFloats, computeMs,
        computeSource, flags.integer("--dimension", 8, 1, 1024), flags.integer("--trials", 3, 1, 1000),
        flags.integer("--seed", 42, 0, Integer.MAX_VALUE),
        flags.integer("--cross-rack-period", io.dssync.schedule.ScheduleSpec.DEFAULT_CROSS_RACK_PERIOD, 1, 1_000_000),
        flags.has("--steps-per-stage") ? flags.integer("--steps-per-stage", 0, 1, 1_000_000) : stepsPerStage(runs),
        allReduce(flags));
  }

  /** --all-reduce, parsed as train's is. */
  private static RingRule allReduce(CommandFlags flags) {
    return PlannedAllReduce.ringRule(AllReduceAlgorithm.parse("--all-reduce", flags.string("--all-reduce", "auto")));
  }

  /** The train runs' steps per stage when they all recorded the same, else 0 (every step averages). */
  private static int stepsPerStage(List<TrainRunPoint> runs) {
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    runs.forEach(r -> seen.add(r.stepsPerStage()));
    return seen.size() == 1 ? seen.iterator().next() : 0;
  }

  /** The cost model of the predictions for a network's calibrated links; flags override the uplink. */
  CostModel model(RackCalibration.Links links) {
    CostModelFit.Fit fit = links.inRack();
    boolean measured = links.crossCells() > 0;
    double uplink = !Double.isNaN(interRackMBps) ? interRackMBps
        : measured ? links.uplinkMBps() : fit.bandwidthMBps() / DEFAULT_INTER_RACK_SLOWDOWN;
    double latency = !Double.isNaN(interRackLatencyMs) ? interRackLatencyMs
        : measured ? links.interRackLatencyMs() : fit.latencyMs();
    // The queue and overflow share describe the measured uplink; an uplink given by flag is a plain link.
    boolean calibratedUplink = measured && Double.isNaN(interRackMBps);
    return new CostModel(computeMs, fit.latencyMs(), fit.bandwidthMBps(), racks, latency, uplink,
        calibratedUplink ? links.uplinkQueueMB() : Double.POSITIVE_INFINITY,
        calibratedUplink ? links.uplinkOverflowShare() : 1, allReduce);
  }

  long stateBytes() {
    return stateFloats * Float.BYTES;
  }
}
