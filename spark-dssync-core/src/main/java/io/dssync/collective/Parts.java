package io.dssync.collective;

/**
 * How the all-reduce algorithms cut a vector: into g chunks ({@link Chunking}), each chunk into parts that
 * travel as one message, so that the sum of one part overlaps the transfer of the next.
 */
public final class Parts {
  /**
   * Floats per part (4 MiB): large enough that per-message costs and thread hand-offs (a wake-up
   * per part, which costs milliseconds on a busy machine) vanish against the bytes, small enough
   * that the sum of one part overlaps the transfer of the next.
   */
  public static final int PART_FLOATS = 1 << 20;
  /**
   * The ring cuts each chunk into about this many parts: a chunk's last part is the ring's tail
   * (it must arrive whole before it moves on), so its parts are smaller than the direct
   * algorithm's, within [{@link #RING_MIN_PART_FLOATS}, {@link #PART_FLOATS}].
   */
  static final int RING_PARTS_PER_CHUNK = 8;
  /** 64 KiB: a part this small still travels whole in one message. */
  static final int RING_MIN_PART_FLOATS = 1 << 14;

  private Parts() {}

  /** What to do with one part of one chunk: part p, where it sits. */
  interface ChunkPartAction {
    void at(int p, int offset, int length);
  }

  /** Every part (of {@code partFloats} floats) of chunk {@code j} of {@code vector[base, base+size)} in g chunks. */
  static void forEachPart(int size, int g, int j, int base, int partFloats, ChunkPartAction action) {
    int chunkLength = Chunking.length(size, g, j);
    int chunkOffset = base + Chunking.offset(size, g, j);
    for (int p = 0, offset = 0; offset < chunkLength; p++, offset += partFloats) {
      action.at(p, chunkOffset + offset, Math.min(partFloats, chunkLength - offset));
    }
  }

  /** The ring's part length for a vector of {@code size} floats in g chunks (the same on every member). */
  static int ringPartFloats(int size, int g) {
    int parts = (Chunking.length(size, g, 0) + RING_PARTS_PER_CHUNK - 1) / RING_PARTS_PER_CHUNK;
    return Math.max(RING_MIN_PART_FLOATS, Math.min(PART_FLOATS, parts));
  }

  /** What to do with one part of another member's chunk: member index j, part p, where it sits. */
  interface PartAction {
    void at(int j, int p, int offset, int length);
  }

  /** Every part of every other member's chunk, starting with the next member (as they send). */
  static void forEachOtherPart(int[] group, int me, int base, int size, PartAction action) {
    int g = group.length;
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      forEachPart(size, g, j, base, PART_FLOATS, (p, offset, length) -> action.at(j, p, offset, length));
    }
  }

  /** Parts of a chunk of {@code length} floats (0 for an empty chunk). */
  static int parts(int length) {
    return (length + PART_FLOATS - 1) / PART_FLOATS;
  }

  /** Length of part {@code p} of a chunk of {@code length} floats (0 past its end). */
  static int partLength(int length, int p) {
    return Math.max(0, Math.min(PART_FLOATS, length - p * PART_FLOATS));
  }

  /** The ranks of {@code group} but member {@code me}, in group order. */
  static int[] othersThan(int[] group, int me) {
    int[] others = new int[group.length - 1];
    for (int k = 0, o = 0; k < group.length; k++) {
      if (k != me) {
        others[o++] = group[k];
      }
    }
    return others;
  }
}
