package io.dssync.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dssync.errors.Errors;
import io.dssync.models.ModelSpec;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * Saves and loads {@link DsSyncClassificationModel} on any Hadoop file system:
 * {@code <path>/metadata/part-00000} is one line of JSON in Spark ML's metadata layout (class, uid,
 * timestamp, sparkVersion, paramMap, defaultParamMap; so a PipelineModel can find our reader) plus
 * the model spec and the training summary; {@code <path>/data/state.bin} is the flat state
 * (int count, then big-endian floats).
 */
final class ModelPersistence {
  static final String STATE_FILE = "data/state.bin";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelPersistence() {}

  static final class Writer extends MLWriter {
    private final DsSyncClassificationModel model;

    Writer(DsSyncClassificationModel model) {
      this.model = model;
    }

    @Override
    public void saveImpl(String path) {
      try {
        ObjectNode meta = JSON.createObjectNode();
        meta.put("class", DsSyncClassificationModel.class.getName());
        meta.put("timestamp", System.currentTimeMillis());
        meta.put("sparkVersion", sparkSession().version());
        meta.put("uid", model.uid());
        meta.set("paramMap", params(model.extractParamMap().toSeq()));
        meta.set("defaultParamMap", JSON.createObjectNode());
        meta.set("spec", JSON.valueToTree(model.spec()));
        meta.set("summary", JSON.valueToTree(model.summary()));
        FileSystem fs = fileSystem(path, sparkSession().sparkContext().hadoopConfiguration());
        try (OutputStream out = fs.create(new Path(path, "metadata/part-00000"), true)) {
          out.write((JSON.writeValueAsString(meta) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        float[] state = model.state();
        try (DataOutputStream out = new DataOutputStream(fs.create(new Path(path, STATE_FILE), true))) {
          out.writeInt(state.length);
          for (float v : state) {
            out.writeFloat(v);
          }
        }
      } catch (IOException e) {
        throw Errors.modelFile(path, "cannot be written: " + e.getMessage());
      }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ObjectNode params(scala.collection.immutable.Seq<ParamPair<?>> pairs) throws IOException {
      ObjectNode node = JSON.createObjectNode();
      scala.collection.Iterator<ParamPair<?>> it = pairs.iterator();
      while (it.hasNext()) {
        ParamPair pair = it.next();
        node.set(pair.param().name(), JSON.readTree(pair.param().jsonEncode(pair.value())));
      }
      return node;
    }
  }

  static final class Reader extends MLReader<DsSyncClassificationModel> {
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public DsSyncClassificationModel load(String path) {
      try {
        FileSystem fs = fileSystem(path, sparkSession().sparkContext().hadoopConfiguration());
        JsonNode meta = JSON.readTree(readMetadata(fs, path));
        String cls = meta.path("class").asText();
        if (!DsSyncClassificationModel.class.getName().equals(cls)) {
          throw Errors.modelFile(path, "holds a " + cls + ", not a " + DsSyncClassificationModel.class.getName());
        }
        ModelSpec spec = JSON.treeToValue(meta.get("spec"), ModelSpec.class);
        TrainingSummary summary = JSON.treeToValue(meta.get("summary"), TrainingSummary.class);
        float[] state = readState(fs, path);
        DsSyncClassificationModel model =
            DsSyncClassificationModel.restore(meta.get("uid").asText(), spec, state, summary);
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
        throw Errors.modelFile(path, "cannot be read: " + e);
      }
    }

    private static String readMetadata(FileSystem fs, String path) throws IOException {
      for (FileStatus f : fs.listStatus(new Path(path, "metadata"))) {
        if (f.getPath().getName().startsWith("part-")) {
          try (InputStream in = fs.open(f.getPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
        }
      }
      throw Errors.modelFile(path, "has no metadata/part-* file");
    }

    private static float[] readState(FileSystem fs, String path) throws IOException {
      try (DataInputStream in = new DataInputStream(fs.open(new Path(path, STATE_FILE)))) {
        float[] state = new float[in.readInt()];
        for (int i = 0; i < state.length; i++) {
          state[i] = in.readFloat();
        }
        return state;
      }
    }
  }

  private static FileSystem fileSystem(String path, Configuration conf) throws IOException {
    return new Path(path).getFileSystem(conf);
  }
}
