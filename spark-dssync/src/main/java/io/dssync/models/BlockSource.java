package io.dssync.models;

import ai.djl.nn.Block;

/**
 * A model source that builds a DJL block: uninitialised, because the replica initialises every parameter
 * from the spec's seed (so builders must not draw random numbers themselves).
 */
public sealed interface BlockSource extends ModelSource permits BuiltInModel, FactoryModel {
  Block build(ModelSpec spec);

  /** What the block reads. */
  Models.Input input();
}
