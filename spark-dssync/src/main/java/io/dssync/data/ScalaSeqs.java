package io.dssync.data;

import java.util.AbstractList;
import java.util.List;

/**
 * Scala sequences seen as Java lists, written against what Scala 2.12 and 2.13 share (their converters
 * live in different classes), so the same source builds for both.
 */
public final class ScalaSeqs {
  private ScalaSeqs() {}

  /**
   * A read-only view of {@code seq}, no copy: element {@code j} is {@code seq.apply(j)}, constant time for
   * the indexed sequences Spark hands out for array columns.
   */
  public static List<Object> asList(scala.collection.Seq<?> seq) {
    int size = seq.size();
    return new AbstractList<>() {
      @Override
      public Object get(int index) {
        return seq.apply(index);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }
}
