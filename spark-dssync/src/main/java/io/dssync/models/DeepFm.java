package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * "deepfm": DeepFM (Guo et al. 2017) for click logs. Input (B, 1, 1, F): one global feature id per
 * field (each field its own id range). One embedding table of {@link #EMBEDDING} floats per id is
 * shared by the FM and the deep part. Output one logit per example (B, 1):
 * bias + sum of first-order weights + FM pairwise interactions + MLP(concatenated embeddings).
 */
final class DeepFm extends AbstractBlock {
  static final String NAME = "deepfm";
  static final int EMBEDDING = 8;
  static final int[] HIDDEN = {64, 32};

  private final int fields;
  private final IdTable embedding;
  private final IdTable firstOrder;
  private final SequentialBlock deep;
  private final Parameter bias;

  DeepFm(ModelSpec spec) {
    fields = spec.width();
    embedding = addChildBlock("embedding", new IdTable(spec.vocabSize(), EMBEDDING));
    firstOrder = addChildBlock("firstOrder", new IdTable(spec.vocabSize(), 1));
    SequentialBlock mlp = new SequentialBlock();
    for (int units : HIDDEN) {
      mlp.add(Linear.builder().setUnits(units).build()).add(Activation.reluBlock());
    }
    deep = addChildBlock("deep", mlp.add(Linear.builder().setUnits(1).build()));
    bias = addParameter(Parameter.builder().setName("bias").setType(Parameter.Type.BIAS)
        .optShape(new Shape(1)).build());
  }

  static DeepFm build(ModelSpec spec) {
    return new DeepFm(spec);
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
      PairList<String, Object> params) {
    NDArray input = inputs.singletonOrThrow();
    long batch = input.getShape().get(0);
    NDArray ids = input.reshape(batch, fields);
    NDArray e = Forward.one(embedding, ps, ids, training); // (B, F, E)
    NDArray linear = Forward.one(firstOrder, ps, ids, training).reshape(batch, fields).sum(new int[] {1}, true);
    // Sum over field pairs of <v_i, v_j> = ((sum v)^2 - sum v^2) / 2, summed over embedding dims.
    NDArray sum = e.sum(new int[] {1});
    NDArray pairs = sum.mul(sum).sub(e.mul(e).sum(new int[] {1})).sum(new int[] {1}, true);
    pairs = AutogradScalars.mul(pairs, 0.5f);
    NDArray mlp = deep.forward(ps, new NDList(e.reshape(batch, (long) fields * EMBEDDING)), training)
        .singletonOrThrow();
    NDArray b = ps.getValue(bias, input.getDevice(), training);
    return new NDList(linear.add(pairs).add(mlp).add(b));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputs) {
    return new Shape[] {new Shape(inputs[0].get(0), 1)};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputs) {
    long batch = inputs[0].get(0);
    embedding.initialize(manager, dataType, new Shape(batch, fields));
    firstOrder.initialize(manager, dataType, new Shape(batch, fields));
    deep.initialize(manager, dataType, new Shape(batch, (long) fields * EMBEDDING));
  }
}
