package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.dssync.testing.TorchScripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our optimizers against PyTorch's on the same parameters, gradients and per-step learning rates:
 * torch.optim.SGD(nesterov=True) and torch.optim.AdamW, with and without torch.nn.utils.clip_grad_norm_.
 * Gradients are large on some steps and small on others, so clipping both acts and passes.
 */
class OptimizersMatchPyTorchTest {
  /** Largest difference allowed, relative to the largest magnitude in the compared vector. */
  private static final double RELATIVE = 1e-6;
  private static final int STEPS = 6;
  private static final int[] SIZES = {6, 4};
  private static final String SCRIPT = """
      import sys, torch
      kind, momentum, decay, clip = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
      rows = [[float(x) for x in line.split()] for line in open(sys.argv[5]).read().strip().split("\\n")]
      params = [torch.tensor(r, requires_grad=True) for r in rows[:2]]
      if kind == "sgd-nesterov":
          opt = torch.optim.SGD(params, lr=0.1, momentum=momentum, weight_decay=decay, nesterov=True)
      else:
          opt = torch.optim.AdamW(params, lr=0.1, betas=(0.9, 0.999), eps=1e-8, weight_decay=decay)
      rest = rows[2:]
      for step in range(len(rest) // 3):
          lr, g0, g1 = rest[3 * step][0], rest[3 * step + 1], rest[3 * step + 2]
          for group in opt.param_groups:
              group["lr"] = lr
          params[0].grad, params[1].grad = torch.tensor(g0), torch.tensor(g1)
          if clip > 0:
              torch.nn.utils.clip_grad_norm_(params, clip)
          opt.step()
      for p in params:
          print("param", " ".join(repr(x) for x in p.detach().tolist()))
      keys = ["momentum_buffer"] if kind == "sgd-nesterov" else ["exp_avg", "exp_avg_sq"]
      for k in keys:
          for p in params:
              print("state", " ".join(repr(x) for x in opt.state[p][k].tolist()))
      """;
  static NDManager manager;

  @BeforeAll
  static void open() {
    manager = TorchRuntime.newManager(1);
    TorchRuntime.prepareThread();
  }

  @AfterAll
  static void close() {
    manager.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sgd-nesterov", "sgd-nesterov clip", "adamw", "adamw clip"})
  void stepsAsPyTorchDoes(String run) {
    TorchScripts.requireTorch();
    String kind = run.split(" ")[0];
    double clip = run.endsWith("clip") ? 2.0 : 0;
    OptimizerSpec spec = (kind.equals("adamw") ? OptimizerSpec.adamw(0.05) : OptimizerSpec.sgdNesterov(0.9, 0.05))
        .withClipNorm(clip);
    SplittableRandom random = new SplittableRandom(44);
    float[][] initial = {values(random, SIZES[0], 1), values(random, SIZES[1], 1)};
    StringBuilder input = new StringBuilder(line(initial[0])).append(line(initial[1]));
    List<NDArray> params = new ArrayList<>(List.of(manager.create(initial[0]), manager.create(initial[1])));
    LocalOptimizer optimizer = LocalOptimizer.create(spec, params, manager);
    int clippedSteps = 0;
    for (int step = 1; step <= STEPS; step++) {
      float lr = (float) (0.1 / step);
      // Odd steps' gradients have norms around 3.7 (clipped to 2), even steps' around 0.37 (left alone).
      float scale = step % 2 == 1 ? 2f : 0.2f;
      float[][] grads = {values(random, SIZES[0], scale), values(random, SIZES[1], scale)};
      input.append(lr).append('\n').append(line(grads[0])).append(line(grads[1]));
      try (NDManager scope = manager.newSubManager()) {
        List<NDArray> g = List.of(scope.create(grads[0]), scope.create(grads[1]));
        clippedSteps += clip > 0 && GlobalNormClipping.globalNorm(g) > clip ? 1 : 0;
        optimizer.step(params, g, lr, step);
      }
    }
    assertTrue(clip == 0 || clippedSteps == STEPS / 2, "clipped steps: " + clippedSteps);

    String out = runTorch(kind, spec, input.toString());
    List<float[]> torchParams = rows(out, "param");
    List<float[]> torchState = rows(out, "state");
    for (int i = 0; i < params.size(); i++) {
      assertClose(torchParams.get(i), params.get(i).toFloatArray(), run + " parameter " + i);
    }
    float[] state = new float[optimizer.state().size()];
    optimizer.state().read(state, 0);
    int offset = 0;
    for (float[] expected : torchState) {
      assertClose(expected, Arrays.copyOfRange(state, offset, offset + expected.length), run + " state at " + offset);
      offset += expected.length;
    }
    assertEquals(state.length, offset, "the state is PyTorch's buffers in parameter order, nothing else");
  }

  /** Runs {@link #SCRIPT} on {@code input} (initial parameters, then per step the rate and the gradients). */
  private static String runTorch(String kind, OptimizerSpec spec, String input) {
    try {
      Path file = Files.createTempFile("dssync-optimizer", ".txt");
      try {
        Files.writeString(file, input);
        TorchScripts.Result r = TorchScripts.run(List.of(TorchScripts.PYTHON, "-c", SCRIPT, kind,
            Double.toString(spec.momentum()), Double.toString(spec.weightDecay()), Double.toString(spec.clipNorm()),
            file.toString()), 120, true);
        assertEquals(0, r.exit(), r.output());
        return r.output();
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertClose(float[] expected, float[] actual, String what) {
    assertEquals(expected.length, actual.length, what);
    double scale = 0;
    for (float e : expected) {
      scale = Math.max(scale, Math.abs(e));
    }
    double largest = 0;
    for (int i = 0; i < expected.length; i++) {
      double off = Math.abs(expected[i] - actual[i]);
      largest = Math.max(largest, off / scale);
      assertTrue(off <= RELATIVE * scale, String.format(Locale.ROOT, "%s [%d]: ours %s, PyTorch %s (off %.3g of %.3g)",
          what, i, actual[i], expected[i], off / scale, RELATIVE));
    }
    System.out.printf(Locale.ROOT, "%s: largest difference to PyTorch %.3g of the largest value%n", what, largest);
  }

  private static List<float[]> rows(String output, String tag) {
    List<float[]> rows = new ArrayList<>();
    for (String line : output.split("\n")) {
      if (line.startsWith(tag + " ")) {
        String[] parts = line.substring(tag.length() + 1).trim().split(" ");
        float[] row = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
          row[i] = Float.parseFloat(parts[i]);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static float[] values(SplittableRandom random, int n, float scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (scale * (2 * random.nextDouble() - 1));
    }
    return v;
  }

  /** Floats as Java prints them (the shortest text that reads back the same float), one row per line. */
  private static String line(float[] values) {
    StringBuilder sb = new StringBuilder();
    for (float v : values) {
      sb.append(v).append(' ');
    }
    return sb.toString().trim() + "\n";
  }
}
