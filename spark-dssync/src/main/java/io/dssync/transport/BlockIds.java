package io.dssync.transport;

import io.dssync.collective.MessageId;
import io.dssync.errors.Errors;
import java.util.regex.Pattern;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.TestBlockId;

/**
 * The one factory for the block ids spark-dssync stores. Only ids whose names {@code
 * BlockId.apply} parses back survive crossing a JVM (the fetching side sends the name, the serving
 * side parses it); a Java subclass of {@code BlockId} does not. Of the public kinds only {@code
 * TestBlockId} carries free text, so every chunk becomes {@code
 * test_dssync-<run>-<stage>-<step>-<round>-<phase>-<sender>-<chunk>}. Ids are unique per (run,
 * stage, step, round, phase, sender, chunk): the run id is everything before the last seven
 * numeric fields, so a run id containing dashes cannot collide with another.
 */
public final class BlockIds {
  /** Name prefix of every block spark-dssync stores (as seen in {@code BlockId.name()}). */
  public static final String NAME_PREFIX = "test_dssync-";

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_.-]+");

  private BlockIds() {}

  /** The block that holds chunk {@code id} published by rank {@code sender}. */
  public static BlockId chunk(String runId, int stage, int sender, MessageId id) {
    checkRunId(runId);
    if (stage < 0 || sender < 0 || id.step() < 0 || id.round() < 0 || id.phase() < 0 || id.chunk() < 0) {
      // Negative fields would add a dash and break the uniqueness argument above.
      throw new IllegalArgumentException(
          "block id fields must be >= 0: stage " + stage + ", sender " + sender + ", " + id);
    }
    return new TestBlockId("dssync-" + runId + "-" + stage + "-" + id.step() + "-" + id.round()
        + "-" + id.phase() + "-" + sender + "-" + id.chunk());
  }

  /** Parses a name that crossed a JVM back into the block id (Spark's own parser). */
  public static BlockId parse(String name) {
    return BlockId.apply(name);
  }

  /** Whether {@code id} is any spark-dssync chunk block. */
  public static boolean isDssync(BlockId id) {
    return id.name().startsWith(NAME_PREFIX);
  }

  /** Rejects run ids that would make names ambiguous or unparseable. */
  public static void checkRunId(String runId) {
    if (runId == null || !RUN_ID.matcher(runId).matches()) {
      throw Errors.invalidSetting("run id", runId, "it must be non-empty and use only"
          + " letters, digits, '_', '.' and '-'", "Pick a run id such as 'run-2024_01'.");
    }
  }
}
