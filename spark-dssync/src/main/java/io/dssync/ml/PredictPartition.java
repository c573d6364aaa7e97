package io.dssync.ml;

import io.dssync.errors.Errors;
import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Runs on executors: one model replica per partition, rows predicted in batches; each output row is
 * the input row followed by the prediction and/or the class probabilities.
 */
final class PredictPartition implements FlatMapFunction<Iterator<Row>, Row> {
  static final int BATCH = 256;

  private final ModelSpec spec;
  private final Broadcast<float[]> state;
  private final int featuresIndex;
  private final boolean withPrediction;
  private final boolean withProbability;

  PredictPartition(ModelSpec spec, Broadcast<float[]> state, int featuresIndex, boolean withPrediction,
      boolean withProbability) {
    this.spec = spec;
    this.state = state;
    this.featuresIndex = featuresIndex;
    this.withPrediction = withPrediction;
    this.withProbability = withProbability;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    if (!rows.hasNext()) {
      return List.<Row>of().iterator();
    }
    ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1);
    TaskContext task = TaskContext.get();
    if (task != null) {
      // Also freed when the task ends early (a limit, a failure downstream).
      task.addTaskCompletionListener((TaskCompletionListener) ctx -> replica.close());
    }
    replica.writeState(state.value());
    // Lazy, one batch at a time, so a large partition is never held in memory; the replica's
    // native memory is freed when the last batch has been produced.
    return new Iterator<>() {
      private final List<Row> ready = new ArrayList<>(BATCH);
      private int next;

      @Override
      public boolean hasNext() {
        if (next < ready.size()) {
          return true;
        }
        ready.clear();
        next = 0;
        if (!rows.hasNext()) {
          replica.close();
          return false;
        }
        List<Row> batch = new ArrayList<>(BATCH);
        while (rows.hasNext() && batch.size() < BATCH) {
          batch.add(rows.next());
        }
        predict(replica, batch, ready);
        return true;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return ready.get(next++);
      }
    };
  }

  private void predict(ModelReplica replica, List<Row> batch, List<Row> out) {
    int fs = spec.featureSize();
    int classes = spec.numClasses();
    float[] features = new float[batch.size() * fs];
    for (int i = 0; i < batch.size(); i++) {
      copyFeatures(batch.get(i).get(featuresIndex), features, i * fs, fs);
    }
    float[] probabilities = replica.predictProbabilities(features, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Row row = batch.get(i);
      double[] p = new double[classes];
      int best = 0;
      for (int c = 0; c < classes; c++) {
        p[c] = probabilities[i * classes + c];
        best = p[c] > p[best] ? c : best;
      }
      Object[] values = new Object[row.length() + (withPrediction ? 1 : 0) + (withProbability ? 1 : 0)];
      for (int j = 0; j < row.length(); j++) {
        values[j] = row.get(j);
      }
      int k = row.length();
      if (withPrediction) {
        values[k++] = (double) best;
      }
      if (withProbability) {
        values[k] = Vectors.dense(p);
      }
      out.add(RowFactory.create(values));
    }
  }

  private static void copyFeatures(Object value, float[] dst, int offset, int size) {
    if (value instanceof Vector v) {
      check(v.size(), size);
      for (int j = 0; j < size; j++) {
        dst[offset + j] = (float) v.apply(j);
      }
    } else if (value instanceof scala.collection.Seq<?> seq) {
      check(seq.size(), size);
      for (int j = 0; j < size; j++) {
        dst[offset + j] = ((Number) seq.apply(j)).floatValue();
      }
    } else {
      throw Errors.badRecord("in the features column", "value " + value + " is not a vector or an array",
          "Assemble the features into one vector column (e.g. with VectorAssembler)");
    }
  }

  private static void check(int actual, int expected) {
    if (actual != expected) {
      throw Errors.badRecord("in the features column", "a row has " + actual + " features, the model expects "
          + expected, "Transform data shaped like the training data");
    }
  }
}
