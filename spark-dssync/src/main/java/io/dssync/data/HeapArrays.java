package io.dssync.data;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.SparkFailures;
import io.dssync.spark.SparkEnvs;

/**
 * Allocates the large arrays that hold examples. A heap too small for one is a clear error here:
 * Spark takes an OutOfMemoryError in a task for fatal and ends the JVM (exit code 52), which in local
 * mode is the driver, a notebook's kernel with it. Only the allocation that failed is given up, so
 * the heap is as it was and the JVM can go on.
 */
public final class HeapArrays {
  private HeapArrays() {}

  /** A zeroed {@code float[n]}, or an error naming {@code what} it was for. */
  public static float[] floats(long n, String what) {
    try {
      return new float[Math.toIntExact(n)];
    } catch (OutOfMemoryError e) {
      throw outOfHeap(what, n * Float.BYTES);
    }
  }

  /** A zeroed {@code int[n]}, or an error naming {@code what} it was for. */
  public static int[] ints(long n, String what) {
    try {
      return new int[Math.toIntExact(n)];
    } catch (OutOfMemoryError e) {
      throw outOfHeap(what, n * Integer.BYTES);
    }
  }

  /** A copy of the first {@code count} examples of the arrays, or an error naming {@code what} they are. */
  public static LabeledArrays firstExamples(float[] features, float[] labels, int count, int featureSize,
      Labels labelSpec, String what) {
    float[] f = floats((long) count * featureSize, what);
    System.arraycopy(features, 0, f, 0, f.length);
    float[] l = floats((long) count * labelSpec.width(), what);
    System.arraycopy(labels, 0, l, 0, l.length);
    return new LabeledArrays(f, l, featureSize, labelSpec);
  }

  /** A copy of the first {@code count} examples of {@code data}, or an error naming {@code what} they are. */
  public static LabeledArrays firstExamples(LabeledArrays data, int count, String what) {
    return firstExamples(data.features(), data.labels(), count, data.featureSize(), data.labelSpec(), what);
  }

  private static DsSyncException outOfHeap(String what, long bytes) {
    Runtime rt = Runtime.getRuntime();
    // Not the OutOfMemoryError as the cause: Spark looks for fatal errors among the causes too.
    return SparkFailures.outOfHeap(what, bytes, rt.maxMemory(), rt.totalMemory() - rt.freeMemory(),
        SparkEnvs.onDriver());
  }
}
