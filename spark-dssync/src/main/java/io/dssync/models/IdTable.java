package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * A lookup table of {@code ids x dim} trainable rows: ids of any shape (as floats) in, their rows
 * out, shape {@code ids.shape + (dim)}. The parameter is named "embedding", which the replica's
 * seeded initialisation gives small values (a table has no fan-in).
 */
final class IdTable extends AbstractBlock {
  static final String PARAMETER = "embedding";

  private final int dim;
  private final Parameter table;

  IdTable(int ids, int dim) {
    this.dim = dim;
    this.table = addParameter(Parameter.builder().setName(PARAMETER).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(ids, dim)).build());
  }

  @Override
  protected NDList forwardInternal(ParameterStore store, NDList inputs, boolean training,
      PairList<String, Object> params) {
    NDArray ids = inputs.singletonOrThrow().toType(DataType.INT64, false);
    NDArray weight = store.getValue(table, ids.getDevice(), training);
    return ids.getNDArrayInternal().embedding(ids, weight, SparseFormat.DENSE);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputs) {
    return new Shape[] {inputs[0].add(dim)};
  }
}
