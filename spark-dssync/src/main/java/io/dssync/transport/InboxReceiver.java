package io.dssync.transport;

import java.nio.ByteBuffer;
import org.apache.spark.network.client.StreamCallbackWithID;

/** What a task's {@link DataChannel} does with what arrives for its inbox: parts, and questions about its waits. */
final class InboxReceiver implements DataChannel.Receiver {
  private final Inbox inbox;

  InboxReceiver(Inbox inbox) {
    this.inbox = inbox;
  }

  @Override
  public StreamCallbackWithID open(PartHeader header) {
    return NetworkRoute.receive(inbox, header);
  }

  @Override
  public void landInline(PartHeader header, ByteBuffer floats) {
    inbox.checkAddressedTo(header);
    inbox.fillWhole(header.sender(), header.id(), header.floats(), floats);
  }

  @Override
  public PeerWait peerWait(String inboxId) {
    inbox.checkAddressedTo(inboxId);
    return inbox.peerWait();
  }
}
