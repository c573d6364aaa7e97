package io.dssync.bench.peer;

import io.dssync.bench.train.TrainBenchCurve;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.classification.MultilayerPerceptronClassificationModel;
import org.apache.spark.ml.classification.MultilayerPerceptronClassifier;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * Spark MLlib's MultilayerPerceptronClassifier as the peer. MLlib has no per-iteration callback, so
 * training runs in chunks of {@code chunkIterations} iterations, each {@code fit} starting from the
 * previous chunk's weights ({@code setInitialWeights}); the test set is evaluated between chunks
 * and only the {@code fit} calls are timed.
 */
final class PeerBenchMllib {
  /** The hidden layers of the project's {@code mlp} model (io.dssync.models.Mlp). */
  static final int[] MLP_HIDDEN = {256, 128};

  /** How MLlib is run. */
  record Settings(int maxIterations, int chunkIterations, String solver, int blockSize, long seed) {}

  /** The chunked run's curve (progress = iterations) and its weights count. */
  record Chunked(TrainBenchCurve curve, int iterations, int weights) {}

  private final Dataset<Row> train;
  private final Dataset<Row> test;
  private final int[] layers;
  private final Settings settings;

  /** Puts both splits into cached DataFrames of {@code partitions} partitions (one task per worker slot). */
  PeerBenchMllib(SparkSession spark, LabeledArrays train, LabeledArrays test, int partitions, Settings settings) {
    this.train = DataFrames.toDataFrame(spark, train, partitions).persist(StorageLevel.MEMORY_ONLY());
    this.test = DataFrames.toDataFrame(spark, test, partitions).persist(StorageLevel.MEMORY_ONLY());
    this.train.count(); // materialize the cache before any clock starts
    this.test.count();
    this.layers = new int[] {train.featureSize(), MLP_HIDDEN[0], MLP_HIDDEN[1], train.numClasses()};
    this.settings = settings;
  }

  int[] layers() {
    return layers;
  }

  /** Chunks of iterations up to {@code maxIterations}, evaluating after each. */
  Chunked runChunked(PrintStream err) {
    List<TrainBenchCurve.Point> points = new ArrayList<>();
    Vector weights = null;
    double seconds = 0;
    int done = 0;
    while (done < settings.maxIterations()) {
      int chunk = Math.min(settings.chunkIterations(), settings.maxIterations() - done);
      long t0 = System.nanoTime();
      MultilayerPerceptronClassificationModel model = classifier(chunk, weights).fit(train);
      seconds += (System.nanoTime() - t0) / 1e9;
      done += chunk;
      weights = model.weights();
      double accuracy = accuracy(model);
      points.add(new TrainBenchCurve.Point(done, seconds, accuracy));
      err.printf(Locale.ROOT, "[bench peer] mllib %s iterations %d/%d | train %.2f s | test acc %.4f%n",
          settings.solver(), done, settings.maxIterations(), seconds, accuracy);
    }
    return new Chunked(new TrainBenchCurve(points), done, weights == null ? 0 : weights.size());
  }

  /**
   * One uninterrupted {@code fit} of {@code iterations} iterations from the same seed: how much the
   * chunking itself costs in time (re-stacking the data per fit) and in accuracy (L-BFGS restarts
   * its curvature memory per fit).
   */
  TrainBenchCurve.Point runContinuous(int iterations, PrintStream err) {
    long t0 = System.nanoTime();
    MultilayerPerceptronClassificationModel model = classifier(iterations, null).fit(train);
    double seconds = (System.nanoTime() - t0) / 1e9;
    double accuracy = accuracy(model);
    err.printf(Locale.ROOT, "[bench peer] mllib %s one fit of %d iterations | %.2f s | test acc %.4f%n",
        settings.solver(), iterations, seconds, accuracy);
    return new TrainBenchCurve.Point(iterations, seconds, accuracy);
  }

  /** A fit of one iteration on the training data, untimed: JIT and BLAS warm-up on the executors. */
  void warmUp() {
    classifier(1, null).fit(train);
  }

  void release() {
    train.unpersist(false);
    test.unpersist(false);
  }

  private MultilayerPerceptronClassifier classifier(int iterations, Vector initialWeights) {
    MultilayerPerceptronClassifier c = new MultilayerPerceptronClassifier()
        .setLayers(layers)
        .setMaxIter(iterations)
        .setSolver(settings.solver())
        .setBlockSize(settings.blockSize())
        .setSeed(settings.seed())
        .setFeaturesCol(DataFrames.FEATURES)
        .setLabelCol(DataFrames.LABEL);
    return initialWeights == null ? c : c.setInitialWeights(initialWeights);
  }

  private double accuracy(MultilayerPerceptronClassificationModel model) {
    return new MulticlassClassificationEvaluator().setMetricName("accuracy")
        .setLabelCol(DataFrames.LABEL).evaluate(model.transform(test));
  }
}
