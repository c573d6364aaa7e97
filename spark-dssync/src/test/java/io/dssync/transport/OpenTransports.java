package io.dssync.transport;

/** For tests in any package: how many transports are open in this JVM (none may outlive its stage). */
public final class OpenTransports {
  private OpenTransports() {}

  public static int inThisJvm() {
    return SameJvmRoute.open();
  }
}
