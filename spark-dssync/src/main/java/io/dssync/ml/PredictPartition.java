package io.dssync.ml;

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
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Runs on executors: one model replica per partition, rows predicted in batches; each output row is
 * the input row followed by the prediction, the class probabilities and the raw scores, each when asked,
 * computed by {@link ClassScores} as Spark defines them (the prediction honours the thresholds).
 * deepfm's category indices are mapped to its global ids first.
 */
final class PredictPartition implements FlatMapFunction<Iterator<Row>, Row> {
  static final int BATCH = 256;

  private final ModelSpec spec;
  private final Broadcast<float[]> state;
  private final int featuresIndex;
  private final boolean withPrediction;
  private final boolean withProbability;
  private final boolean withRaw;
  private final FieldIds fieldIds;
  /** Spark's thresholds param, one per class; null when not set. */
  private final double[] thresholds;

  PredictPartition(ModelSpec spec, Broadcast<float[]> state, FieldIds fieldIds, int featuresIndex,
      boolean withPrediction, boolean withProbability, boolean withRaw, double[] thresholds) {
    this.spec = spec;
    this.state = state;
    this.fieldIds = fieldIds;
    this.featuresIndex = featuresIndex;
    this.withPrediction = withPrediction;
    this.withProbability = withProbability;
    this.withRaw = withRaw;
    this.thresholds = thresholds == null ? null : thresholds.clone();
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
    float[] features = new float[batch.size() * fs];
    for (int i = 0; i < batch.size(); i++) {
      features(batch.get(i).get(featuresIndex), fieldIds, features, i * fs, fs);
    }
    float[] outputs = replica.predictOutputs(features, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Row row = batch.get(i);
      double[] raw = ClassScores.raw(outputs, i, spec.outputSize(), spec.lossKind());
      Object[] values = new Object[row.length() + (withPrediction ? 1 : 0) + (withProbability ? 1 : 0)
          + (withRaw ? 1 : 0)];
      for (int j = 0; j < row.length(); j++) {
        values[j] = row.get(j);
      }
      int k = row.length();
      if (withPrediction) {
        values[k++] = ClassScores.prediction(raw, thresholds);
      }
      if (withProbability) {
        values[k++] = Vectors.dense(ClassScores.softmaxInPlace(raw.clone()));
      }
      if (withRaw) {
        values[k] = Vectors.dense(raw);
      }
      out.add(RowFactory.create(values));
    }
  }

  /** One row's features as the model reads them, at {@code offset}: deepfm's category indices become its ids. */
  static void features(Object value, FieldIds fieldIds, float[] dst, int offset, int size) {
    FeatureValues.copy(value, dst, offset, size);
    if (fieldIds != null) {
      fieldIds.encode(dst, offset);
    }
  }
}
