package io.dssync.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a sender tells a same-host reader instead of streaming the floats: the part's header and the
 * shared-memory file that holds them ({@link SharedMemoryFolder}). Sent over the reader's notice
 * socket ({@link HostSignals}); the reader's answer is the acknowledgement, after which the sender may
 * reuse the file.
 */
record SharedPartNotice(PartHeader header, String file) {
  /**
   * First byte of the encoded notice (distinct from the RPC kinds {@link InlinePart#KIND},
   * {@link PeerWait#QUERY_KIND}).
   */
  static final byte KIND = 1;

  ByteBuffer encode() {
    ByteBuffer head = header.encode();
    byte[] path = file.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(1 + 4 + head.remaining() + 4 + path.length);
    buf.put(KIND).putInt(head.remaining()).put(head).putInt(path.length).put(path).flip();
    return buf;
  }

  /**
   * Reads a notice after its kind byte; {@code buf} is reused once the notice is landed, so
   * nothing refers to it.
   */
  static SharedPartNotice decode(ByteBuffer buf) {
    int headLength = buf.getInt();
    if (headLength < 0 || headLength > buf.remaining()) {
      throw new IllegalArgumentException("malformed dssync shared-part notice (header of " + headLength + " bytes)");
    }
    ByteBuffer head = buf.slice(buf.position(), headLength);
    buf.position(buf.position() + headLength);
    PartHeader header = PartHeader.decode(head);
    int pathLength = buf.getInt();
    if (pathLength <= 0 || pathLength > buf.remaining()) {
      throw new IllegalArgumentException("malformed dssync shared-part notice (path of " + pathLength + " bytes)");
    }
    byte[] path = new byte[pathLength];
    buf.get(path);
    return new SharedPartNotice(header, new String(path, StandardCharsets.UTF_8));
  }
}
