package io.dssync.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.TrainerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StringIndexer;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * What a validation split costs before training starts: notebook 03's pipeline (StringIndexer,
 * VectorAssembler, DsSyncClassifier) over all 60,000 Fashion-MNIST training rows on the shared
 * {@code local-cluster[4,1,1536]}, timed from {@code Pipeline.fit} to the submission of the first
 * training stage, with {@code validationFraction} 0 and 0.1 alternated in one session. A
 * measurement, not a test (nothing is asserted about time), so it runs only by hand:
 * {@code mvn -pl spark-dssync -am test -Dtest=ValidationSplitCostBench -Ddssync.bench=true}.
 */
class ValidationSplitCostBench {
  private static final int REPEATS = 4;

  @Test
  void secondsBeforeTheFirstStageWithAndWithoutAValidationSplit() {
    assumeTrue(Boolean.getBoolean("dssync.bench"), "a measurement; run with -Ddssync.bench=true");
    SparkSession spark = TestSpark.session();
    LabeledArrays rows = TestData.fashionMnist().train();
    Dataset<Row> raw = DataFrames.toDataFrame(spark, rows, 4)
        .withColumnRenamed("features", "pixels")
        .withColumn("category", concat(lit("class-"), col("label").cast("int")))
        .drop("label")
        .cache();
    raw.count();
    List<Double> plain = new ArrayList<>();
    List<Double> validated = new ArrayList<>();
    for (int r = 0; r < REPEATS; r++) {
      plain.add(secondsToFirstStage(spark, raw, 0));
      validated.add(secondsToFirstStage(spark, raw, 0.1));
    }
    raw.unpersist();
    System.out.printf("[bench] %,d rows, 4 workers: seconds from Pipeline.fit to the first training stage%n",
        rows.size());
    System.out.println("[bench] validationFraction 0:   " + plain);
    System.out.println("[bench] validationFraction 0.1: " + validated);
    System.out.printf("[bench] median with / without a validation split: %.2f / %.2f s = %.2f%n",
        median(validated), median(plain), median(validated) / median(plain));
  }

  /** One fit of the pipeline (a small MLP for one epoch: the training itself is not what is timed). */
  private static double secondsToFirstStage(SparkSession spark, Dataset<Row> raw, double validationFraction) {
    DsSyncClassifier dssync = new DsSyncClassifier().setWorkers(4).setModel("mlp").setEpochs(1)
        .setStepsPerStage(100).setValidationFraction(validationFraction)
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 30_000).setProgress(ProgressListener.silent());
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {
        new StringIndexer().setInputCol("category").setOutputCol("label"),
        new VectorAssembler().setInputCols(new String[] {"pixels"}).setOutputCol("features"),
        dssync});
    AtomicLong firstStage = new AtomicLong();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart job) {
        String description = job.properties() == null ? null : job.properties().getProperty("spark.job.description");
        if (description != null && description.startsWith("dssync stage 1:")) {
          firstStage.compareAndSet(0, System.nanoTime());
        }
      }
    };
    spark.sparkContext().addSparkListener(listener);
    long start = System.nanoTime();
    try {
      pipeline.fit(raw);
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    if (firstStage.get() == 0) {
      throw new IllegalStateException("no job described as 'dssync stage 1:' started during the fit");
    }
    return Math.round((firstStage.get() - start) / 1e7) / 100.0;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
