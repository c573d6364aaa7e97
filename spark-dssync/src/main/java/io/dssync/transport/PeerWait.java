package io.dssync.transport;

import io.dssync.collective.MessageId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a rank's task is waiting for, as it answers a peer that gave up waiting for it: nothing
 * ({@link State#IDLE}: it is busy in its own work, or stuck there), a part from another rank
 * ({@link State#WAITING}), or a part it gave up on ({@link State#GAVE_UP}). With
 * {@code acknowledgement} the wait is at the end of a stage, for another rank's acknowledgement of
 * a part this one sent ({@code sender} is then that reader). Following these answers from rank to
 * rank leads a timeout error to the rank that holds everyone up, rather than to whichever of its
 * waiters the stage happened to hear from first.
 */
record PeerWait(State state, int sender, MessageId id, long sinceNanos, long waitedMs, boolean acknowledgement) {
  enum State { IDLE, WAITING, GAVE_UP }

  /** First byte of a wait query's RPC ({@link InlinePart#KIND} is the other kind). */
  static final byte QUERY_KIND = 3;

  static final PeerWait IDLE = new PeerWait(State.IDLE, -1, null, 0, 0, false);

  /** Waiting since {@code sinceNanos} ({@link System#nanoTime}) for part {@code id} from {@code sender}. */
  static PeerWait waiting(int sender, MessageId id, long sinceNanos) {
    return new PeerWait(State.WAITING, sender, id, sinceNanos, 0, false);
  }

  /** Waiting since {@code sinceNanos} for rank {@code reader} to acknowledge part {@code id}. */
  static PeerWait acknowledging(int reader, MessageId id, long sinceNanos) {
    return new PeerWait(State.WAITING, reader, id, sinceNanos, 0, true);
  }

  PeerWait gaveUp() {
    return new PeerWait(State.GAVE_UP, sender, id, sinceNanos, (System.nanoTime() - sinceNanos) / 1_000_000,
        acknowledgement);
  }

  /** The question to the rank whose inbox is {@code inboxId}: what are you waiting for? */
  static ByteBuffer query(String inboxId) {
    byte[] inbox = inboxId.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(1 + 4 + inbox.length);
    buf.put(QUERY_KIND).putInt(inbox.length).put(inbox).flip();
    return buf;
  }

  /** The inbox id of a query, after its kind byte. */
  static String queriedInbox(ByteBuffer buf) {
    return PartHeader.readInboxId(buf, "wait query");
  }

  /** The answer, with the time waited so far for a wait still going on. */
  ByteBuffer encode() {
    ByteBuffer buf = ByteBuffer.allocate(1 + 4 + 8 + 4 * 4 + 8 + 1);
    MessageId m = id == null ? new MessageId(0, 0, 0, 0) : id;
    long ms = state == State.WAITING ? (System.nanoTime() - sinceNanos) / 1_000_000 : waitedMs;
    buf.put((byte) state.ordinal()).putInt(sender).putLong(m.step()).putInt(m.round()).putInt(m.phase())
        .putInt(m.chunk()).putInt(m.part()).putLong(ms).put((byte) (acknowledgement ? 1 : 0)).flip();
    return buf;
  }

  static PeerWait decode(ByteBuffer buf) {
    int state = buf.get();
    if (state < 0 || state >= State.values().length) {
      throw new IllegalArgumentException("malformed dssync wait answer (state " + state + ")");
    }
    int sender = buf.getInt();
    MessageId id = new MessageId(buf.getLong(), buf.getInt(), buf.getInt(), buf.getInt(), buf.getInt());
    long waitedMs = buf.getLong();
    return new PeerWait(State.values()[state], sender, id, 0, waitedMs, buf.get() != 0);
  }

  /** For a timeout error: what rank {@code rank} answered, in a clause. */
  String describe(int rank) {
    if (state == State.IDLE) {
      return "rank " + rank + " is not waiting for any peer (it is busy or stuck in its own work)";
    }
    String what = acknowledgement
        ? "the acknowledgement of " + id.describe() + " by rank " + sender
        : id.describe() + " from rank " + sender;
    return state == State.WAITING
        ? String.format(Locale.ROOT, "rank %d has waited %d ms at step %d for %s", rank, waitedMs, id.step(), what)
        : String.format(Locale.ROOT, "rank %d gave up after %d ms at step %d waiting for %s", rank, waitedMs,
            id.step(), what);
  }

  /** For a timeout error: a rank that did not answer the question in time. */
  static String silent(int rank, long budgetMs) {
    return "rank " + rank + " did not answer within " + budgetMs + " ms (its task or executor may be gone)";
  }
}
