package io.dssync.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dssync.errors.FileErrors;
import io.dssync.errors.ModelErrors;
import io.dssync.models.FactoryModel;
import io.dssync.models.ModelSource;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.NamedTensor;
import io.dssync.train.FloatArrays;
import io.dssync.train.TrainedModel;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * Saves and loads {@link DsSyncClassificationModel} and {@link DsSyncRegressionModel} on any Hadoop file system
 * (the metadata's {@code class} says which; each class's reader refuses the other's files by name):
 * {@code <path>/metadata/part-00000} is one line of JSON in Spark ML's metadata layout (class, uid,
 * timestamp, sparkVersion, paramMap, defaultParamMap; so a PipelineModel can find our reader) plus
 * {@code formatVersion}, the model spec, the training summary and (deepfm) the field
 * cardinalities; {@code <path>/data/state.bin} is the flat state in the float layout checkpoints
 * use ({@link FloatArrays}).
 *
 * <p>{@code <path>/weights.safetensors} holds the same state cut into named tensors ({@link SafeTensors}):
 * PyTorch's parameter and buffer names for a model trained from a TorchScript file, DJL's parameter names
 * for a block, each with its real shape, and the model's kind, format version, spec and loss in its
 * {@code __metadata__}. It is for the rest of a user's stack (docs/model-format.md); the reader here never
 * opens it, since {@code state.bin} says the same.
 *
 * <p>A model trained from a TorchScript file also leaves {@code <path>/model.pt}: the trained file, which
 * {@code torch.jit.load} serves and {@code --model-file} trains again; the metadata's {@code source} says
 * where the model came from ({@code {"kind": "torchscript", "file": "model.pt"}} or
 * {@code {"kind": "factory", "class": ...}}; none for a built-in model).
 *
 * <p>Format versions: 1 (no {@code formatVersion} field; written before deepfm's category mapping
 * existed), 2 (adds {@code fieldCardinalities}) and 3 (adds {@code source}, {@code model.pt}, and the spec's
 * loss and label width). The reader branches on the version and refuses a newer one by name instead of
 * misreading it. The version counts what a reader must understand to load a model, so the weights file,
 * which no reader needs, is an addition within version 3: builds that read version 3 read these directories
 * unchanged (they ignore the extra file), and a version 3 directory written before it existed simply lacks
 * it (load and save it again to add one).
 */
final class ModelPersistence {
  static final String STATE_FILE = "data/state.bin";
  /** The version this build writes; it reads every version up to it. */
  static final int FORMAT_VERSION = 3;
  static final String SCRIPT_FILE = "model.pt";
  static final String WEIGHTS_FILE = "weights.safetensors";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelPersistence() {}

  static final class Writer extends MLWriter {
    private final Params model;
    private final ModelSpec spec;
    private final float[] state;
    private final TrainingSummary summary;
    private final int[] fieldCardinalities;

    Writer(DsSyncClassificationModel model) {
      this(model, model.spec(), model.state(), model.summary(), model.fieldCardinalities());
    }

    /** Any of the fitted models: its class name is what the readers check. */
    Writer(Params model, ModelSpec spec, float[] state, TrainingSummary summary, int[] fieldCardinalities) {
      this.model = model;
      this.spec = spec;
      this.state = state;
      this.summary = summary;
      this.fieldCardinalities = fieldCardinalities;
    }

    /** Spark's save opens the path's file system before saveImpl: a Java that Hadoop refuses fails there. */
    @Override
    public void save(String path) throws IOException {
      FileErrors.throughHadoop(path, () -> {
        super.save(path);
        return null;
      });
    }

    @Override
    public void saveImpl(String path) {
      try {
        ObjectNode meta = JSON.createObjectNode();
        meta.put("class", model.getClass().getName());
        meta.put("timestamp", System.currentTimeMillis());
        meta.put("sparkVersion", sparkSession().version());
        meta.put("uid", model.uid());
        meta.put("formatVersion", FORMAT_VERSION);
        meta.set("paramMap", params(model.extractParamMap().toSeq()));
        meta.set("defaultParamMap", JSON.createObjectNode());
        meta.set("spec", JSON.valueToTree(spec));
        meta.set("summary", JSON.valueToTree(summary));
        meta.set("fieldCardinalities", JSON.valueToTree(fieldCardinalities));
        FileSystem fs = fileSystem(path, sparkSession().sparkContext().hadoopConfiguration());
        ModelSource source = spec.modelSource();
        TrainedModel.Files files = new TrainedModel(spec, state).files();
        if (source instanceof TorchScriptModel) {
          meta.set("source", JSON.createObjectNode().put("kind", "torchscript").put("file", SCRIPT_FILE));
          try (OutputStream out = fs.create(new Path(path, SCRIPT_FILE), true)) {
            out.write(files.torchScript());
          }
        } else if (source instanceof FactoryModel factory) {
          meta.set("source", JSON.createObjectNode().put("kind", "factory").put("class", factory.className()));
        }
        try (OutputStream out = fs.create(new Path(path, "metadata/part-00000"), true)) {
          out.write((JSON.writeValueAsString(meta) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        try (DataOutputStream out = new DataOutputStream(
            new BufferedOutputStream(fs.create(new Path(path, STATE_FILE), true)))) {
          FloatArrays.write(out, state);
        }
        try (OutputStream out = new BufferedOutputStream(fs.create(new Path(path, WEIGHTS_FILE), true))) {
          SafeTensors.write(out, files.tensors(), state, weightsMetadata(spec, files.tensors()));
        }
      } catch (IOException | IllegalArgumentException e) {
        throw ModelErrors.modelFile(path, "cannot be written: " + e.getMessage());
      }
    }

    /**
     * The weights file's {@code __metadata__} (strings only, as the layout asks): {@code format: pt} (what
     * Hugging Face loaders check), then what the tensors belong to.
     */
    static Map<String, String> weightsMetadata(ModelSpec spec, List<NamedTensor> tensors) throws IOException {
      ModelSource source = spec.modelSource();
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put("format", "pt");
      meta.put("dssync.model_format_version", Integer.toString(FORMAT_VERSION));
      meta.put("dssync.source", source instanceof TorchScriptModel ? "torchscript"
          : source instanceof FactoryModel ? "factory" : "builtin");
      meta.put("dssync.model", source instanceof FactoryModel factory ? factory.className() : spec.name());
      meta.put("dssync.names", source instanceof TorchScriptModel ? "pytorch" : "djl");
      meta.put("dssync.loss", spec.lossKind().flagName());
      meta.put("dssync.num_classes", Integer.toString(spec.numClasses()));
      meta.put("dssync.label_width", Integer.toString(spec.labelWidth()));
      meta.put("dssync.trainable_tensors", Long.toString(tensors.stream().filter(NamedTensor::trainable).count()));
      meta.put("dssync.spec", JSON.writeValueAsString(spec));
      return meta;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ObjectNode params(scala.collection.Seq<ParamPair<?>> pairs) throws IOException {
      ObjectNode node = JSON.createObjectNode();
      scala.collection.Iterator<ParamPair<?>> it = pairs.iterator();
      while (it.hasNext()) {
        ParamPair pair = it.next();
        node.set(pair.param().name(), JSON.readTree(pair.param().jsonEncode(pair.value())));
      }
      return node;
    }
  }

  /** Reads {@link DsSyncClassificationModel}s. */
  static final class Reader extends ModelReader<DsSyncClassificationModel> {
    Reader() {
      super(DsSyncClassificationModel.class);
    }

    @Override
    DsSyncClassificationModel restore(String uid, ModelSpec spec, float[] state, TrainingSummary summary,
        FieldIds fieldIds) {
      return DsSyncClassificationModel.restore(uid, spec, state, summary, fieldIds);
    }
  }

  /** Reads {@link DsSyncRegressionModel}s. */
  static final class RegressionReader extends ModelReader<DsSyncRegressionModel> {
    RegressionReader() {
      super(DsSyncRegressionModel.class);
    }

    @Override
    DsSyncRegressionModel restore(String uid, ModelSpec spec, float[] state, TrainingSummary summary,
        FieldIds fieldIds) {
      return DsSyncRegressionModel.restore(uid, spec, state, summary);
    }
  }

  /**
   * The reading both model classes share; each reader takes only files of its own class, so a classifier's
   * directory given to the regression reader (or any other class) fails naming both classes.
   */
  abstract static class ModelReader<M extends Params> extends MLReader<M> {
    private final Class<M> type;

    ModelReader(Class<M> type) {
      this.type = type;
    }

    abstract M restore(String uid, ModelSpec spec, float[] state, TrainingSummary summary, FieldIds fieldIds);

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public M load(String path) {
      try {
        FileSystem fs = fileSystem(path, sparkSession().sparkContext().hadoopConfiguration());
        JsonNode meta = JSON.readTree(readMetadata(fs, path));
        String cls = meta.path("class").asText();
        if (!type.getName().equals(cls)) {
          throw ModelErrors.modelFile(path, "holds a " + cls + ", not a " + type.getName());
        }
        int version = meta.path("formatVersion").asInt(1);
        if (version < 1 || version > FORMAT_VERSION) {
          throw ModelErrors.modelFile(path, "has model format version " + version + "; this build of dssync reads"
              + " versions 1 to " + FORMAT_VERSION + ". Load it with the dssync version that saved it, or"
              + " upgrade this one");
        }
        ModelSpec spec = withSource(JSON.treeToValue(meta.get("spec"), ModelSpec.class), meta.path("source"), fs,
            path);
        TrainingSummary summary = JSON.treeToValue(meta.get("summary"), TrainingSummary.class);
        // Version 1 predates deepfm's category mapping: its models read ids as they are.
        JsonNode cardinalities = version >= 2 ? meta.get("fieldCardinalities") : null;
        FieldIds fieldIds = cardinalities == null || cardinalities.isNull() ? null
            : new FieldIds(JSON.treeToValue(cardinalities, int[].class));
        float[] state = readState(fs, path);
        M model = restore(meta.get("uid").asText(), spec, state, summary, fieldIds);
        Iterator<Map.Entry<String, JsonNode>> params = meta.get("paramMap").fields();
        while (params.hasNext()) {
          Map.Entry<String, JsonNode> e = params.next();
          Param param = model.getParam(e.getKey());
          model.set(param, param.jsonDecode(JSON.writeValueAsString(e.getValue())));
        }
        return model;
      } catch (IOException | RuntimeException e) {
        if (e instanceof io.dssync.errors.DsSyncException d) {
          throw d;
        }
        throw ModelErrors.modelFile(path, "cannot be read: " + e);
      }
    }

    /** The spec with the source the metadata names: a TorchScript file beside it, a factory class, or built in. */
    private static ModelSpec withSource(ModelSpec spec, JsonNode source, FileSystem fs, String path)
        throws IOException {
      String kind = source.path("kind").asText("");
      if (kind.equals("torchscript")) {
        Path file = new Path(path, source.path("file").asText(SCRIPT_FILE));
        byte[] bytes;
        try (InputStream in = fs.open(file)) {
          bytes = in.readAllBytes();
        }
        return spec.withSource(TorchScriptModel.of(file.toString(), bytes), spec.loss());
      }
      if (kind.equals("factory")) {
        return spec.withSource(new FactoryModel(source.path("class").asText()), spec.loss());
      }
      return spec;
    }

    private static String readMetadata(FileSystem fs, String path) throws IOException {
      for (FileStatus f : fs.listStatus(new Path(path, "metadata"))) {
        if (f.getPath().getName().startsWith("part-")) {
          try (InputStream in = fs.open(f.getPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
        }
      }
      throw ModelErrors.modelFile(path, "has no metadata/part-* file");
    }

    private static float[] readState(FileSystem fs, String path) throws IOException {
      Path file = new Path(path, STATE_FILE);
      long floats = (fs.getFileStatus(file).getLen() - Integer.BYTES) / Float.BYTES;
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(fs.open(file)))) {
        return FloatArrays.read(in, floats);
      }
    }
  }

  private static FileSystem fileSystem(String path, Configuration conf) throws IOException {
    return FileErrors.throughHadoop(path, () -> new Path(path).getFileSystem(conf));
  }
}
