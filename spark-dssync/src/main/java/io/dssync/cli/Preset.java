package io.dssync.cli;

import io.dssync.errors.Errors;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code dssync train --preset NAME}: one of the paper's workloads at a size that trains with 4
 * workers on a 2-core machine in about ten minutes. A preset is only a list of flags applied before
 * the command line, so any flag given explicitly overrides it.
 */
enum Preset {
  WRN("wrn", "WRN-10-2 on 12,800 Fashion-MNIST images, 2 epochs (200 steps), SGD with momentum",
      "--dataset", "fashion-mnist", "--model", "wrn-10-2", "--train-limit", "12800", "--test-limit", "2000",
      "--epochs", "2", "--batch-size", "32", "--optimizer", "sgd", "--learning-rate", "0.05",
      "--momentum", "0.9", "--weight-decay", "0.0005", "--lr-schedule", "cosine", "--warmup-steps", "10",
      "--steps-per-stage", "50"),
  BERT_MLM("bert-mlm", "BERT L2-H2-D64 masked-LM pre-training on all King James Bible training verses,"
      + " 1 epoch (224 steps), Adam",
      "--dataset", "kjv-mlm", "--model", "bert-mlm-L2-H2-D64", "--train-limit", "0", "--test-limit", "2000",
      "--epochs", "1", "--batch-size", "32", "--optimizer", "adam", "--learning-rate", "0.001",
      "--lr-schedule", "cosine", "--warmup-steps", "20", "--steps-per-stage", "50"),
  BERT_CLS("bert-cls", "BERT L2-H2-D64 telling which of four books a verse is from (from [CLS]), 6 epochs"
      + " (252 steps), Adam",
      "--dataset", "kjv-books", "--model", "bert-cls-L2-H2-D64", "--train-limit", "0", "--test-limit", "0",
      "--epochs", "6", "--batch-size", "32", "--optimizer", "adam", "--learning-rate", "0.001",
      "--lr-schedule", "cosine", "--warmup-steps", "20", "--steps-per-stage", "50"),
  DEEPFM("deepfm", "DeepFM on the Fair affairs survey as a click-style log (binary: log-loss, AUC), 20 epochs"
      + " (380 steps), Adam",
      "--dataset", "fair-affairs", "--model", "deepfm", "--train-limit", "0", "--test-limit", "0",
      "--epochs", "20", "--batch-size", "64", "--optimizer", "adam", "--learning-rate", "0.001",
      "--lr-schedule", "cosine", "--warmup-steps", "0", "--steps-per-stage", "50");

  final String name;
  final String doc;
  private final String[] flags;

  Preset(String name, String doc, String... flags) {
    this.name = name;
    this.doc = doc;
    this.flags = flags;
  }

  /** The preset's flags and values, in order. */
  Map<String, String> flags() {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < flags.length; i += 2) {
      out.put(flags[i], flags[i + 1]);
    }
    return out;
  }

  static Preset find(String name) {
    for (Preset p : values()) {
      if (p.name.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw Errors.unknownName("preset", name, Arrays.stream(values()).map(p -> p.name).toArray());
  }

  static String names() {
    return String.join("|", Arrays.stream(values()).map(p -> p.name).toList());
  }

  /** One help line per preset with its flags. */
  static String help() {
    StringBuilder sb = new StringBuilder();
    for (Preset p : values()) {
      sb.append(String.format("  %-10s %s%n  %-10s %s%n", p.name, p.doc, "", String.join(" ", p.flags)));
    }
    return sb.toString();
  }
}
