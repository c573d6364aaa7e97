// The two Spark steps around training in your-table.sh, as one file the JDK runs from source
// (java YourTable.java ..., with the build's jars on the class path): no project to build for them.
//
//   java YourTable.java table OUT_DIR TRAIN_ROWS TEST_ROWS
//       writes OUT_DIR/train.parquet and OUT_DIR/test.parquet from Fashion-MNIST (fetched once into
//       ~/.cache/dssync/datasets): columns pixels (an ML vector of 784 values in [0, 1]) and label
//       (the class index as a double), as a table of yours would look after feature preparation.
//   java YourTable.java score MODEL_DIR TABLE OUT_DIR
//       loads the saved model with DsSyncClassificationModel.load, transforms TABLE and writes
//       pixels (as an array), label, prediction and probability (as an array) as JSON lines into
//       OUT_DIR, the rows compare_with_spark.py scores again in PyTorch.
//
// Both run Spark in local mode on loopback; they are small next to training, which runs on the cluster.

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.data.frame.DataFrames;
import io.dssync.ml.DsSyncClassificationModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

public class YourTable {
  public static void main(String[] args) {
    if (args.length != 4 || !(args[0].equals("table") || args[0].equals("score"))) {
      System.err.println("usage: YourTable table OUT_DIR TRAIN_ROWS TEST_ROWS | score MODEL_DIR TABLE OUT_DIR");
      System.exit(2);
    }
    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("your-table-" + args[0])
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      if (args[0].equals("table")) {
        table(spark, args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      } else {
        score(spark, args[1], args[2], args[3]);
      }
    } finally {
      spark.stop();
    }
  }

  static void table(SparkSession spark, String outDir, int trainRows, int testRows) {
    DatasetSplits all = FashionMnist.load();
    write(DataFrames.toDataFrame(spark, all.train().head(trainRows), 4), outDir + "/train.parquet");
    write(DataFrames.toDataFrame(spark, all.test().head(testRows), 2), outDir + "/test.parquet");
    System.out.printf("wrote %s/train.parquet (%d rows) and %s/test.parquet (%d rows)%n",
        outDir, trainRows, outDir, testRows);
  }

  private static void write(Dataset<Row> frame, String path) {
    frame.withColumnRenamed(DataFrames.FEATURES, "pixels")
        .write().mode(SaveMode.Overwrite).parquet(path);
  }

  static void score(SparkSession spark, String modelDir, String table, String outDir) {
    // A new reader, as a serving job would have: only the saved directory is shared with training.
    DsSyncClassificationModel model = DsSyncClassificationModel.load(modelDir).setFeaturesCol("pixels");
    Dataset<Row> scored = model.transform(spark.read().parquet(table));
    // Arrays, not ML vectors, so that any JSON reader gets plain lists of numbers.
    scored.select(
            org.apache.spark.ml.functions.vector_to_array(functions.col("pixels"), "float32").as("features"),
            functions.col("label"), functions.col("prediction"),
            org.apache.spark.ml.functions.vector_to_array(functions.col("probability"), "float64").as("probability"))
        .coalesce(1).write().mode(SaveMode.Overwrite).json(outDir);
    System.out.printf("scored %d rows of %s with %s into %s%n", scored.count(), table, modelDir, outDir);
  }
}
