package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.dssync.errors.DsSyncException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each optimizer and the gradient clipping on one or two tiny tensors, against steps worked out by hand
 * from the formulas (PyTorch's, which {@link OptimizersMatchPyTorchTest} compares with torch itself).
 */
class LocalOptimizersTest {
  private static final double TOLERANCE = 1e-6;
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

  @Test
  void sgdWithMomentumAndWeightDecayIsHeavyBall() {
    // p = 1, lr 0.1, momentum 0.9, weight decay 0.01, gradients 0.5 then -0.25.
    // Step 1: d = 0.5 + 0.01*1 = 0.51; v = 0.51; p = 1 - 0.1*0.51 = 0.949.
    // Step 2: d = -0.25 + 0.01*0.949 = -0.24051; v = 0.9*0.51 - 0.24051 = 0.21849; p = 0.949 - 0.021849 = 0.927151.
    Stepper s = new Stepper(OptimizerSpec.sgd(0.9, 0.01), new float[] {1});
    s.step(0.1f, new float[] {0.5f});
    assertEquals(0.949, s.param(0)[0], TOLERANCE);
    s.step(0.1f, new float[] {-0.25f});
    assertEquals(0.927151, s.param(0)[0], TOLERANCE);
    assertEquals(0.21849, s.state()[0], TOLERANCE);
  }

  @Test
  void sgdNesterovStepsAlongTheGradientPlusMomentumTimesTheNewBuffer() {
    // PyTorch's SGD(nesterov=True): d = g + wd*p; v = momentum*v + d; p -= lr*(d + momentum*v).
    // Step 1: d = 0.51; v = 0.51; p = 1 - 0.1*(0.51 + 0.9*0.51) = 1 - 0.0969 = 0.9031.
    // Step 2: d = -0.25 + 0.01*0.9031 = -0.240969; v = 0.9*0.51 - 0.240969 = 0.218031;
    //         p = 0.9031 - 0.1*(-0.240969 + 0.9*0.218031) = 0.9031 + 0.00447411 = 0.90757411.
    Stepper s = new Stepper(OptimizerSpec.sgdNesterov(0.9, 0.01), new float[] {1});
    s.step(0.1f, new float[] {0.5f});
    assertEquals(0.9031, s.param(0)[0], TOLERANCE);
    s.step(0.1f, new float[] {-0.25f});
    assertEquals(0.90757411, s.param(0)[0], TOLERANCE);
    // The state that stage ends average is the momentum buffer, as for heavy-ball SGD.
    assertArrayEquals(new float[] {0.218031f}, s.state(), 1e-7f);
  }

  @Test
  void sgdNesterovWithoutMomentumIsRefused() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new Stepper(OptimizerSpec.sgdNesterov(0, 0), new float[] {1}));
    assertTrue(e.getMessage().contains("--momentum"), e.getMessage());
  }

  @Test
  void adamwDecaysTheWeightsOutsideTheMoments() {
    // PyTorch's AdamW, lr 0.1, weight decay 0.01, betas 0.9/0.999, eps 1e-8, gradients 0.5 then -0.25.
    // Step 1: p = 1*(1 - 0.1*0.01) = 0.999; m = 0.1*0.5 = 0.05; v = 0.001*0.25 = 0.00025;
    //         m^ = 0.05/0.1 = 0.5; v^ = 0.00025/0.001 = 0.25; p = 0.999 - 0.1*0.5/(0.5 + 1e-8) = 0.899000002.
    // Step 2: p = 0.899000002*0.999 = 0.898101002; m = 0.9*0.05 - 0.1*0.25 = 0.02;
    //         v = 0.999*0.00025 + 0.001*0.0625 = 0.00031225; m^ = 0.02/(1 - 0.81) = 0.105263158;
    //         v^ = 0.00031225/(1 - 0.998001) = 0.156203102; p = 0.898101002 - 0.1*0.105263158/0.395225381
    //         = 0.898101002 - 0.026633703 = 0.871467299.
    for (OptimizerSpec spec : List.of(OptimizerSpec.adamw(0.01), OptimizerSpec.adam(0.01))) {
      Stepper s = new Stepper(spec, new float[] {1});
      s.step(0.1f, new float[] {0.5f});
      assertEquals(0.899000002, s.param(0)[0], TOLERANCE, spec.kind());
      s.step(0.1f, new float[] {-0.25f});
      assertEquals(0.871467299, s.param(0)[0], TOLERANCE, spec.kind());
      // State: first moments, then second moments.
      assertArrayEquals(new float[] {0.02f, 0.00031225f}, s.state(), 1e-8f, spec.kind());
    }
  }

  @Test
  void clippingScalesAllGradientsByOneFactorWhenTheirGlobalNormExceedsTheLimit() {
    // Gradients (3, 0) and (0, 4): global norm sqrt(9 + 16) = 5. Limit 1: factor 1/(5 + 1e-6) = 0.19999996;
    // plain SGD at lr 1 from zero moves the parameters to minus the clipped gradients.
    Stepper clipped = new Stepper(OptimizerSpec.sgd(0, 0).withClipNorm(1), new float[2], new float[2]);
    clipped.step(1f, new float[] {3, 0}, new float[] {0, 4});
    double factor = 1 / (5 + 1e-6);
    assertArrayEquals(new float[] {(float) (-3 * factor), 0}, clipped.param(0), 1e-7f);
    assertArrayEquals(new float[] {0, (float) (-4 * factor)}, clipped.param(1), 1e-7f);
    // The clipped gradients' norm is the limit: 0.6^2 + 0.8^2 = 1.
    assertEquals(1.0, Math.hypot(clipped.param(0)[0], clipped.param(1)[1]), TOLERANCE);
  }

  @Test
  void clippingLeavesGradientsBelowTheLimitBitForBit() {
    Stepper loose = new Stepper(OptimizerSpec.sgd(0.9, 0.01).withClipNorm(5.1), new float[] {0.3f, -2}, new float[1]);
    Stepper off = new Stepper(OptimizerSpec.sgd(0.9, 0.01), new float[] {0.3f, -2}, new float[1]);
    for (Stepper s : List.of(loose, off)) {
      s.step(0.05f, new float[] {3, 0}, new float[] {4});
      s.step(0.05f, new float[] {-1, 2}, new float[] {0.5f});
    }
    assertArrayEquals(off.param(0), loose.param(0));
    assertArrayEquals(off.param(1), loose.param(1));
  }

  @Test
  void clippingComesBeforeTheOptimizersOwnArithmetic() {
    // Nesterov with weight decay 0.01 and limit 1 on gradient (0, 5) at p = (1, 1): clipped g = (0, 5/(5 + 1e-6));
    // d = g + 0.01*p = (0.01, 1.0099998); p -= 0.1*1.9*d = (1 - 0.0019, 1 - 0.19189996) (decay is not clipped).
    Stepper s = new Stepper(OptimizerSpec.sgdNesterov(0.9, 0.01).withClipNorm(1), new float[] {1, 1});
    s.step(0.1f, new float[] {0, 5});
    double g = 5 / (5 + 1e-6);
    assertArrayEquals(new float[] {(float) (1 - 0.19 * 0.01), (float) (1 - 0.19 * (g + 0.01))}, s.param(0), 1e-7f);
  }

  /** Parameters, their optimizer, and steps counted from 1 as the replica counts them. */
  private static final class Stepper {
    private final List<NDArray> params;
    private final LocalOptimizer optimizer;
    private long steps;

    Stepper(OptimizerSpec spec, float[]... initial) {
      params = Arrays.stream(initial).map(a -> manager.create(a)).toList();
      optimizer = LocalOptimizer.create(spec, params, manager);
    }

    void step(float learningRate, float[]... grads) {
      try (NDManager scope = manager.newSubManager()) {
        List<NDArray> g = Arrays.stream(grads).map(a -> scope.create(a)).toList();
        optimizer.step(params, g, learningRate, ++steps);
      }
    }

    float[] param(int i) {
      return params.get(i).toFloatArray();
    }

    float[] state() {
      float[] s = new float[optimizer.state().size()];
      optimizer.state().read(s, 0);
      return s;
    }
  }
}
