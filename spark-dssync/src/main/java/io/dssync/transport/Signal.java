package io.dssync.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A one-way control message between the ranks of a stage: {@code READY} (sender to reader: the
 * block is stored, fetch it now) or {@code FETCHED} (reader to sender: done, the block may go).
 * Wire form: kind byte, rank int, UTF-8 block name.
 */
record Signal(Kind kind, int rank, String blockName) {
  enum Kind {
    READY,
    FETCHED
  }

  ByteBuffer encode() {
    byte[] name = blockName.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(1 + 4 + name.length);
    buf.put((byte) kind.ordinal()).putInt(rank).put(name).flip();
    return buf;
  }

  /** Reads a message; {@code buf} is only valid during the network callback, so it is copied. */
  static Signal decode(ByteBuffer buf) {
    int kind = buf.get();
    if (kind < 0 || kind >= Kind.values().length) {
      throw new IllegalArgumentException("unknown dssync signal kind " + kind);
    }
    int rank = buf.getInt();
    byte[] name = new byte[buf.remaining()];
    buf.get(name);
    return new Signal(Kind.values()[kind], rank, new String(name, StandardCharsets.UTF_8));
  }
}
