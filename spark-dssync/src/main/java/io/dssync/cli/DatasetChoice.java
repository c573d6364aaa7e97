package io.dssync.cli;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.errors.Errors;

/** Maps a dataset name to its loader. */
final class DatasetChoice {
  private DatasetChoice() {}

  static DatasetSplits load(String name) {
    return switch (name) {
      case "fashion-mnist" -> FashionMnist.load();
      default -> throw Errors.unknownName("dataset", name, new String[] {"fashion-mnist"});
    };
  }
}
