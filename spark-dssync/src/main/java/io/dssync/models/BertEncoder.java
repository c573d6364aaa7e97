package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import java.util.ArrayList;
import java.util.List;

/**
 * A small BERT encoder over token ids: token plus learned position embeddings, LayerNorm, then
 * {@code layers} {@link TransformerLayer}s. Input (B, C, 1, L) with the token ids in channel 0
 * (0 = [PAD], masked out of attention); output the hidden states (B, L, D).
 */
final class BertEncoder extends AbstractBlock {
  /** [PAD]: positions holding it are not attended to. */
  static final int PAD = 0;
  /** Added to attention scores of padding; exp of it underflows to 0 in float32. */
  private static final float MASKED_SCORE = -1e4f;

  private final BertSize size;
  private final int length;
  private final IdTable tokens;
  private final IdTable positions;
  private final LayerNorm norm;
  private final List<TransformerLayer> layers = new ArrayList<>();

  BertEncoder(BertSize size, int vocabSize, int length) {
    this.size = size;
    this.length = length;
    tokens = addChildBlock("tokens", new IdTable(vocabSize, size.width()));
    positions = addChildBlock("positions", new IdTable(length, size.width()));
    norm = addChildBlock("norm", LayerNorm.builder().axis(2).build());
    for (int i = 0; i < size.layers(); i++) {
      layers.add(addChildBlock("layer" + i, new TransformerLayer(size.width(), size.heads())));
    }
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
      PairList<String, Object> params) {
    NDArray ids = inputs.singletonOrThrow().get(new NDIndex(":, 0, 0, :"));
    long batch = ids.getShape().get(0);
    NDArray place = ids.getManager().arange(0f, (float) length);
    NDArray x = Forward.one(tokens, ps, ids, training)
        .add(Forward.one(positions, ps, place, training));
    x = Forward.one(norm, ps, x, training);
    NDArray maskBias = ids.eq((float) PAD).toType(DataType.FLOAT32, false).mul(MASKED_SCORE)
        .reshape(batch, 1, 1, length);
    NDList hidden = new NDList(x, maskBias);
    for (TransformerLayer layer : layers) {
      hidden = layer.forward(ps, hidden, training);
    }
    return new NDList(hidden.get(0));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputs) {
    return new Shape[] {new Shape(inputs[0].get(0), length, size.width())};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputs) {
    long batch = inputs[0].get(0);
    tokens.initialize(manager, dataType, new Shape(batch, length));
    positions.initialize(manager, dataType, new Shape(length));
    Shape hidden = new Shape(batch, length, size.width());
    norm.initialize(manager, dataType, hidden);
    for (TransformerLayer layer : layers) {
      layer.initialize(manager, dataType, hidden, new Shape(batch, 1, 1, length));
    }
  }
}
