package io.dssync.transport;

import io.dssync.testing.TestSpark;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockId;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;

/** Helpers shared by the transport tests: data patterns and a look into every executor's store. */
final class ClusterChecks {
  private ClusterChecks() {}

  /** Names of the spark-dssync blocks this executor's BlockManager holds right now. */
  static ArrayList<String> localDssyncBlocks() {
    Function1<BlockId, Object> isOurs = BlockIds::isDssync;
    List<BlockId> ids = CollectionConverters.asJava(SparkEnv.get().blockManager().getMatchingBlockIds(isOurs));
    ArrayList<String> names = new ArrayList<>();
    ids.forEach(id -> names.add(id.name()));
    return names;
  }

  /** A second pass over the cluster: the spark-dssync blocks left on each executor, by rank. */
  static List<ArrayList<String>> dssyncBlocksOnEveryExecutor() {
    return TestSpark.runBarrier(TestSpark.EXECUTORS, ctx -> localDssyncBlocks());
  }

  /**
   * Deterministic float bits for (sender, step): random bit patterns including negative zero,
   * subnormals and extremes, with NaN and infinity folded into finite values so that every
   * comparison is on raw bits.
   */
  static float[] pattern(int sender, long step, int length) {
    SplittableRandom random = new SplittableRandom(sender * 1_000_003L + step);
    float[] out = new float[length];
    for (int i = 0; i < length; i++) {
      int bits = random.nextInt();
      if ((bits & 0x7f80_0000) == 0x7f80_0000) {
        bits &= ~0x4000_0000; // exponent all ones (NaN/Inf): clear its top bit
      }
      out[i] = Float.intBitsToFloat(bits);
    }
    return out;
  }

  static int[] othersThan(int rank, int size) {
    int[] others = new int[size - 1];
    for (int r = 0, o = 0; r < size; r++) {
      if (r != rank) {
        others[o++] = r;
      }
    }
    return others;
  }

  /** What one rank saw in an exchange test. */
  record Report(String executorId, int mismatches, long bytesReceived, long bytesSent,
      ArrayList<String> leftAfterClose) implements Serializable {}
}
