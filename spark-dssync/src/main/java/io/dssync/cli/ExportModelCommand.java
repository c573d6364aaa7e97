package io.dssync.cli;

import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import io.dssync.errors.ModelErrors;
import io.dssync.launch.CommandFlags;
import io.dssync.ml.TrainedModels;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.train.Checkpoint;
import io.dssync.train.CheckpointStore;
import io.dssync.train.CheckpointedModel;
import io.dssync.train.TrainedModel;
import io.dssync.train.TrainingResult;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * {@code dssync export-model}: a checkpoint of {@code dssync train --checkpoint-dir} made into the model
 * directory {@code --save-model} writes (a regression or a classification model by the loss), so that a run stopped
 * early, or any stage of a finished one, leaves a usable model.
 */
final class ExportModelCommand {
  static final String CHECKPOINT = "--checkpoint";
  static final String SAVE_MODEL = "--save-model";
  static final String MODEL_FILE = "--model-file";
  static final String INPUT_SHAPE = "--input-shape";
  static final String CLASSES = "--classes";
  static final String LABEL_WIDTH = "--label-width";
  static final String VOCAB_SIZE = "--vocab-size";
  private static final Set<String> FLAGS = Set.of(CHECKPOINT, SAVE_MODEL, MODEL_FILE, INPUT_SHAPE, CLASSES,
      LABEL_WIDTH, VOCAB_SIZE);

  static final String USAGE = """
      Usage: dssync export-model --checkpoint PATH --save-model DIR [--model-file FILE]

      Writes the model of a checkpoint (dssync train --checkpoint-dir) as the model directory that
      --save-model writes: Spark ML metadata, data/state.bin, weights.safetensors, and model.pt for a
      model trained from a TorchScript file (docs/model-format.md). Paths may be on any Hadoop file system.
        --checkpoint PATH   the run's --checkpoint-dir (its newest checkpoint that verifies), one
                            ckpt-<step> directory in it, or that directory's checkpoint.bin
        --save-model DIR    the model directory to write; it must not exist or be empty
        --model-file FILE   the TorchScript file the run trained, when it has moved since (its SHA-256
                            must match the one the checkpoint recorded)
      Checkpoints of dssync builds before checkpoint format 2 do not record the data's shape; for them give
        --input-shape C,H,W  one example's shape (a single number for flat features)
        --classes N         the classes of a class task (0 for real-valued labels)
        --label-width W     floats per label (default 1)
        --vocab-size V      distinct ids of a text or click-log model (default 0)
      """;

  private ExportModelCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      out.print(USAGE);
      return 0;
    }
    CommandFlags flags = CommandFlags.parse(args, FLAGS);
    String checkpointPath = required(flags, CHECKPOINT, "the run's --checkpoint-dir");
    String target = required(flags, SAVE_MODEL, "a new directory for the model");
    Configuration hadoop = new Configuration();
    requireEmptyTarget(target, hadoop);
    CheckpointStore.Loaded loaded = CheckpointStore.open(checkpointPath, hadoop);
    loaded.skipped().forEach(line -> err.println("[dssync] warning: skipped checkpoint " + line));
    Checkpoint checkpoint = loaded.checkpoint().orElseThrow();
    CheckpointedModel recorded = checkpoint.model() != null ? checkpoint.model()
        : fromFlags(checkpoint, loaded.path(), flags);
    ModelSpec spec = recorded.restore(flags.string(MODEL_FILE, ""), loaded.path(), hadoop);
    requireStateFits(spec, checkpoint, loaded.path());
    TrainingResult result = new TrainingResult(new TrainedModel(spec, checkpoint.state()), List.of(),
        "exported from checkpoint " + loaded.path() + " (step " + checkpoint.step() + " of "
            + checkpoint.totalSteps() + ")", checkpoint.step(), 0, List.of(), 0, -1, null, -1);
    // A session already running in this JVM (a notebook, a test) is used and left running.
    scala.Option<SparkSession> running = SparkSession.getDefaultSession();
    SparkSession spark = running.isDefined() ? running.get() : localSession();
    try {
      // The target is absent or empty (checked above): overwriting only lets the writer use an empty one.
      TrainedModels.of(result).write().session(spark).overwrite().save(target);
    } catch (IOException e) {
      throw ModelErrors.modelFile(target, "cannot be written: " + e.getMessage());
    } finally {
      if (running.isEmpty()) {
        spark.stop();
      }
    }
    out.printf(Locale.ROOT, "dssync export-model: %s (step %d of %d) -> %s%s%n", loaded.path(), checkpoint.step(),
        checkpoint.totalSteps(), target, spec.modelSource() instanceof TorchScriptModel
            ? " (model.pt: for torch.jit.load)" : "");
    return 0;
  }

  private static String required(CommandFlags flags, String flag, String what) {
    String value = flags.string(flag, "");
    if (value.isEmpty()) {
      throw Errors.invalidSetting(flag, "(nothing)", "dssync export-model needs " + what,
          "Run dssync export-model " + CHECKPOINT + " CHECKPOINT_DIR " + SAVE_MODEL + " MODEL_DIR.");
    }
    return value;
  }

  /** Refused before any work: a model directory written over another one would mix two models' files. */
  private static void requireEmptyTarget(String target, Configuration hadoop) {
    try {
      Path path = new Path(target);
      FileSystem fs = FileErrors.throughHadoop(target, () -> path.getFileSystem(hadoop));
      if (!fs.exists(path)) {
        return;
      }
      FileStatus status = fs.getFileStatus(path);
      if (status.isFile() || fs.listStatus(path).length > 0) {
        throw Errors.invalidSetting(SAVE_MODEL, target, "it exists and is not an empty directory",
            "Choose a new directory, or delete this one first if it holds nothing you need.");
      }
    } catch (IOException e) {
      throw ModelErrors.modelFile(target, "cannot be checked: " + e.getMessage());
    }
  }

  /** A version 1 checkpoint's model, from its settings and the data's shape given as flags. */
  private static CheckpointedModel fromFlags(Checkpoint checkpoint, String path, CommandFlags flags) {
    String fix = "It was written by a dssync build before checkpoint format 2, so pass the data's shape as the"
        + " training run saw it: " + INPUT_SHAPE + " C,H,W (e.g. 1,28,28 for Fashion-MNIST, or the number of"
        + " features of a table) and " + CLASSES + " N (0 for real-valued labels), with " + LABEL_WIDTH + " and "
        + VOCAB_SIZE + " where the data had them.";
    if (!flags.has(INPUT_SHAPE) || !flags.has(CLASSES)) {
      throw FileErrors.checkpointExport(path, "it does not record the shape of the data the model was built for", fix);
    }
    int[] shape = inputShape(flags.string(INPUT_SHAPE, ""));
    return CheckpointedModel.fromSettings(checkpoint.settings(), shape[0], shape[1], shape[2],
        flags.integer(CLASSES, 0, 0, Integer.MAX_VALUE), flags.integer(VOCAB_SIZE, 0, 0, Integer.MAX_VALUE),
        flags.integer(LABEL_WIDTH, 1, 1, Integer.MAX_VALUE));
  }

  /** C,H,W; H,W (one channel); or W (flat features). */
  static int[] inputShape(String text) {
    String[] parts = text.split(",");
    try {
      int[] dims = Arrays.stream(parts).mapToInt(p -> Integer.parseInt(p.trim())).toArray();
      if (dims.length >= 1 && dims.length <= 3 && Arrays.stream(dims).allMatch(d -> d > 0)) {
        int[] chw = {1, 1, 1};
        System.arraycopy(dims, 0, chw, 3 - dims.length, dims.length);
        return chw;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(INPUT_SHAPE, text, "it must be one to three positive sizes",
        "Pass e.g. " + INPUT_SHAPE + " 1,28,28, or " + INPUT_SHAPE + " 10 for ten features.");
  }

  /** The checkpoint's state must be exactly the model's: a wrong shape given for an old checkpoint shows here. */
  private static void requireStateFits(ModelSpec spec, Checkpoint checkpoint, String path) {
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      if (replica.stateSize() != checkpoint.state().length) {
        throw FileErrors.checkpointExport(path, "it holds " + checkpoint.state().length + " floats of state, but "
            + spec.modelSource().describe() + " for " + spec.channels() + "x" + spec.height() + "x" + spec.width()
            + " inputs and " + spec.outputSize() + " outputs has " + replica.stateSize(), checkpoint.model() == null
            ? "Pass the data's shape as the training run saw it (" + INPUT_SHAPE + ", " + CLASSES + ", "
                + LABEL_WIDTH + ", " + VOCAB_SIZE + ")." : "Pass the checkpoint of this model's run.");
      }
    }
  }

  /** Spark ML's writer needs a session; one local thread is enough to write files. */
  private static SparkSession localSession() {
    return SparkSession.builder().master("local[1]").appName("dssync-export-model")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }
}
