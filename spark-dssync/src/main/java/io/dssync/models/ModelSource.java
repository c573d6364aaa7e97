package io.dssync.models;

import java.io.Serializable;

/**
 * Where a model comes from: a built-in family ({@link BuiltInModel}), a user's {@link ModelFactory} class
 * ({@link FactoryModel}), both DJL blocks ({@link BlockSource}), or a TorchScript file ({@link TorchScriptModel}).
 * Every source goes through the same replica.
 */
public sealed interface ModelSource extends Serializable permits BlockSource, TorchScriptModel {
  /** How messages name the model: "cnn", "TorchScript file hdfs://.../net.pt", "factory com.example.Net". */
  String describe();

  /** The loss the model trains with unless {@code --loss} says otherwise. */
  LossKind defaultLoss();

  /** Checks the input shape, classes and labels of {@code spec} against what the model reads and outputs. */
  void check(ModelSpec spec);
}
