package io.dssync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.testing.TorchScripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Training throughput of one TorchScript replica against the same architecture as a built-in block, and
 * against eager PyTorch: samples/s of SGD steps (momentum 0.9, batch 64, one intra-op thread) of
 * <ul>
 *   <li>{@code built-in}: a replica of the built-in "cnn" (io.dssync.models.SmallCnn);
 *   <li>{@code torchscript}: a replica of {@code python/examples/small_cnn.py}, the same layers as a PyTorch
 *       module, exported by {@code python/dssync_export.py};
 *   <li>{@code eager-pytorch}: that module trained by {@code train_reference.py --throughput} in
 *       python3-torch (another libtorch than DJL's, so this ratio also compares libtorch builds);
 *   <li>{@code torchscript-pytorch}: the exported file trained by the same script.
 * </ul>
 * One fixed random batch for every contestant, as train_reference.py does. A noisy shared machine drifts,
 * so the contestants take turns in rounds (the order reversed every other round) and the table shows the
 * median over rounds; warm-up steps are not timed (the JIT profiling executor optimises a TorchScript
 * graph only after its first runs). A measurement, not a test (nothing is asserted about time), so it runs
 * only by hand:
 * {@code mvn -pl spark-dssync -am test -Dtest=TorchScriptThroughputBench -Ddssync.bench=true
 * [-Ddssync.benchRounds=5 -Ddssync.benchSteps=30 -Ddssync.benchWarmup=10]}.
 * {@link TorchScriptThroughputBenchTest} runs its pieces on two steps in the ordinary suite.
 */
class TorchScriptThroughputBench {
  static final int BATCH = 64;
  static final int CLASSES = 10;
  static final double MOMENTUM = 0.9;
  /**
   * Small enough that many steps on one batch neither diverge nor drive gradients to denormals, either of
   * which would time something other than the usual arithmetic.
   */
  static final float LR = 0.01f;
  /** The built-in cnn's parameters for 1x28x28 and 10 classes: convolutions, BatchNorm scales, dense layers. */
  static final int PARAMETERS = 421_834;
  static final String BUILT_IN = "built-in";
  static final String SCRIPT = "torchscript";
  static final String EAGER = "eager-pytorch";
  static final String SCRIPT_IN_PYTORCH = "torchscript-pytorch";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void samplesPerSecondOfTorchScriptBuiltInAndEagerPyTorch() {
    assumeTrue(Boolean.getBoolean("dssync.bench"), "a measurement; run with -Ddssync.bench=true");
    TorchScripts.requireTorch();
    int rounds = Integer.getInteger("dssync.benchRounds", 5);
    int steps = Integer.getInteger("dssync.benchSteps", 30);
    int warmup = Integer.getInteger("dssync.benchWarmup", 10);
    double loadBefore = loadAverage();
    Map<String, List<Double>> results = run(dir, rounds, steps, warmup);
    System.out.print(table(results, rounds, steps, warmup));
    System.out.printf("[torchscript] load average (1 min) %.2f before, %.2f after, on %d cores%n", loadBefore,
        loadAverage(), Runtime.getRuntime().availableProcessors());
  }

  /** Exports small_cnn.py and times every contestant, {@code rounds} times {@code steps} steps: samples/s per round. */
  static Map<String, List<Double>> run(Path dir, int rounds, int steps, int warmup) {
    Path file = TorchScripts.export(dir.resolve("small_cnn.pt"), "small_cnn:SmallCnn", "{}", "1,28,28", CLASSES, null);
    float[][] batch = batch();
    Map<String, List<Double>> results = new LinkedHashMap<>();
    for (String name : List.of(BUILT_IN, SCRIPT, EAGER, SCRIPT_IN_PYTORCH)) {
      results.put(name, new ArrayList<>());
    }
    try (ModelReplica builtIn = Replicas.create(builtInSpec(), OptimizerSpec.sgd(MOMENTUM, 0), 1);
        ModelReplica script = Replicas.create(scriptSpec(file), OptimizerSpec.sgd(MOMENTUM, 0), 1)) {
      assertEquals(PARAMETERS, builtIn.trainableSize(), "built-in cnn parameters");
      assertEquals(builtIn.trainableSize(), script.trainableSize(), "small_cnn.py parameters differ from the cnn's");
      assertEquals(builtIn.stateSize(), script.stateSize(), "small_cnn.py BatchNorm statistics differ from the cnn's");
      steps(builtIn, batch, warmup);
      steps(script, batch, warmup);
      for (int r = 0; r < rounds; r++) {
        List<String> order = new ArrayList<>(results.keySet());
        if (r % 2 == 1) {
          Collections.reverse(order);
        }
        for (String name : order) {
          double samplesPerS = switch (name) {
            case BUILT_IN -> replicaSamplesPerSecond(builtIn, batch, steps);
            case SCRIPT -> replicaSamplesPerSecond(script, batch, steps);
            case EAGER -> pytorchSamplesPerSecond(List.of("--module", "examples.small_cnn:SmallCnn", "--input-shape",
                "1,28,28", "--output-size", Integer.toString(CLASSES)), steps, warmup);
            default -> pytorchSamplesPerSecond(List.of("--model", file.toString()), steps, warmup);
          };
          results.get(name).add(samplesPerS);
        }
      }
      float loss = script.trainStep(batch[0], batch[1], BATCH, LR);
      assertTrue(Float.isFinite(loss), "the TorchScript replica's loss became " + loss);
    }
    return results;
  }

  static ModelSpec builtInSpec() {
    return new ModelSpec("cnn", 1, 28, 28, CLASSES, 1);
  }

  static ModelSpec scriptSpec(Path file) {
    try {
      TorchScriptModel source = TorchScriptModel.of(file.toString(), Files.readAllBytes(file));
      return new ModelSpec(file.getFileName().toString(), 1, 28, 28, CLASSES, 1, 0, 1, LossKind.CLASSIFICATION,
          source);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One random batch: standard normal pixels and class labels, as train_reference.py makes its own. */
  static float[][] batch() {
    Random random = new Random(1);
    float[] x = new float[BATCH * 28 * 28];
    float[] y = new float[BATCH];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) random.nextGaussian();
    }
    for (int i = 0; i < y.length; i++) {
      y[i] = random.nextInt(CLASSES);
    }
    return new float[][] {x, y};
  }

  private static void steps(ModelReplica replica, float[][] batch, int steps) {
    for (int s = 0; s < steps; s++) {
      replica.trainStep(batch[0], batch[1], BATCH, LR);
    }
  }

  /** Samples/s of {@code steps} training steps: batch over the mean time of a step, as train_reference.py reports. */
  static double replicaSamplesPerSecond(ModelReplica replica, float[][] batch, int steps) {
    long t0 = System.nanoTime();
    steps(replica, batch, steps);
    return BATCH * steps / ((System.nanoTime() - t0) / 1e9);
  }

  /** Samples/s that {@code train_reference.py --throughput} reports on one thread; {@code source} names the model. */
  static double pytorchSamplesPerSecond(List<String> source, int steps, int warmup) {
    List<String> args = new ArrayList<>(List.of("--throughput", "--loss", "cross_entropy", "--threads", "1",
        "--batch-size", Integer.toString(BATCH), "--lr", Float.toString(LR), "--momentum", Double.toString(MOMENTUM),
        "--steps", Integer.toString(steps), "--warmup", Integer.toString(warmup)));
    args.addAll(source);
    String output = TorchScripts.example("train_reference.py", args, 600);
    // Python may print warnings before the result, which is the last line.
    String[] lines = output.strip().split("\n");
    try {
      JsonNode result = JSON.readTree(lines[lines.length - 1]);
      assertEquals(1, result.get("threads").asInt(), output);
      return result.get("samples_per_s").asDouble();
    } catch (IOException e) {
      throw new AssertionError("train_reference.py printed no JSON result: " + output, e);
    }
  }

  /** The median, lowest and highest samples/s of each contestant, and the two ratios of the acceptance criterion. */
  static String table(Map<String, List<Double>> results, int rounds, int steps, int warmup) {
    StringBuilder s = new StringBuilder();
    s.append(String.format("[torchscript] small cnn (%,d parameters), batch %d, SGD momentum %.1f, 1 thread;"
        + " %d rounds of %d timed steps after %d warm-up steps%n", PARAMETERS, BATCH, MOMENTUM, rounds, steps, warmup));
    s.append(String.format("[torchscript] %-20s %12s %10s %10s %10s%n", "contestant", "samples/s", "min", "max",
        "ms/step"));
    for (Map.Entry<String, List<Double>> e : results.entrySet()) {
      double median = median(e.getValue());
      s.append(String.format("[torchscript] %-20s %12.1f %10.1f %10.1f %10.1f%n", e.getKey(), median,
          e.getValue().stream().mapToDouble(Double::doubleValue).min().orElse(0),
          e.getValue().stream().mapToDouble(Double::doubleValue).max().orElse(0), BATCH * 1000 / median));
    }
    s.append(String.format("[torchscript] ratio torchscript/built-in %.3f (target >= 0.9), torchscript/eager-pytorch"
        + " %.3f (medians; per round %s and %s)%n", ratio(results, SCRIPT, BUILT_IN), ratio(results, SCRIPT, EAGER),
        perRound(results, SCRIPT, BUILT_IN), perRound(results, SCRIPT, EAGER)));
    return s.toString();
  }

  static double ratio(Map<String, List<Double>> results, String a, String b) {
    return median(results.get(a)) / median(results.get(b));
  }

  private static String perRound(Map<String, List<Double>> results, String a, String b) {
    List<String> ratios = new ArrayList<>();
    for (int r = 0; r < results.get(a).size(); r++) {
      ratios.add(String.format("%.2f", results.get(a).get(r) / results.get(b).get(r)));
    }
    return ratios.toString();
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
