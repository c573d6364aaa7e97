package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/** "bert-mlm" and "bert-cls": a {@link BertEncoder} with a masked-LM or a classification head. */
final class BertHeads {
  static final String MLM = "bert-mlm";
  static final String CLS = "bert-cls";

  private BertHeads() {}

  /**
   * Masked-LM: input (B, 2, 1, L), row 0 the ids after masking, row 1 the original id at masked
   * positions and -1 elsewhere. Output (M, vocabSize) logits for the M masked positions in
   * example-then-position order (only those are scored, which also saves the vocabulary
   * projection of every other position).
   */
  static final class MaskedLm extends AbstractBlock {
    private final BertEncoder encoder;
    private final Linear transform;
    private final LayerNorm norm;
    private final Linear decoder;
    private final int width;
    private final int vocabSize;

    MaskedLm(BertSize size, ModelSpec spec) {
      width = size.width();
      vocabSize = spec.vocabSize();
      encoder = addChildBlock("encoder", new BertEncoder(size, spec.vocabSize(), spec.width()));
      transform = addChildBlock("transform", Linear.builder().setUnits(width).build());
      norm = addChildBlock("norm", LayerNorm.builder().axis(1).build());
      decoder = addChildBlock("decoder", Linear.builder().setUnits(spec.vocabSize()).build());
    }

    @Override
    protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
        PairList<String, Object> params) {
      NDArray input = inputs.singletonOrThrow();
      NDArray hidden = encoder.forward(ps, inputs, training).singletonOrThrow();
      long batch = hidden.getShape().get(0);
      long length = hidden.getShape().get(1);
      NDArray rows = hidden.reshape(batch * length, width).get(maskedPositions(input));
      NDArray h = Activation.gelu(Forward.one(transform, ps, rows, training));
      h = Forward.one(norm, ps, h, training);
      return new NDList(Forward.one(decoder, ps, h, training));
    }

    /** Flat (example * L + position) indices of the masked positions, as an int64 array. */
    private static NDArray maskedPositions(NDArray input) {
      float[] targets = input.get(new NDIndex(":, 1, 0, :")).toFloatArray();
      long[] buffer = new long[targets.length];
      int m = 0;
      for (int i = 0; i < targets.length; i++) {
        if (targets[i] >= 0) {
          buffer[m++] = i;
        }
      }
      return input.getManager().create(java.util.Arrays.copyOf(buffer, m));
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputs) {
      // Data-dependent row count; at most every position of every example.
      return new Shape[] {new Shape(inputs[0].get(0) * inputs[0].get(3), vocabSize)};
    }

    @Override
    protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputs) {
      encoder.initialize(manager, dataType, inputs[0]);
      Shape rows = new Shape(1, width);
      transform.initialize(manager, dataType, rows);
      norm.initialize(manager, dataType, rows);
      decoder.initialize(manager, dataType, rows);
    }
  }

  /**
   * Sequence classification: input (B, 1, 1, L) token ids starting with [CLS]; the hidden state
   * of position 0 goes through a tanh pooler and a linear layer to (B, numClasses) logits.
   */
  static final class Classifier extends AbstractBlock {
    private final BertEncoder encoder;
    private final Linear pooler;
    private final Linear classifier;
    private final int width;
    private final int numClasses;

    Classifier(BertSize size, ModelSpec spec) {
      width = size.width();
      numClasses = spec.numClasses();
      encoder = addChildBlock("encoder", new BertEncoder(size, spec.vocabSize(), spec.width()));
      pooler = addChildBlock("pooler", Linear.builder().setUnits(width).build());
      classifier = addChildBlock("classifier", Linear.builder().setUnits(spec.numClasses()).build());
    }

    @Override
    protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
        PairList<String, Object> params) {
      NDArray hidden = encoder.forward(ps, inputs, training).singletonOrThrow();
      NDArray first = hidden.get(new NDIndex(":, 0, :"));
      NDArray pooled = Forward.one(pooler, ps, first, training).tanh();
      return new NDList(Forward.one(classifier, ps, pooled, training));
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputs) {
      return new Shape[] {new Shape(inputs[0].get(0), numClasses)};
    }

    @Override
    protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputs) {
      encoder.initialize(manager, dataType, inputs[0]);
      Shape pooled = new Shape(inputs[0].get(0), width);
      pooler.initialize(manager, dataType, pooled);
      classifier.initialize(manager, dataType, pooled);
    }
  }
}
