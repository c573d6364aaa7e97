package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.ml.DsSyncClassificationModel;
import io.dssync.testing.BorrowedSession;
import io.dssync.testing.ChildJvm;
import io.dssync.testing.TorchScripts;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dssync export-model}: the last checkpoint of a {@code dssync train} run becomes a model directory that
 * loads and predicts as the one the run saved with {@code --save-model}; an old (format 1) checkpoint does too
 * once the data's shape is given; and every bad input fails naming the path and the fix. The training run is a
 * JVM of its own, as a user runs it (and as TrainOnATableTest does): its session would otherwise be this test
 * JVM's shared one, which the command stops when it ends.
 */
class ExportModelTest {
  @TempDir
  static Path dir;
  static Path checkpoints;
  static Path saved;
  static BorrowedSession session;

  private final CliRun cli = new CliRun();

  /** Three numeric columns and a class in 0..2 that depends on them. */
  private static Path table(String name, int rows, long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder csv = new StringBuilder("a,b,c,label\n");
    for (int i = 0; i < rows; i++) {
      double a = random.nextGaussian();
      double b = random.nextGaussian();
      double c = random.nextGaussian();
      int label = a + b > 0.5 ? 2 : a - c > 0 ? 1 : 0;
      csv.append(String.format(Locale.ROOT, "%.5f,%.5f,%.5f,%d%n", a, b, c, label));
    }
    return Files.writeString(dir.resolve(name), csv);
  }

  @BeforeAll
  static void trainWithCheckpoints() throws Exception {
    checkpoints = dir.resolve("checkpoints");
    saved = dir.resolve("saved");
    ChildJvm.Run run = ChildJvm.run(ChildJvm.thisJdk(), Duration.ofSeconds(240), "io.dssync.cli.Main", "train",
        "--master", "local[2]", "--workers", "2", "--data", table("train.csv", 400, 1).toString(), "--format", "csv",
        "--features-col", "a,b,c", "--label-col", "label", "--model", "mlp", "--epochs", "2", "--batch-size", "16",
        "--steps-per-stage", "5", "--checkpoint-dir", checkpoints.toString(), "--save-model", saved.toString());
    assertEquals(0, run.exitCode(), run.output());
    // For loading and predicting; the command itself writes through the same session.
    session = BorrowedSession.open();
  }

  @AfterAll
  static void closeSession() {
    if (session != null) {
      session.close();
    }
  }

  private static Path newestCheckpoint() throws Exception {
    try (Stream<Path> s = Files.list(checkpoints)) {
      return s.filter(p -> p.getFileName().toString().startsWith("ckpt-")).sorted().reduce((a, b) -> b).orElseThrow();
    }
  }

  private static float[] state(Path model) throws Exception {
    try (DataInputStream in = new DataInputStream(Files.newInputStream(model.resolve("data/state.bin")))) {
      float[] state = new float[in.readInt()];
      for (int i = 0; i < state.length; i++) {
        state[i] = in.readFloat();
      }
      return state;
    }
  }

  private static double[][] probabilities(Path model) {
    List<Row> rows = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(9);
    for (int i = 0; i < 20; i++) {
      rows.add(RowFactory.create(Vectors.dense(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())));
    }
    Dataset<Row> frame = session.spark().createDataFrame(rows, new StructType().add("features", new VectorUDT()));
    DsSyncClassificationModel loaded = DsSyncClassificationModel.read().session(session.spark()).load(model.toString());
    return loaded.transform(frame).select("probability").collectAsList().stream()
        .map(r -> ((Vector) r.get(0)).toArray()).toArray(double[][]::new);
  }

  @Test
  void theLastCheckpointExportsToTheModelTheRunSaved() throws Exception {
    Path exported = dir.resolve("exported");
    assertEquals(0, cli.run("export-model", "--checkpoint", checkpoints.toString(), "--save-model",
        exported.toString()), cli.err());
    assertTrue(cli.out().contains(newestCheckpoint().getFileName().toString()), "names the checkpoint: " + cli.out());
    assertArrayEquals(state(saved), state(exported), "the same consensus state as --save-model wrote");
    assertArrayEquals(Files.readAllBytes(saved.resolve("weights.safetensors")),
        Files.readAllBytes(exported.resolve("weights.safetensors")), "the same named weights");
    double[][] want = probabilities(saved);
    double[][] got = probabilities(exported);
    for (int i = 0; i < want.length; i++) {
      assertArrayEquals(want[i], got[i], 0, "row " + i);
    }
    assertEquals(DsSyncClassificationModel.read().session(session.spark()).load(saved.toString()).spec(),
        DsSyncClassificationModel.read().session(session.spark()).load(exported.toString()).spec());
  }

  @Test
  void aTorchScriptModelExportsFromItsRecordedFileAndAMovedFileIsNamed() throws Exception {
    TorchScripts.requireTorch();
    Path net = TorchScripts.export(dir.resolve("net.pt"), "regression_mlp:RegressionMlp",
        "{\"inputs\": 3, \"hidden\": 8, \"outputs\": 3}", "3", 3, null);
    Path scriptCheckpoints = dir.resolve("script-checkpoints");
    Path scriptSaved = dir.resolve("script-saved");
    ChildJvm.Run run = ChildJvm.run(ChildJvm.thisJdk(), Duration.ofSeconds(240), "io.dssync.cli.Main", "train",
        "--master", "local[2]", "--workers", "2", "--data", dir.resolve("train.csv").toString(), "--format", "csv",
        "--features-col", "a,b,c", "--label-col", "label", "--model-file", net.toString(), "--epochs", "1",
        "--batch-size", "16", "--steps-per-stage", "5", "--checkpoint-dir", scriptCheckpoints.toString(),
        "--save-model", scriptSaved.toString());
    assertEquals(0, run.exitCode(), run.output());

    Path moved = Files.move(net, dir.resolve("moved.pt"));
    assertEquals(2, cli.run("export-model", "--checkpoint", scriptCheckpoints.toString(), "--save-model",
        dir.resolve("script-nowhere").toString()));
    assertTrue(cli.err().contains("the run trained the TorchScript file " + net + ", which no longer exists there")
        && cli.err().contains("--model-file"), cli.err());

    CliRun trainedCopy = new CliRun();
    assertEquals(2, trainedCopy.run("export-model", "--checkpoint", scriptCheckpoints.toString(), "--save-model",
        dir.resolve("script-other").toString(), "--model-file", scriptSaved.resolve("model.pt").toString()));
    assertTrue(trainedCopy.err().contains("is not the one the run trained"), trainedCopy.err());

    Path exported = dir.resolve("script-exported");
    CliRun found = new CliRun();
    assertEquals(0, found.run("export-model", "--checkpoint", scriptCheckpoints.toString(), "--save-model",
        exported.toString(), "--model-file", moved.toString()), found.err());
    assertTrue(found.out().contains("model.pt: for torch.jit.load"), found.out());
    assertArrayEquals(state(scriptSaved), state(exported));
    assertArrayEquals(Files.readAllBytes(scriptSaved.resolve("weights.safetensors")),
        Files.readAllBytes(exported.resolve("weights.safetensors")), "the same weights under PyTorch's names");
    assertTrue(Files.size(exported.resolve("model.pt")) > 0);
  }

  @Test
  void aFormatOneCheckpointExportsOnceTheDataShapeIsGiven() throws Exception {
    Path old = dir.resolve("old-checkpoint.bin");
    Files.write(old, asFormatOne(Files.readAllBytes(newestCheckpoint().resolve("checkpoint.bin"))));
    Path exported = dir.resolve("exported-old");
    assertEquals(2, cli.run("export-model", "--checkpoint", old.toString(), "--save-model", exported.toString()));
    assertTrue(cli.err().contains("does not record the shape of the data") && cli.err().contains("--input-shape")
        && cli.err().contains("--classes"), cli.err());

    CliRun again = new CliRun();
    assertEquals(0, again.run("export-model", "--checkpoint", old.toString(), "--save-model", exported.toString(),
        "--input-shape", "3", "--classes", "3"), again.err());
    assertArrayEquals(state(saved), state(exported));

    CliRun wrong = new CliRun();
    assertEquals(2, wrong.run("export-model", "--checkpoint", old.toString(), "--save-model",
        dir.resolve("exported-wrong").toString(), "--input-shape", "4", "--classes", "3"));
    assertTrue(wrong.err().contains("floats of state") && wrong.err().contains("--input-shape"), wrong.err());
  }

  @Test
  void badInputFailsNamingThePathAndTheFix() throws Exception {
    Path missing = dir.resolve("no-such-checkpoints");
    assertEquals(2, cli.run("export-model", "--checkpoint", missing.toString(), "--save-model",
        dir.resolve("m1").toString()));
    assertTrue(cli.err().contains(missing + ": no such file or directory") && cli.err().contains("--checkpoint-dir"),
        cli.err());

    Path empty = Files.createDirectories(dir.resolve("empty-checkpoints"));
    CliRun none = new CliRun();
    assertEquals(2, none.run("export-model", "--checkpoint", empty.toString(), "--save-model",
        dir.resolve("m2").toString()));
    assertTrue(none.err().contains(empty + ": the directory holds no checkpoint"), none.err());

    Path corrupt = Files.createDirectories(dir.resolve("corrupt/ckpt-000000000010"));
    byte[] bytes = Files.readAllBytes(newestCheckpoint().resolve("checkpoint.bin"));
    bytes[bytes.length / 2] ^= 1;
    Files.write(corrupt.resolve("checkpoint.bin"), bytes);
    CliRun bad = new CliRun();
    assertEquals(2, bad.run("export-model", "--checkpoint", corrupt.toString(), "--save-model",
        dir.resolve("m3").toString()));
    assertTrue(bad.err().contains("SHA-256 mismatch") && bad.err().contains("checkpoint.bin"), bad.err());
    CliRun allBad = new CliRun();
    assertEquals(2, allBad.run("export-model", "--checkpoint", corrupt.getParent().toString(), "--save-model",
        dir.resolve("m3").toString()));
    assertTrue(allBad.err().contains("none of its 1 checkpoints verifies"), allBad.err());

    CliRun taken = new CliRun();
    assertEquals(2, taken.run("export-model", "--checkpoint", checkpoints.toString(), "--save-model",
        saved.toString()));
    assertTrue(taken.err().contains("Invalid --save-model = " + saved + ": it exists and is not an empty directory"),
        taken.err());

    CliRun noFlag = new CliRun();
    assertEquals(2, noFlag.run("export-model", "--save-model", dir.resolve("m4").toString()));
    assertTrue(noFlag.err().contains("Invalid --checkpoint"), noFlag.err());
  }

  @Test
  void helpListsTheCommandAndItsOwnHelpItsFlags() {
    assertEquals(0, cli.run("help"));
    assertTrue(cli.out().contains("dssync export-model --checkpoint PATH --save-model DIR"), cli.out());
    CliRun own = new CliRun();
    assertEquals(0, own.run("export-model", "--help"));
    assertTrue(own.out().contains("--model-file FILE") && own.out().contains("--input-shape"), own.out());
  }

  /**
   * The checkpoint re-encoded as format 1 wrote it: the same fields without the model record (here an int
   * length and the JSON after the settings), version 1, and a fresh SHA-256.
   */
  static byte[] asFormatOne(byte[] v2) throws Exception {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(v2, 0, v2.length - 32));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF(in.readUTF());
    assertEquals(2, in.readInt(), "a checkpoint of this build is format 2");
    out.writeInt(1);
    out.writeLong(in.readLong()); // step
    out.writeInt(in.readInt()); // stages done
    out.writeLong(in.readLong()); // total steps
    out.writeUTF(in.readUTF()); // run id
    out.writeLong(in.readLong()); // seed
    out.writeLong(in.readLong()); // optimizer steps
    int settings = in.readInt();
    out.writeInt(settings);
    for (int i = 0; i < 2 * settings; i++) {
      out.writeUTF(in.readUTF());
    }
    in.skipNBytes(in.readInt()); // the model record
    in.transferTo(out); // the state and the optimizer state
    out.flush();
    byte[] body = bytes.toByteArray();
    out.write(MessageDigest.getInstance("SHA-256").digest(body));
    return bytes.toByteArray();
  }
}
