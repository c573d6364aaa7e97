package io.dssync.ml;

import io.dssync.errors.DsSyncException;
import io.dssync.models.ModelSpec;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * Saves a small model through Spark ML's writer and prints what happened; NewerJavaTest runs it on a
 * JDK whose Hadoop login fails. Exit 0: saved; 3: a DsSyncException (its message printed).
 */
public final class SaveOnNewerJava {
  private SaveOnNewerJava() {}

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().master("local[1]").appName("save-on-newer-java")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try {
      // The mlp's layers on a 1x2x2 input and 2 classes: 4x256 + 256, 256x128 + 128, 128x2 + 2.
      float[] state = new float[4 * 256 + 256 + 256 * 128 + 128 + 128 * 2 + 2];
      DsSyncClassificationModel model = DsSyncClassificationModel.restore("model-on-newer-java",
          new ModelSpec("mlp", 1, 2, 2, 2, 1L), state, new TrainingSummary(List.of(), "", 0, 0, null, null), null);
      model.write().save(args[0]);
      System.out.println("saved " + args[0]);
    } catch (DsSyncException e) {
      System.out.println("dssync: " + e.getMessage());
      System.exit(3);
    } finally {
      spark.stop();
    }
  }
}
