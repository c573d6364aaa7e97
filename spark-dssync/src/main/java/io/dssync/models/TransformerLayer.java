package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * One BERT encoder layer (post-norm, as in BERT): multi-head self-attention with an additive
 * padding mask, residual, LayerNorm; GELU feed-forward of 4x the width, residual, LayerNorm. No
 * dropout (steps must be deterministic). Input and output: NDList(hidden (B, L, D), maskBias
 * (B, 1, 1, L)), where maskBias is 0 at tokens and a large negative number at padding.
 */
final class TransformerLayer extends AbstractBlock {
  private final int width;
  private final int heads;
  private final Linear query;
  private final Linear key;
  private final Linear value;
  private final Linear output;
  private final LayerNorm attentionNorm;
  private final Linear expand;
  private final Linear contract;
  private final LayerNorm feedForwardNorm;

  TransformerLayer(int width, int heads) {
    this.width = width;
    this.heads = heads;
    query = addChildBlock("query", linear(width));
    key = addChildBlock("key", linear(width));
    value = addChildBlock("value", linear(width));
    output = addChildBlock("output", linear(width));
    attentionNorm = addChildBlock("attentionNorm", LayerNorm.builder().axis(2).build());
    expand = addChildBlock("expand", linear(4 * width));
    contract = addChildBlock("contract", linear(width));
    feedForwardNorm = addChildBlock("feedForwardNorm", LayerNorm.builder().axis(2).build());
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
      PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray maskBias = inputs.get(1);
    long batch = x.getShape().get(0);
    long length = x.getShape().get(1);
    int headWidth = width / heads;
    NDArray q = splitHeads(Forward.one(query, ps, x, training), batch, length, headWidth);
    NDArray k = splitHeads(Forward.one(key, ps, x, training), batch, length, headWidth);
    NDArray v = splitHeads(Forward.one(value, ps, x, training), batch, length, headWidth);
    NDArray scores = AutogradScalars.div(q.matMul(k.transpose(0, 1, 3, 2)), (float) Math.sqrt(headWidth))
        .add(maskBias);
    NDArray context = scores.softmax(-1).matMul(v).transpose(0, 2, 1, 3).reshape(batch, length, width);
    NDArray attended = Forward.one(attentionNorm, ps, x.add(Forward.one(output, ps, context, training)), training);
    NDArray hidden = Activation.gelu(Forward.one(expand, ps, attended, training));
    NDArray out = Forward.one(feedForwardNorm, ps, attended.add(Forward.one(contract, ps, hidden, training)), training);
    return new NDList(out, maskBias);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputs) {
    return new Shape[] {inputs[0], inputs[1]};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputs) {
    Shape hidden = inputs[0];
    for (AbstractBlock b : new AbstractBlock[] {query, key, value, output, attentionNorm, expand, feedForwardNorm}) {
      b.initialize(manager, dataType, hidden);
    }
    contract.initialize(manager, dataType, new Shape(hidden.get(0), hidden.get(1), 4L * width));
  }

  /** (B, L, D) to (B, heads, L, D / heads). */
  private NDArray splitHeads(NDArray x, long batch, long length, int headWidth) {
    return x.reshape(batch, length, heads, headWidth).transpose(0, 2, 1, 3);
  }

  private static Linear linear(int units) {
    return Linear.builder().setUnits(units).build();
  }
}
