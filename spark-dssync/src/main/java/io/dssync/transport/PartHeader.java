package io.dssync.transport;

import io.dssync.collective.MessageId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What precedes the floats of one pushed part: which inbox it is for (a server port can be reused
 * by a later stage, the inbox id cannot), who sent it, which message, how many floats follow.
 */
record PartHeader(String inboxId, int sender, MessageId id, int floats) {
  ByteBuffer encode() {
    byte[] inbox = inboxId.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(4 + inbox.length + 4 + 8 + 4 * 4 + 4);
    buf.putInt(inbox.length).put(inbox).putInt(sender).putLong(id.step()).putInt(id.round())
        .putInt(id.phase()).putInt(id.chunk()).putInt(id.part()).putInt(floats).flip();
    return buf;
  }

  /** Reads a header; {@code buf} is only valid during the network callback, so nothing refers to it. */
  static PartHeader decode(ByteBuffer buf) {
    String inbox = readInboxId(buf, "part header");
    int sender = buf.getInt();
    MessageId id = new MessageId(buf.getLong(), buf.getInt(), buf.getInt(), buf.getInt(), buf.getInt());
    int floats = buf.getInt();
    if (sender < 0 || floats < 0) {
      throw new IllegalArgumentException("malformed dssync part header (sender " + sender + ", " + floats + " floats)");
    }
    return new PartHeader(inbox, sender, id, floats);
  }

  /** A length-prefixed inbox id, as {@link #encode} writes it; {@code what} names the message for errors. */
  static String readInboxId(ByteBuffer buf, String what) {
    int length = buf.getInt();
    if (length < 0 || length > buf.remaining()) {
      throw new IllegalArgumentException("malformed dssync " + what + " (inbox id of " + length + " bytes)");
    }
    byte[] inbox = new byte[length];
    buf.get(inbox);
    return new String(inbox, StandardCharsets.UTF_8);
  }
}
