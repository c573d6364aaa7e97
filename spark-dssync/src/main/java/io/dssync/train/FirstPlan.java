package io.dssync.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.ScheduleSpec;
import java.time.Duration;
import java.util.stream.IntStream;

/**
 * {@code --schedule auto}'s first plan, made by the ranks of the probing stage themselves, right
 * after their first step's compute: every rank sends the others its probe row and that step's
 * compute time, then runs the same deterministic {@link AutoPlanner} on the same floats, so all
 * ranks agree on the plan without the driver, and the stage's steps, its first included, and its
 * stage-end average already run it. Planned on the driver, the plan applied only from the next
 * stage: the first stage ran random g = 2 across the slow uplinks (on the 3 x 2 testbed 5.7 s
 * against topology's 3.4 s). The driver learns the plan by running {@link #plan} on the rows the
 * ranks report (their probe and first step's compute), so no plan travels; later re-plans stay on
 * the driver, which keeps the re-plan rule's history.
 *
 * @param base the auto spec for the stage's number of ranks
 * @param hosts executor host of every rank
 * @param probed this rank's probe of every pair
 * @param stepsPerStage the fit's steps per stage
 * @param allReduce the fit's all-reduce algorithm, which the candidates are priced for
 * @param crossRack the fit's precision across racks, which they are priced for too
 */
record FirstPlan(ScheduleSpec base, String[] hosts, LinkSample probed, int stepsPerStage,
    AllReduceAlgorithm allReduce, CrossRackPrecision crossRack) {
  /** The message round of the rows, clear of the worker loop's (0, 1) and the probe's (16 on). */
  static final int ROUND = 2;

  /**
   * Swaps rows with every other rank and returns the plan; the same on every rank.
   *
   * @param computeMs this rank's compute time of the stage's first step
   * @param stateBytes bytes one all-reduce of the model averages
   */
  AutoPlanner.Plan agree(Transport transport, float computeMs, long stateBytes, long step, Duration timeout) {
    int n = hosts.length;
    int rank = transport.rank();
    float[][] rows = new float[n][];
    rows[rank] = row(probed, computeMs);
    int[] others = IntStream.range(0, n).filter(r -> r != rank).toArray();
    MessageId id = new MessageId(step, ROUND, 0, 0);
    transport.publish(id, rows[rank], 0, rows[rank].length, others);
    for (int peer : others) {
      rows[peer] = new float[rows[rank].length];
      transport.fetch(peer, id, rows[peer], 0, rows[peer].length, timeout);
    }
    return plan(rows, hosts, base, stateBytes, stepsPerStage, allReduce, crossRack);
  }

  /** One rank's row: its step's compute time, then its latency and its bandwidth to every peer. */
  static float[] row(LinkSample probed, float computeMs) {
    int n = probed.latencyMs().length;
    float[] row = new float[1 + 2 * n];
    row[0] = computeMs;
    for (int p = 0; p < n; p++) {
      row[1 + p] = (float) probed.latencyMs()[p];
      row[1 + n + p] = (float) probed.bandwidthMBps()[p];
    }
    return row;
  }

  /**
   * The plan from every rank's {@link #row}: pure, so each rank (its own row read back as the floats
   * the others received) and the tests get the same. Compute is the ranks' mean in rank order.
   */
  static AutoPlanner.Plan plan(float[][] rows, String[] hosts, ScheduleSpec base, long stateBytes,
      int stepsPerStage, AllReduceAlgorithm allReduce, CrossRackPrecision crossRack) {
    int n = rows.length;
    double[][] latency = new double[n][n];
    double[][] bandwidth = new double[n][n];
    double computeMs = 0;
    for (int r = 0; r < n; r++) {
      computeMs += rows[r][0];
      for (int p = 0; p < n; p++) {
        latency[r][p] = rows[r][1 + p];
        bandwidth[r][p] = rows[r][1 + n + p];
      }
    }
    LinkMeasurements measured = new LinkMeasurements(hosts.clone(), latency, PairReadings.paired(bandwidth));
    return PlannedAllReduce.plan(measured, base, stateBytes, computeMs / n, stepsPerStage, allReduce, crossRack);
  }
}
