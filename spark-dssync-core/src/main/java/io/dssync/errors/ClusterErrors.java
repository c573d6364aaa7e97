package io.dssync.errors;

import java.util.Arrays;
import java.util.List;

/**
 * Errors of the cluster and the data plane: peers that do not deliver, lost slots, a master that refuses.
 */
public final class ClusterErrors {
  private ClusterErrors() {}

  /**
   * Rank {@code rank} waited for {@code what} from rank {@code peer} at step {@code step} and it did
   * not arrive within {@code timeoutMs}.
   */
  public static DsSyncException peerTimeout(int rank, int peer, long step, String what, long timeoutMs) {
    return peerTimeout(rank, peer, step, what, timeoutMs, List.of());
  }

  /**
   * Like {@link #peerTimeout(int, int, long, String, long)}, with what the silent peer said it was
   * doing, and the rank it waits for in turn, and so on ({@code chain}: one clause per rank).
   */
  public static DsSyncException peerTimeout(int rank, int peer, long step, String what, long timeoutMs,
      List<String> chain) {
    String waited = "Rank " + rank + " waited " + timeoutMs + " ms at step " + step + " for " + what
        + " from rank " + peer + ", which did not arrive.";
    String fix = " raise " + Errors.flag("syncTimeoutMs") + " if it is only slow.";
    return new DsSyncException(ErrorKind.SYNC_TIMEOUT, chain.isEmpty()
        ? waited + " The peer is slow, stuck or lost;" + fix
        : waited + " Behind it: " + String.join("; ", chain) + ". The last rank named is slow, stuck or lost;" + fix);
  }

  /** Rank {@code rank} could not learn its peers' addresses at the start of a stage. */
  public static DsSyncException rendezvousFailure(int rank, Throwable cause) {
    return new DsSyncException(
        ErrorKind.TRANSPORT,
        "Rank " + rank + " could not exchange addresses with the other tasks of its barrier stage: "
            + cause.getMessage(),
        cause);
  }

  public static DsSyncException transportFailure(int rank, int peer, long step, String what, Throwable cause) {
    return new DsSyncException(
        ErrorKind.TRANSPORT,
        "Rank " + rank + " failed to " + what + " rank " + peer + " at step " + step + ": "
            + cause.getMessage(),
        cause);
  }

  /** A running stage lost executors: it needs {@code needed} slots and the cluster offered {@code available}. */
  public static DsSyncException slotsLost(int needed, int available, long waitedMs) {
    return new DsSyncException(
        ErrorKind.STAGE_FAILED,
        "The stage needs " + needed + " task slots but the cluster has offered only " + available + " for "
            + waitedMs + " ms (executors were lost); it was cancelled and is retried from the last consensus."
            + " Add executors, or allow fewer workers with --min-workers.");
  }

  /**
   * Rank {@code rank} was asked to average in {@code group}, which does not contain it: every
   * worker must pass the group the schedule gives its own rank.
   */
  public static DsSyncException notInGroup(int rank, int[] group) {
    return new DsSyncException(
        ErrorKind.CONFIG,
        "Rank " + rank + " is not a member of group " + Arrays.toString(group)
            + ". Pass the group that GroupSchedule.groupOf(rank, step) returns for this rank.");
  }

  /**
   * The standalone master at {@code masterUrl} refused or did not answer this application's first
   * RPC; {@code authenticated} says whether the application offered a secret.
   */
  public static DsSyncException masterRefused(String masterUrl, boolean authenticated, String reason) {
    String fix = authenticated
        ? "Check the master URL and that the master runs; the secret (DSSYNC_AUTH_SECRET_FILE) must be the one"
            + " its daemons use (<cluster dir>/auth/secret of standalone-cluster with DSSYNC_CLUSTER_AUTH=1)."
        : "Check the master URL and that the master runs. A cluster started with authentication"
            + " (standalone-cluster with DSSYNC_CLUSTER_AUTH=1) accepts only applications submitted with"
            + " dssync-submit --auth and DSSYNC_AUTH_SECRET_FILE set to its secret.";
    return new DsSyncException(ErrorKind.CONFIG, "The standalone master " + masterUrl
        + " did not accept this application (" + (authenticated ? "with" : "without") + " authentication): "
        + reason + ". " + fix);
  }
}
