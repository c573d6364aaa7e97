package io.dssync.cli;

import io.dssync.data.Cifar10;
import io.dssync.data.CriteoTsv;
import io.dssync.data.DatasetSplits;
import io.dssync.data.FairAffairs;
import io.dssync.data.FashionMnist;
import io.dssync.data.KjvDatasets;
import io.dssync.data.Mnist;
import io.dssync.errors.Errors;
import java.nio.file.Path;

/** Maps a dataset name to its loader. */
final class DatasetChoice {
  /** {@code criteo:PATH} reads a Kaggle train.txt at PATH; {@code criteo} the cached one. */
  static final String CRITEO_PREFIX = "criteo:";
  static final String[] NAMES = {"fashion-mnist", "mnist", "cifar-10", "kjv-mlm", "kjv-books",
      "fair-affairs", "criteo", CRITEO_PREFIX + "PATH"};

  private DatasetChoice() {}

  static DatasetSplits load(String name) {
    if (name.startsWith(CRITEO_PREFIX)) {
      return CriteoTsv.load(Path.of(name.substring(CRITEO_PREFIX.length())),
          CriteoTsv.Options.defaults()).splits();
    }
    return switch (name) {
      case "fashion-mnist" -> FashionMnist.load();
      case "mnist" -> Mnist.load();
      case "cifar-10" -> Cifar10.load();
      case "kjv-mlm" -> KjvDatasets.maskedLm();
      case "kjv-books" -> KjvDatasets.books();
      case "fair-affairs" -> FairAffairs.load().splits();
      case "criteo" -> CriteoTsv.load().splits();
      default -> throw Errors.unknownName("dataset", name, NAMES);
    };
  }
}
