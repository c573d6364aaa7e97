package io.dssync.testing;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;

/** Real Fashion-MNIST, loaded once per test JVM (fetched into the user cache on first use). */
public final class TestData {
  private static DatasetSplits fashion;

  private TestData() {}

  public static synchronized DatasetSplits fashionMnist() {
    if (fashion == null) {
      fashion = FashionMnist.load();
    }
    return fashion;
  }

  /** The first {@code train} training and {@code test} test examples. */
  public static DatasetSplits fashionMnist(int train, int test) {
    DatasetSplits all = fashionMnist();
    return new DatasetSplits(all.train().head(train), all.test().head(test), all.channels(),
        all.height(), all.width(), all.name());
  }
}
