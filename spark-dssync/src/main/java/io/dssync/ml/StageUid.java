package io.dssync.ml;

/**
 * Carries a stage's uid into Spark's superclass constructor. Spark's Scala traits create their params
 * (featuresCol, thresholds, ...) while the superclass is constructed, reading {@code uid()} to name each param's
 * owner, before a Java subclass can assign a field; a param owned by the wrong uid is refused when set. So the
 * constructor parks the uid here first and {@code uid()} reads it until the field is assigned.
 */
final class StageUid {
  private static final ThreadLocal<String> PARKED = new ThreadLocal<>();

  private StageUid() {}

  /** Parks {@code uid} for the constructor about to run on this thread; returns the token it takes. */
  static Parked park(String uid) {
    PARKED.set(uid);
    return new Parked(uid);
  }

  /** The uid being constructed on this thread (for {@code uid()} while the field is not yet set). */
  static String parked() {
    return PARKED.get();
  }

  /** The parked uid, handed to the constructor's body, which assigns it and clears the thread's slot. */
  record Parked(String uid) {
    String take() {
      PARKED.remove();
      return uid;
    }
  }
}
