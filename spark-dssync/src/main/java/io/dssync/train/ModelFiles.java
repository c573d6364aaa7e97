package io.dssync.train;

import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import io.dssync.models.BuiltInModel;
import io.dssync.models.FactoryModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSource;
import io.dssync.models.ModelSpec;
import io.dssync.models.ScriptBytes;
import io.dssync.models.TorchScriptModel;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * The model a fit trains, as the settings name it: {@code --model-file} (read once here, on the driver),
 * {@code --model-factory}, or the built-in {@code --model}; and the loss, {@code --loss} or the model's own.
 */
public final class ModelFiles {
  private ModelFiles() {}

  /** The source the settings choose; a model file is read from any Hadoop file system with {@code hadoopConf}. */
  public static ModelSource source(TrainerConfig config, Configuration hadoopConf) {
    if (!config.hasOwnModel()) {
      return new BuiltInModel(config.get(TrainerConfig.MODEL));
    }
    String factory = config.get(TrainerConfig.MODEL_FACTORY);
    if (!factory.isEmpty()) {
      FactoryModel model = new FactoryModel(factory);
      model.factory(); // fails here, on the driver, for a class missing from the driver's class path too
      return model;
    }
    String file = config.get(TrainerConfig.MODEL_FILE);
    TorchScriptModel model = TorchScriptModel.of(file, read(file, hadoopConf));
    return "seeded".equals(config.get(TrainerConfig.MODEL_INIT)) ? model.seededWeights() : model;
  }

  /**
   * The spec of the model the settings choose for {@code data}: labels are classes for a loss of classes,
   * else real values of the data's label width; checked against what the model reads and outputs.
   */
  public static ModelSpec spec(TrainerConfig config, TrainingData data, ModelSource source) {
    LossKind loss = config.loss() != null ? config.loss() : source.defaultLoss();
    int classes = loss.classLabels() ? data.numClasses() : 0;
    String name = source instanceof BuiltInModel b ? b.name() : source.describe();
    ModelSpec spec = new ModelSpec(name, data.channels(), data.height(), data.width(), classes,
        config.get(TrainerConfig.SEED), data.vocabSize(), data.labelWidth(), loss, source);
    source.check(spec);
    return spec;
  }

  /**
   * The spec that stages ship to executors: a TorchScript file's bytes go behind one broadcast, which each
   * executor fetches once; closing it frees the broadcast.
   */
  public static Shipped ship(ModelSpec spec, JavaSparkContext jsc) {
    if (!(spec.modelSource() instanceof TorchScriptModel file)) {
      return new Shipped(spec, null);
    }
    Broadcast<byte[]> bytes = jsc.broadcast(file.bytes().get());
    return new Shipped(spec.withSource(file.shippedAs(new Broadcasted(bytes)), spec.loss()), bytes);
  }

  /** A spec as stages ship it, and the broadcast it holds (null for none). */
  public record Shipped(ModelSpec spec, Broadcast<byte[]> broadcast) implements AutoCloseable {
    @Override
    public void close() {
      if (broadcast != null) {
        broadcast.destroy();
      }
    }
  }

  private static byte[] read(String file, Configuration hadoopConf) {
    try {
      Path path = new Path(file);
      return FileErrors.throughHadoop(file, () -> {
        try (InputStream in = path.getFileSystem(hadoopConf).open(path)) {
          return in.readAllBytes();
        }
      });
    } catch (FileNotFoundException e) {
      throw Errors.invalidFlag("modelFile", file, "no such file", "Give the path of a TorchScript file written by"
          + " python/dssync_export.py (file://, hdfs://, s3a:// or a local path).");
    } catch (IOException | IllegalArgumentException e) {
      throw Errors.invalidFlag("modelFile", file, "it cannot be read (" + e + ")",
          "Check the path and that this user may read it.");
    }
  }

  /** TorchScript bytes behind a broadcast: read on the driver once, fetched once per executor. */
  record Broadcasted(Broadcast<byte[]> bytes) implements ScriptBytes {
    @Override
    public byte[] get() {
      return bytes.value();
    }
  }
}
