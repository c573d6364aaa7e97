package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dssync train --data}: a user's CSV table in, a regression trained and saved, each run in a JVM of
 * its own as a user runs the command. The rows are generated (a linear target plus noise, so that the R² a
 * model can reach is known): this tests the command's data path, not a model's accuracy.
 */
class TrainOnATableTest {
  @TempDir
  static Path dir;

  private static Path table(String name, int rows, long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder csv = new StringBuilder("a,b,c,target\n");
    for (int i = 0; i < rows; i++) {
      double a = random.nextGaussian();
      double b = random.nextGaussian();
      double c = random.nextGaussian();
      csv.append(String.format(Locale.ROOT, "%.5f,%.5f,%.5f,%.5f%n", a, b, c,
          2 * a - b + 0.5 * c + 0.3 * random.nextGaussian()));
    }
    return Files.writeString(dir.resolve(name), csv);
  }

  private static ChildJvm.Run train(String... flags) throws Exception {
    String[] args = new String[flags.length + 1];
    args[0] = "train";
    System.arraycopy(flags, 0, args, 1, flags.length);
    return ChildJvm.run(ChildJvm.thisJdk(), Duration.ofSeconds(240), "io.dssync.cli.Main", args);
  }

  @Test
  void aCsvTableTrainsARegressionOfNumericColumnsAndTheModelIsSaved() throws Exception {
    Path train = table("train.csv", 2_000, 1);
    Path test = table("test.csv", 500, 2);
    Path saved = dir.resolve("model");
    ChildJvm.Run run = train("--master", "local[2]", "--workers", "2", "--data", train.toString(), "--format", "csv",
        "--features-col", "a,b,c", "--label-col", "target", "--test-data", test.toString(), "--model", "mlp",
        "--loss", "mse", "--epochs", "5", "--batch-size", "32", "--optimizer", "adam", "--learning-rate", "0.003",
        "--save-model", saved.toString());
    String out = run.output();
    assertEquals(0, run.exitCode(), out);
    Matcher r2 = Pattern.compile("final_test_metric=r2:(-?[0-9.]+)").matcher(out);
    assertTrue(r2.find(), out);
    // The noise leaves 1 - 0.09 / 5.34 = 0.98 to explain; a model that learnt the columns gets most of it.
    assertTrue(Double.parseDouble(r2.group(1)) > 0.9, out);
    assertTrue(Files.exists(saved.resolve("metadata")) && Files.exists(saved.resolve("data/state.bin")), out);
    String metadata = Files.readString(saved.resolve("metadata/part-00000"));
    assertTrue(metadata.contains("\"class\":\"io.dssync.ml.DsSyncRegressionModel\""),
        "an mse model is saved as a regression model: " + metadata);
  }

  @Test
  void aMissingTableOrColumnFailsBeforeTrainingNamingIt() throws Exception {
    ChildJvm.Run missing = train("--master", "local[1]", "--workers", "1", "--schedule", "full", "--data",
        dir.resolve("nowhere.csv").toString(), "--format", "csv", "--features-col", "a", "--label-col", "target");
    assertEquals(2, missing.exitCode(), missing.output());
    assertTrue(missing.output().contains("nowhere.csv does not exist"), missing.output());

    Path train = table("columns.csv", 20, 3);
    ChildJvm.Run column = train("--master", "local[1]", "--workers", "1", "--schedule", "full", "--data",
        train.toString(), "--format", "csv", "--features-col", "a,bb", "--label-col", "target");
    assertEquals(2, column.exitCode(), column.output());
    assertTrue(column.output().contains("has no feature column 'bb'; its columns are [a, b, c, target]"),
        column.output());
  }
}
