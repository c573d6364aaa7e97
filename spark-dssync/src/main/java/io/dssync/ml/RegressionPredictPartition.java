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
 * Runs on executors for {@link DsSyncRegressionModel}: one replica per partition, rows predicted in batches of
 * {@link PredictPartition#BATCH}; each output row is the input row followed by the model's raw outputs, a double
 * for one output, a Vector for several.
 */
final class RegressionPredictPartition implements FlatMapFunction<Iterator<Row>, Row> {
  private final ModelSpec spec;
  private final Broadcast<float[]> state;
  private final int featuresIndex;

  RegressionPredictPartition(ModelSpec spec, Broadcast<float[]> state, int featuresIndex) {
    this.spec = spec;
    this.state = state;
    this.featuresIndex = featuresIndex;
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
    // Lazy, one batch at a time, so a large partition is never held in memory.
    return new Iterator<>() {
      private final List<Row> ready = new ArrayList<>(PredictPartition.BATCH);
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
        List<Row> batch = new ArrayList<>(PredictPartition.BATCH);
        while (rows.hasNext() && batch.size() < PredictPartition.BATCH) {
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
    int width = spec.labelWidth();
    float[] features = new float[batch.size() * fs];
    for (int i = 0; i < batch.size(); i++) {
      FeatureValues.copy(batch.get(i).get(featuresIndex), features, i * fs, fs);
    }
    float[] outputs = replica.predictProbabilities(features, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Row row = batch.get(i);
      Object[] values = new Object[row.length() + 1];
      for (int j = 0; j < row.length(); j++) {
        values[j] = row.get(j);
      }
      if (width == 1) {
        values[row.length()] = (double) outputs[i];
      } else {
        double[] y = new double[width];
        for (int j = 0; j < width; j++) {
          y[j] = outputs[i * width + j];
        }
        values[row.length()] = Vectors.dense(y);
      }
      out.add(RowFactory.create(values));
    }
  }
}
