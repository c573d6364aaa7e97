package io.dssync.testing;

import java.util.List;

/** Scala lists built from Java ones, through what Scala 2.12 and 2.13 share, so the tests build for both. */
public final class ScalaLists {
  private ScalaLists() {}

  /** An immutable Scala list of {@code values}, in order (a Seq and an Iterable in both Scala versions). */
  @SuppressWarnings("unchecked")
  public static <T> scala.collection.immutable.List<T> of(List<? extends T> values) {
    scala.collection.immutable.List<T> out =
        (scala.collection.immutable.List<T>) (Object) scala.collection.immutable.Nil$.MODULE$;
    for (int i = values.size() - 1; i >= 0; i--) {
      out = out.$colon$colon(values.get(i));
    }
    return out;
  }
}
