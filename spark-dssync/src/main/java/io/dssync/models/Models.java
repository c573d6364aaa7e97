package io.dssync.models;

import ai.djl.nn.Block;
import io.dssync.errors.Errors;
import io.dssync.replica.ModelSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The model registry: maps a {@link ModelSpec#name()} to the DJL block that implements it.
 *
 * <p>To add a model, write a class with a static {@code build(ModelSpec)} method and add one line
 * to {@link #REGISTRY}. Blocks are returned uninitialised; the replica initialises the parameters
 * from the spec's seed, so builders must not draw random numbers themselves.
 */
public final class Models {
  private static final Map<String, Function<ModelSpec, Block>> REGISTRY = new LinkedHashMap<>();

  static {
    REGISTRY.put(Mlp.NAME, Mlp::build);
    REGISTRY.put(SmallCnn.NAME, SmallCnn::build);
  }

  private Models() {}

  /** Builds the (uninitialised) block for {@code spec}, which takes (batch, C, H, W) input. */
  public static Block build(ModelSpec spec) {
    Function<ModelSpec, Block> builder = REGISTRY.get(spec.name());
    if (builder == null) {
      throw Errors.unknownName("model", spec.name(), names());
    }
    checkShape(spec);
    return builder.apply(spec);
  }

  /** The known model names, in registration order. */
  public static String[] names() {
    return REGISTRY.keySet().toArray(new String[0]);
  }

  private static void checkShape(ModelSpec spec) {
    positive("model.channels", spec.channels());
    positive("model.height", spec.height());
    positive("model.width", spec.width());
    if (spec.numClasses() < 2) {
      throw Errors.invalidSetting("model.numClasses", spec.numClasses(), "must be at least 2",
          "Set it to the number of classes of the dataset (10 for Fashion-MNIST and CIFAR-10).");
    }
  }

  private static void positive(String key, int value) {
    if (value < 1) {
      throw Errors.invalidSetting(key, value, "must be at least 1",
          "Set the input shape to the dataset's channels x height x width.");
    }
  }
}
