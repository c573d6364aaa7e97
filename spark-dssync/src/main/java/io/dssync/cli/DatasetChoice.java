package io.dssync.cli;

import io.dssync.data.Cifar10;
import io.dssync.data.CriteoTsv;
import io.dssync.data.DatasetSplits;
import io.dssync.data.FairAffairs;
import io.dssync.data.FashionMnist;
import io.dssync.data.KjvDatasets;
import io.dssync.data.Mnist;
import io.dssync.errors.Errors;
import io.dssync.models.Models;
import io.dssync.models.Models.Input;
import java.nio.file.Path;

/** Maps a dataset name to its loader, and to the kind of model that can read it. */
final class DatasetChoice {
  /** {@code criteo:PATH} reads a Kaggle train.txt at PATH; {@code criteo} the cached one. */
  static final String CRITEO_PREFIX = "criteo:";
  static final String[] NAMES = {"fashion-mnist", "mnist", "cifar-10", "kjv-mlm", "kjv-books",
      "fair-affairs", "criteo", CRITEO_PREFIX + "PATH"};

  private DatasetChoice() {}

  /** The kind of input the dataset's examples are, or null for a name this class does not know. */
  static Input input(String name) {
    if (name.startsWith(CRITEO_PREFIX)) {
      return Input.FIELD_IDS;
    }
    return switch (name) {
      case "fashion-mnist", "mnist", "cifar-10" -> Input.DENSE;
      case "kjv-mlm" -> Input.MASKED_TOKENS;
      case "kjv-books" -> Input.TOKENS;
      case "fair-affairs", "criteo" -> Input.FIELD_IDS;
      default -> null;
    };
  }

  /**
   * Refuses a model that cannot read the dataset before anything is loaded, naming a model that
   * can (a text dataset with the default cnn gets bert-cls); names either side does not know pass.
   */
  static void requireModelFits(String dataset, String model) {
    Input data = input(dataset);
    if (data == null || !Models.isKnown(model)) {
      return;
    }
    Input reads = Models.input(model);
    if (reads != data) {
      throw Errors.modelDoesNotFitData(model, dataset, describe(data), describe(reads), suggestion(data));
    }
  }

  private static String describe(Input input) {
    return switch (input) {
      case DENSE -> "dense values such as pixels";
      case TOKENS -> "token ids of text with a class per sequence";
      case MASKED_TOKENS -> "masked token ids of text for masked-LM pre-training";
      case FIELD_IDS -> "ids of categorical fields, as in click logs";
    };
  }

  private static String suggestion(Input data) {
    return switch (data) {
      case DENSE -> "Use --model cnn (or mlp, wrn-16-4), or --preset wrn for a tuned run.";
      case TOKENS -> "Use --model bert-cls, or --preset bert-cls, which also sets its training settings.";
      case MASKED_TOKENS -> "Use --model bert-mlm, or --preset bert-mlm, which also sets its training settings.";
      case FIELD_IDS -> "Use --model deepfm, or --preset deepfm, which also sets its training settings.";
    };
  }

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
