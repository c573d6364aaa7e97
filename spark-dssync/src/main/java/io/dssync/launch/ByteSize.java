package io.dssync.launch;

/** Byte counts as people read them in tables: 4K, 64M, 1G (binary units). */
public final class ByteSize {
  private ByteSize() {}

  public static String label(long bytes) {
    if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "G";
    }
    if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
      return (bytes >> 20) + "M";
    }
    if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
      return (bytes >> 10) + "K";
    }
    return Long.toString(bytes);
  }
}
