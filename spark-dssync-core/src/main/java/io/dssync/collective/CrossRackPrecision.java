package io.dssync.collective;

import java.util.Locale;

/**
 * What averages across racks put on the links between them: a group whose members sit in more than
 * one rack ({@link GroupAllReduce#average} given a reference), or the level across racks of a
 * two-level average ({@link GroupAllReduce#averageInRacks}).
 */
public enum CrossRackPrecision {
  /** The floats themselves, summed in FP32. */
  FP32,
  /**
   * Each value's change since a reference every rank holds alike (the stage's start),
   * rounded to an IEEE half: half the bytes on the uplinks. The owner of a chunk sums the changes
   * in FP32, rounds their mean to halves once more and every member, the owner too, adds those
   * halves to the reference, so every rank still ends with the same floats; they differ from the
   * FP32 average by at most half a unit in the last place of a half of the change (about 1/2048
   * of it).
   */
  FP16;

  /** The value as users write it: "fp32" or "fp16". */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The precision a user wrote (validated before, by the setting). */
  public static CrossRackPrecision ofLabel(String label) {
    return valueOf(label.trim().toUpperCase(Locale.ROOT));
  }
}
