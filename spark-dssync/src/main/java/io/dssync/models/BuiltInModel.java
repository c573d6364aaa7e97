package io.dssync.models;

import ai.djl.nn.Block;

/** One of the built-in families of {@link Models}, by name ("cnn", "wrn-16-4", "bert-cls", ...). */
public record BuiltInModel(String name) implements BlockSource {
  @Override
  public Block build(ModelSpec spec) {
    return Models.build(spec);
  }

  @Override
  public Models.Input input() {
    return Models.input(name);
  }

  @Override
  public String describe() {
    return name;
  }

  @Override
  public LossKind defaultLoss() {
    return Models.lossKind(name);
  }

  @Override
  public void check(ModelSpec spec) {
    Models.checkShape(spec);
  }
}
