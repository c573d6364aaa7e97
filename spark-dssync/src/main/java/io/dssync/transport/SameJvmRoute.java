package io.dssync.transport;

import io.dssync.collective.MessageId;
import io.dssync.errors.ClusterErrors;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The route between tasks of one JVM (every rank of {@code local[N]}, tasks sharing an executor): the inboxes of
 * this JVM's open transports, by inbox id, and the hand-over that copies a part straight into a reader's inbox,
 * nothing serialized.
 */
final class SameJvmRoute {
  private static final ConcurrentHashMap<String, Inbox> OPEN = new ConcurrentHashMap<>();

  private SameJvmRoute() {}

  static void register(Inbox inbox) {
    OPEN.put(inbox.id(), inbox);
  }

  static void unregister(Inbox inbox) {
    OPEN.remove(inbox.id());
  }

  /** The inbox of the transport with {@code inboxId} if it is open in this JVM, else null. */
  static Inbox find(String inboxId) {
    return OPEN.get(inboxId);
  }

  /** How many transports are open in this JVM: none may outlive its stage. */
  static int open() {
    return OPEN.size();
  }

  /** Copies the part of {@code sender} into {@code reader}, rank {@code readerRank}, through its landing. */
  static void hand(Inbox reader, int sender, int readerRank, MessageId id, float[] data, int offset, int length) {
    Inbox.Parcel parcel;
    try {
      parcel = reader.startFilling(sender, id, length);
    } catch (IllegalStateException e) {
      throw ClusterErrors.transportFailure(sender, readerRank, id.step(), "hand " + id.describe() + " to", e);
    }
    parcel.landing.apply(data, offset, parcel.floats, parcel.offset, length);
    reader.finish(parcel);
  }
}
