package io.dssync.transport;

/**
 * Where rank r of a stage can be reached: its task's data server (host, port), its inbox, named by
 * a random id, and its shared-memory folder ({@link #NO_FOLDER} when it has none). Ranks whose inbox
 * lives in this JVM get their parts by memory copy; ranks whose folder this JVM can read, through
 * shared memory; the others over the network. Exchanged once per stage with {@code allGather},
 * never per step.
 */
record PeerAddress(String host, int port, String inboxId, String sharedFolder) {
  static final String NO_FOLDER = "-";

  /** One line that {@link #decode} reads back; fields never contain spaces. */
  String encode() {
    return host + " " + port + " " + inboxId + " " + sharedFolder;
  }

  static PeerAddress decode(int rank, String line) {
    String[] f = line.trim().split(" ");
    if (f.length != 4) {
      throw new IllegalStateException("rank " + rank + " announced a malformed address: '" + line + "'");
    }
    return new PeerAddress(f[0], Integer.parseInt(f[1]), f[2], f[3]);
  }
}
