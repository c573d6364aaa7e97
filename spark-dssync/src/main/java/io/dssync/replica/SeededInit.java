package io.dssync.replica;

import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Initial parameter values from the model seed with a Java RNG. The torch global generator is
 * shared by every replica in the JVM, so replicas built concurrently from one seed would not be
 * identical with it; this is.
 *
 * <p>Weights: He (Kaiming) uniform on fan-in, U(-sqrt(6/fanIn), sqrt(6/fanIn)), suited to the
 * ReLU networks here. Lookup tables (parameters named "embedding": token, position and field
 * embeddings) U(-0.05, 0.05): a table has no fan-in, and small rows keep attention scores and FM
 * pair products near zero at the start. Biases and BatchNorm beta 0, gamma 1, running mean 0,
 * running variance 1.
 */
final class SeededInit {
  static final String TABLE = "embedding";
  static final double TABLE_BOUND = 0.05;

  private SeededInit() {}

  /** Values for {@code params} laid out one after the other in list order. */
  static float[] values(List<Parameter> params, long seed, int total) {
    float[] out = new float[total];
    SplittableRandom random = new SplittableRandom(seed);
    int pos = 0;
    for (Parameter p : params) {
      Shape shape = p.getShape();
      int n = (int) shape.size();
      fill(out, pos, n, p.getType(), TABLE.equals(p.getName()) ? TABLE_BOUND : heBound(shape), random);
      pos += n;
    }
    return out;
  }

  /**
   * Values for the arrays of a TorchScript file by their PyTorch names, which carry no DJL types: a weight of
   * two or more dimensions He-uniform, a one-dimensional weight (a BatchNorm or LayerNorm scale) 1, biases 0,
   * running variances 1 and other buffers 0.
   */
  static float[] byName(List<String> names, List<ai.djl.ndarray.NDArray> arrays, long seed, int total) {
    float[] out = new float[total];
    SplittableRandom random = new SplittableRandom(seed);
    int pos = 0;
    for (int i = 0; i < arrays.size(); i++) {
      Shape shape = arrays.get(i).getShape();
      String name = names.get(i);
      int n = (int) shape.size();
      Parameter.Type type = name.endsWith("running_var") ? Parameter.Type.RUNNING_VAR
          : name.endsWith("weight") && shape.dimension() == 1 ? Parameter.Type.GAMMA
          : name.endsWith("weight") || name.endsWith(TABLE) ? Parameter.Type.WEIGHT
          : Parameter.Type.BIAS;
      fill(out, pos, n, type, name.endsWith(TABLE) ? TABLE_BOUND : heBound(shape), random);
      pos += n;
    }
    return out;
  }

  private static void fill(float[] out, int pos, int n, Parameter.Type type, double bound,
      SplittableRandom random) {
    switch (type) {
      case BIAS, BETA, RUNNING_MEAN -> { } // already zero
      case GAMMA, RUNNING_VAR -> java.util.Arrays.fill(out, pos, pos + n, 1f);
      default -> {
        for (int i = 0; i < n; i++) {
          out[pos + i] = (float) random.nextDouble(-bound, bound);
        }
      }
    }
  }

  private static double heBound(Shape shape) {
    return Math.sqrt(6.0 / fanIn(shape));
  }

  /** Inputs feeding one output unit: all dimensions but the first (out, in, kh, kw...). */
  private static long fanIn(Shape shape) {
    if (shape.dimension() < 2) {
      return Math.max(1, shape.size());
    }
    return Math.max(1, shape.size() / shape.get(0));
  }
}
