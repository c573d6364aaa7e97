package io.dssync.models;

import java.io.Serializable;

/**
 * The bytes of a TorchScript file, where a replica can read them: in the object itself, or (on a cluster)
 * behind a Spark broadcast, so that the file is read once on the driver and each executor fetches it once.
 */
public interface ScriptBytes extends Serializable {
  byte[] get();

  /** Bytes carried in the object itself (tests, local use, and what a broadcast is made from). */
  static ScriptBytes of(byte[] bytes) {
    return new Inline(bytes);
  }

  /** Bytes carried in the object itself. */
  record Inline(byte[] bytes) implements ScriptBytes {
    @Override
    public byte[] get() {
      return bytes;
    }
  }
}
