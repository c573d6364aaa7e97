package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dssync.cli.Main;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.metrics.ProgressListener;
import io.dssync.ml.DsSyncClassificationModel;
import io.dssync.ml.DsSyncClassifier;
import io.dssync.ml.TrainingSummary;
import io.dssync.testing.ScalaLists;
import io.dssync.testing.TestSpark;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Malformed rows and settings, generated from a seed: each yields its documented error (kind and
 * wording) under {@code --bad-records fail}, or is dropped and counted under {@code skip}; the
 * driver survives all of it. The rows are a tiny synthetic 10-feature shape: this proves input
 * handling, not accuracy.
 */
class BadInputFuzzTest {
  private static final int FEATURES = 10;
  private static final int CLASSES = 3;
  private static final StructType SCHEMA = new StructType()
      .add("features", DataTypes.createArrayType(DataTypes.DoubleType, true), true)
      .add("label", DataTypes.DoubleType, true);
  private static SparkSession spark;

  /** Each kind of malformed row and the words its error must contain. */
  enum Bad {
    SHORT("features have length 9 but 10 was expected"),
    LONG("features have length 11 but 10 was expected"),
    NAN("is NaN (not finite as a float)"),
    INFINITE("is Infinity (not finite as a float)"),
    BEYOND_FLOAT("is 1.0E300 (not finite as a float)"),
    NULL_FEATURES("features are null"),
    NULL_ELEMENT("feature 4 is null"),
    NULL_LABEL("the label is null"),
    LABEL_TOO_BIG("the label 3 is not an integer in 0..2"),
    LABEL_NEGATIVE("the label -1 is not an integer in 0..2"),
    LABEL_FRACTION("the label 1.5 is not an integer in 0..2");

    final String message;

    Bad(String message) {
      this.message = message;
    }

    Row row(SplittableRandom random) {
      List<Double> f = good(random);
      double label = random.nextInt(CLASSES);
      switch (this) {
        case SHORT -> f.remove(0);
        case LONG -> f.add(0.5);
        case NAN -> f.set(4, Double.NaN);
        case INFINITE -> f.set(4, Double.POSITIVE_INFINITY);
        case BEYOND_FLOAT -> f.set(4, 1e300);
        case NULL_FEATURES -> f = null;
        case NULL_ELEMENT -> f.set(4, null);
        case LABEL_TOO_BIG -> label = 3;
        case LABEL_NEGATIVE -> label = -1;
        case LABEL_FRACTION -> label = 1.5;
        default -> { }
      }
      return RowFactory.create(f == null ? null : ScalaLists.of(f),
          this == NULL_LABEL ? null : label);
    }
  }

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
  }

  @AfterAll
  static void driverStillWorks() {
    assertEquals(10, spark.range(10).count(), "the driver survives every bad input");
  }

  @Test
  void eachKindOfBadRowFailsWithItsDocumentedErrorUnderBadRecordsFail() {
    SplittableRandom random = new SplittableRandom(11);
    for (Bad bad : Bad.values()) {
      List<Row> rows = goodRows(random, 40);
      rows.add(random.nextInt(rows.size()), bad.row(random));
      DsSyncTrainer trainer = trainer("fail");
      DsSyncException e = assertThrows(DsSyncException.class, () -> trainer.fit(data(frame(rows, 4))), bad.name());
      assertEquals(ErrorKind.DATA, e.kind(), bad + ": " + e.getMessage());
      assertTrue(e.getMessage().contains(bad.message) && e.getMessage().contains("in input partition"),
          bad + ": " + e.getMessage());
      assertTrue(e.partialResult().map(r -> ((TrainingResult) r).retries().isEmpty()).orElse(true),
          "bad data is never retried");
    }
  }

  @Test
  void badRowsOfEveryKindAreSkippedAndCountedUnderBadRecordsSkip() {
    SplittableRandom random = new SplittableRandom(12);
    List<Row> rows = goodRows(random, 400);
    int bad = 0;
    for (int i = 0; i < 66; i++, bad++) {
      Bad kind = Bad.values()[random.nextInt(Bad.values().length)];
      rows.add(random.nextInt(rows.size()), kind.row(random));
    }
    // Four more partitions that hold nothing at all.
    Dataset<Row> frame = frame(rows, 8).union(frame(List.of(), 4));
    DsSyncTrainer trainer = trainer("skip");
    TrainingResult result = trainer.fit(data(frame));
    System.out.printf("[fuzz] skip: %d of %d rows skipped, %d steps trained, train loss %.4f%n",
        result.skippedRecords(), rows.size(), result.totalSteps(), result.last().trainLoss());
    assertEquals(bad, result.skippedRecords());
    assertEquals(400 / (4 * 8), result.totalSteps(), "trained on exactly the 400 good rows");
    assertTrue(Double.isFinite(result.last().trainLoss()));
  }

  @Test
  void aValidationSplitUnderBadRecordsSkipHoldsOutGoodRowsOnly() {
    SplittableRandom random = new SplittableRandom(14);
    List<Row> rows = goodRows(random, 400);
    for (int i = 0; i < 60; i++) {
      // Not at index 0: the estimator reads the feature size from the first row.
      rows.add(1 + random.nextInt(rows.size()), Bad.values()[random.nextInt(Bad.values().length)].row(random));
    }
    DsSyncClassifier estimator = new DsSyncClassifier().setWorkers(4).setModel("mlp").setBatchSize(8)
        .setEpochs(1).setStepsPerStage(100).setNumClasses(CLASSES).setValidationFraction(0.25)
        .setSetting(TrainerConfig.BAD_RECORDS.flag(), "skip").setProgress(ProgressListener.silent());
    // The validation split once failed on the first bad row it collected, whatever --bad-records said.
    DsSyncClassificationModel model = estimator.fit(frame(rows, 4));
    TrainingSummary summary = model.summary();
    assertTrue(Double.isFinite(summary.finalAccuracy()), "validated on good rows: " + summary.finalAccuracy());
    // 400 good rows less about 100 held out, in steps of 4 workers x 8.
    assertTrue(summary.totalSteps() >= 250 / 32 && summary.totalSteps() <= 350 / 32, summary.totalSteps() + " steps");
  }

  @Test
  void inputWithOnlyBadRowsUnderSkipIsADataErrorNotACrash() {
    SplittableRandom random = new SplittableRandom(13);
    List<Row> rows = new ArrayList<>();
    for (Bad b : Bad.values()) {
      rows.add(b.row(random));
    }
    DsSyncException e = assertThrows(DsSyncException.class, () -> trainer("skip").fit(data(frame(rows, 3))));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("it has 0 examples, fewer than the 4 workers"), e.getMessage());
  }

  @Test
  void columnsOfTheWrongTypeAreConfigErrorsNamingTheColumn() {
    Dataset<Row> stringLabels = frame(goodRows(new SplittableRandom(14), 20), 2)
        .withColumn("label", org.apache.spark.sql.functions.lit("cat"));
    DsSyncException e = assertThrows(DsSyncException.class, () -> trainer("skip").fit(data(stringLabels)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("column 'label' has type string"), e.getMessage());
    Dataset<Row> textFeatures = frame(goodRows(new SplittableRandom(15), 20), 2)
        .withColumn("features", org.apache.spark.sql.functions.lit("1,2,3"));
    e = assertThrows(DsSyncException.class, () -> trainer("fail").fit(data(textFeatures)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("column 'features' has type string"), e.getMessage());
  }

  /** Junk for every setting: accepted, or a CONFIG error naming the flag; never anything else. */
  @Test
  void malformedSettingsAreConfigErrorsNamingTheFlag() {
    List<String> junk = Arrays.asList("", " ", "abc", "-1", "0", "NaN", "Infinity", "1e400", "99999999999999999999",
        "1.5", "skip", "--workers", "\u0000", "full", null);
    int rejected = 0;
    for (Setting<?> s : TrainerConfig.ALL) {
      for (String value : junk) {
        try {
          TrainerConfig.builder().set(s.flag(), value).build();
        } catch (DsSyncException e) {
          rejected++;
          assertEquals(ErrorKind.CONFIG, e.kind(), s.flag() + "=" + value);
          // A value can be fine alone and break a combination (--workers 1 with g = 2): then the
          // error names the other setting's flag.
          assertTrue(e.getMessage().contains(s.flag()) || e.getMessage().contains(TrainerConfig.GROUP_SIZE.flag()),
              s.flag() + "=" + value + ": " + e.getMessage());
        } catch (RuntimeException e) {
          fail(s.flag() + "=" + value + " threw " + e + " instead of a CONFIG error");
        }
      }
    }
    assertTrue(rejected > TrainerConfig.ALL.size() * 5, "most junk is rejected: " + rejected);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"train", "--bad-records", "maybe"}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--bad-records = maybe: must be one of fail, skip"),
        err.toString(StandardCharsets.UTF_8));
  }

  private static DsSyncTrainer trainer(String badRecords) {
    TrainerConfig config = TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 4).set(TrainerConfig.SCHEDULE, "random").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 8).set(TrainerConfig.EPOCHS, 1).set(TrainerConfig.STEPS_PER_STAGE, 100)
        .set(TrainerConfig.BAD_RECORDS, badRecords)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000).build();
    return new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent());
  }

  private static TrainingData data(Dataset<Row> frame) {
    return new TrainingData(frame, "features", "label", 1, 1, FEATURES, CLASSES, null);
  }

  private static Dataset<Row> frame(List<Row> rows, int partitions) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return spark.createDataFrame(jsc.parallelize(rows, partitions), SCHEMA);
  }

  private static List<Row> goodRows(SplittableRandom random, int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(RowFactory.create(ScalaLists.of(good(random)),
          (double) random.nextInt(CLASSES)));
    }
    return rows;
  }

  private static List<Double> good(SplittableRandom random) {
    List<Double> f = new ArrayList<>(Collections.nCopies(FEATURES, 0.0));
    for (int i = 0; i < FEATURES; i++) {
      f.set(i, random.nextDouble());
    }
    return f;
  }
}
