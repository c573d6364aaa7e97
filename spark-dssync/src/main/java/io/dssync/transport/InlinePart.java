package io.dssync.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A small part sent whole as one RPC, header and floats together (the reply acknowledges it). A
 * stream upload costs a few ms more per part than an RPC on a busy machine, which only large parts
 * can repay by not being assembled in memory.
 */
final class InlinePart {
  /** First byte of the RPC ({@link PeerWait#QUERY_KIND} is the other kind). */
  static final byte KIND = 2;
  /** Parts up to this size travel inline; larger ones are streamed. */
  static final int MAX_BYTES = 64 * 1024;

  private InlinePart() {}

  static boolean fits(int floats) {
    return FloatCodec.byteSize(floats) <= MAX_BYTES;
  }

  /** The RPC: kind, header, then {@code data[offset, offset+length)} little-endian. */
  static ByteBuffer encode(PartHeader header, float[] data, int offset, int length) {
    ByteBuffer head = header.encode();
    ByteBuffer buf = ByteBuffer.allocate(1 + head.remaining() + FloatCodec.byteSize(length));
    buf.put(KIND).put(head);
    buf.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(data, offset, length);
    return buf.position(buf.capacity()).flip();
  }
}
