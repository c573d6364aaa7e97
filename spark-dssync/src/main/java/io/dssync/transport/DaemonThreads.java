package io.dssync.transport;

import java.util.concurrent.ThreadFactory;

/** Threads of the transport's background work: daemons, so none keeps an executor JVM alive. */
final class DaemonThreads {
  private DaemonThreads() {}

  static ThreadFactory named(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
