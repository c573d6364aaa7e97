package io.dssync.errors;

/** What went wrong, coarsely, so callers can branch without parsing messages. */
public enum ErrorKind {
  /** A setting is out of range or inconsistent with another one or with the cluster. */
  CONFIG,
  /** A training or evaluation record is malformed (shape, NaN, label range, empty partition). */
  DATA,
  /** A dataset is not cached and could not be fetched or verified. */
  DATASET,
  /** A peer did not deliver its part of a group all-reduce before the deadline. */
  SYNC_TIMEOUT,
  /** The transport failed (peer unreachable, fetch failed). */
  TRANSPORT,
  /** Training produced a non-finite loss. */
  DIVERGED,
  /** The model engine failed (native library, shapes). */
  ENGINE,
  /** A barrier stage failed for a reason that is not one of the above. */
  STAGE_FAILED,
  /** The thread that called fit was interrupted (a notebook's stop button): training stopped on purpose. */
  INTERRUPTED,
  /** A user's {@code StageCallback} threw: the fit ends after the stage it was called for. */
  CALLBACK
}
