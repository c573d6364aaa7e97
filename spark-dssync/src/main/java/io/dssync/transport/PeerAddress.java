package io.dssync.transport;

/**
 * Where rank r of a stage can be reached: its task's data server (host, port) and its inbox, named
 * by a random id. Ranks whose inbox lives in this JVM get their parts by memory copy; the others
 * over the network. Exchanged once per stage with {@code allGather}, never per step.
 */
record PeerAddress(String host, int port, String inboxId) {

  /** One line that {@link #decode} reads back; fields never contain spaces. */
  String encode() {
    return host + " " + port + " " + inboxId;
  }

  static PeerAddress decode(int rank, String line) {
    String[] f = line.trim().split(" ");
    if (f.length != 3) {
      throw new IllegalStateException("rank " + rank + " announced a malformed address: '" + line + "'");
    }
    return new PeerAddress(f[0], Integer.parseInt(f[1]), f[2]);
  }
}
