package io.dssync.train;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dssync.errors.FileErrors;
import io.dssync.models.FactoryModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSource;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * What a checkpoint records of its model, so that it becomes a model directory without the training data:
 * the {@link ModelSpec} (input shape, classes, label width, vocabulary, loss, seed) as JSON, and where the
 * model came from: built in, a factory class, or a TorchScript file by path and SHA-256.
 *
 * <p>A TorchScript file is recorded by reference, not by content: it does not change during a run, and its
 * bytes (its own copy of every weight) would otherwise be written again with every checkpoint. Exporting
 * reads it again, from the recorded path or from one the user names, and the digest proves it is the file
 * the run trained: another file could have the same shapes and a different forward pass.
 */
public record CheckpointedModel(ModelSpec spec, String sourceKind, String reference, String sha256) {
  static final String BUILT_IN = "builtin";
  static final String FACTORY = "factory";
  static final String TORCHSCRIPT = "torchscript";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The record of {@code spec} as a run trains it (a TorchScript file's bytes are in the spec's source). */
  public static CheckpointedModel of(ModelSpec spec) {
    ModelSource source = spec.modelSource();
    if (source instanceof TorchScriptModel file) {
      return new CheckpointedModel(spec, TORCHSCRIPT, file.path(), sha256(file.bytes().get()));
    }
    if (source instanceof FactoryModel factory) {
      return new CheckpointedModel(spec, FACTORY, factory.className(), null);
    }
    return new CheckpointedModel(spec, BUILT_IN, null, null);
  }

  /**
   * The record a version 1 checkpoint lacks, rebuilt from its {@code settings} (model, model file or factory,
   * loss, seed) and the data's shape, which the user gives again: channels, height and width of one example,
   * the classes of a class task, the id vocabulary (0 for dense inputs) and the label width.
   */
  public static CheckpointedModel fromSettings(Map<String, String> settings, int channels, int height, int width,
      int numClasses, int vocabSize, int labelWidth) {
    String file = settings.getOrDefault(TrainerConfig.MODEL_FILE.name(), "");
    String factory = settings.getOrDefault(TrainerConfig.MODEL_FACTORY.name(), "");
    String model = settings.getOrDefault(TrainerConfig.MODEL.name(), TrainerConfig.MODEL.defaultValue());
    String kind = !file.isEmpty() ? TORCHSCRIPT : !factory.isEmpty() ? FACTORY : BUILT_IN;
    String name = kind.equals(TORCHSCRIPT) ? "TorchScript file " + file
        : kind.equals(FACTORY) ? new FactoryModel(factory).describe() : model;
    LossKind loss = LossKind.ofFlag(settings.get(TrainerConfig.LOSS.name()));
    long seed = Long.parseLong(settings.getOrDefault(TrainerConfig.SEED.name(), "0"));
    ModelSpec spec = new ModelSpec(name, channels, height, width, numClasses, seed, vocabSize, labelWidth, loss, null);
    return new CheckpointedModel(spec, kind, kind.equals(TORCHSCRIPT) ? file : kind.equals(FACTORY) ? factory : null,
        null);
  }

  String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.set("spec", JSON.valueToTree(spec));
    ObjectNode source = root.putObject("source").put("kind", sourceKind);
    if (reference != null) {
      source.put(sourceKind.equals(FACTORY) ? "class" : "file", reference);
    }
    if (sha256 != null) {
      source.put("sha256", sha256);
    }
    return root.toString();
  }

  static CheckpointedModel fromJson(String json) throws IOException {
    JsonNode root = JSON.readTree(json);
    JsonNode source = root.path("source");
    String kind = source.path("kind").asText(BUILT_IN);
    String reference = kind.equals(FACTORY) ? source.path("class").asText(null) : source.path("file").asText(null);
    return new CheckpointedModel(JSON.treeToValue(root.get("spec"), ModelSpec.class), kind, reference,
        source.path("sha256").asText(null));
  }

  /**
   * The spec with its source restored, ready to build the model: a factory class from the class path, a
   * TorchScript file read from {@code modelFile} (when given) or the recorded path, and checked against the
   * recorded digest. {@code checkpoint} names the checkpoint in errors.
   */
  public ModelSpec restore(String modelFile, String checkpoint, Configuration hadoopConf) {
    ModelSpec restored = withSource(modelFile, checkpoint, hadoopConf);
    // A loss of real values has no classes (the check below refuses them): a spec rebuilt from settings and
    // flags may carry some, since the file's default loss is known only now. A recorded spec never does.
    if (!restored.lossKind().classLabels() && restored.lossKind() != LossKind.CUSTOM && restored.numClasses() != 0) {
      restored = new ModelSpec(restored.name(), restored.channels(), restored.height(), restored.width(), 0,
          restored.seed(), restored.vocabSize(), restored.labelWidth(), restored.loss(), restored.source());
    }
    restored.modelSource().check(restored);
    return restored;
  }

  private ModelSpec withSource(String modelFile, String checkpoint, Configuration hadoopConf) {
    switch (sourceKind) {
      case TORCHSCRIPT -> {
        String path = modelFile == null || modelFile.isEmpty() ? reference : modelFile;
        byte[] bytes = readScript(path, checkpoint, hadoopConf);
        String found = sha256(bytes);
        if (sha256 != null && !sha256.equals(found)) {
          throw FileErrors.checkpointExport(checkpoint, "the TorchScript file " + path + " is not the one the run"
              + " trained (SHA-256 " + found + ", the checkpoint recorded " + sha256 + " for " + reference + ")",
              "Pass --model-file with the file the run was started with (the model.pt of its --save-model"
                  + " directory will not do: it holds trained weights, so its digest differs).");
        }
        return spec.withSource(TorchScriptModel.of(path, bytes), spec.loss());
      }
      case FACTORY -> {
        FactoryModel factory = new FactoryModel(reference);
        factory.factory(); // a class missing from this class path fails here, naming it
        return spec.withSource(factory, spec.loss());
      }
      default -> {
        return spec;
      }
    }
  }

  /** A TorchScript file's bytes; a file gone from where the run read it is named with what to pass. */
  static byte[] readScript(String path, String checkpoint, Configuration hadoopConf) {
    try {
      Path p = new Path(path);
      return FileErrors.throughHadoop(path, () -> {
        try (InputStream in = p.getFileSystem(hadoopConf).open(p)) {
          return in.readAllBytes();
        }
      });
    } catch (FileNotFoundException e) {
      throw FileErrors.checkpointExport(checkpoint, "the run trained the TorchScript file " + path
          + ", which no longer exists there", "Pass --model-file with the file's new path.");
    } catch (IOException | IllegalArgumentException e) {
      throw FileErrors.checkpointExport(checkpoint, "its TorchScript file " + path + " cannot be read (" + e + ")",
          "Check the path and that this user may read it, or pass --model-file with a copy.");
    }
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
