package io.dssync.transport;

/**
 * Where one rank of a stage can be reached: its executor's block manager (data plane) and its
 * task's signal server (readiness and release messages). Exchanged once per stage with {@code
 * allGather}, never per step.
 */
record PeerAddress(String executorId, String blockHost, int blockPort, String signalHost, int signalPort) {

  /** One line that {@link #decode} reads back; fields never contain spaces. */
  String encode() {
    return executorId + " " + blockHost + " " + blockPort + " " + signalHost + " " + signalPort;
  }

  static PeerAddress decode(int rank, String line) {
    String[] f = line.trim().split(" ");
    if (f.length != 5) {
      throw new IllegalStateException("rank " + rank + " announced a malformed address: '" + line + "'");
    }
    return new PeerAddress(f[0], f[1], Integer.parseInt(f[2]), f[3], Integer.parseInt(f[4]));
  }
}
