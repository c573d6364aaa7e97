package io.dssync.replica;

import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import java.util.SplittableRandom;

/**
 * A small deterministic classification task for engine unit tests: each class has a fixed random
 * +-1 template image and an example is its class template plus Gaussian noise. It shows that the
 * engine trains; accuracy claims belong to runs on real data.
 */
public final class Synthetic {
  private Synthetic() {}

  public static LabeledArrays templates(ModelSpec spec, int count, float noise, long seed) {
    int fs = spec.featureSize();
    int classes = spec.numClasses();
    SplittableRandom templateRandom = new SplittableRandom(12345);
    float[][] template = new float[classes][fs];
    for (float[] t : template) {
      for (int j = 0; j < fs; j++) {
        t[j] = templateRandom.nextBoolean() ? 1f : -1f;
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    float[] features = new float[count * fs];
    int[] labels = new int[count];
    for (int i = 0; i < count; i++) {
      int label = random.nextInt(classes);
      labels[i] = label;
      for (int j = 0; j < fs; j++) {
        features[i * fs + j] = template[label][j] + noise * (float) random.nextGaussian();
      }
    }
    return new LabeledArrays(features, labels, fs, classes);
  }

  /** Examples {@code from .. from+n-1} of {@code data}. */
  public static LabeledArrays slice(LabeledArrays data, int from, int n) {
    int fs = data.featureSize();
    float[] f = new float[n * fs];
    System.arraycopy(data.features(), from * fs, f, 0, n * fs);
    float[] l = new float[n];
    System.arraycopy(data.labels(), from, l, 0, n);
    return new LabeledArrays(f, l, fs, data.labelSpec());
  }

  public static float[] state(ModelReplica replica) {
    float[] s = new float[replica.stateSize()];
    replica.readState(s);
    return s;
  }

  public static float[] optimizerState(ModelReplica replica) {
    float[] s = new float[replica.optimizerStateSize()];
    replica.readOptimizerState(s);
    return s;
  }

  /** Trains {@code steps} steps on consecutive batches of {@code data} (wrapping around). */
  public static float[] train(ModelReplica replica, LabeledArrays data, int batch, int steps, float lr) {
    float[] losses = new float[steps];
    for (int s = 0; s < steps; s++) {
      int from = (s * batch) % (data.size() - batch + 1);
      LabeledArrays b = slice(data, from, batch);
      losses[s] = replica.trainStep(b.features(), b.labels(), batch, lr);
    }
    return losses;
  }
}
