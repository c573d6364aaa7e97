package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.dssync.errors.DsSyncException;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The losses and metrics of real-valued labels (mse, l1, huber; multi-label binary cross-entropy) on tiny outputs
 * whose values are computed by hand in the comments, as ObjectivesTest does for the class tasks.
 */
class RegressionObjectivesTest {
  static NDManager manager;

  /*
   * Three examples, two outputs each:
   *   outputs (1, 0), (2, 3), (1, -1)
   *   labels  (0, 0), (4, 3), (0.5, 1)
   *   errors  (1, 0), (-2, 0), (0.5, -2)
   * squared 1 + 4 + 0.25 + 4 = 9.25; absolute 1 + 2 + 0.5 + 2 = 5.5;
   * Huber (delta 1: e²/2 up to 1, |e| - 1/2 beyond) 0.5 + 1.5 + 0.125 + 1.5 = 3.625; each over 6 values.
   * R² of output 0: labels 0, 4, 0.5 (mean 1.5, SST 2.25 + 6.25 + 1 = 9.5), SSE 1 + 4 + 0.25 = 5.25;
   * of output 1: labels 0, 3, 1 (mean 4/3, SST 16/9 + 25/9 + 1/9 = 42/9), SSE 4, R² 1 - 36/42 = 1/7.
   */
  private static final float[] OUTPUTS = {1, 0, 2, 3, 1, -1};
  private static final float[] LABELS = {0, 0, 4, 3, 0.5f, 1};
  private static final double R2 = ((1 - 5.25 / 9.5) + 1.0 / 7) / 2;

  @BeforeAll
  static void open() {
    manager = TorchRuntime.newManager(1);
    TorchRuntime.prepareThread();
  }

  @AfterAll
  static void close() {
    manager.close();
  }

  private static ModelSpec spec(LossKind loss, int labelWidth) {
    return new ModelSpec("script", 1, 1, 1, 0, 1, 0, labelWidth, loss, null);
  }

  /** Examples {@code from}..{@code from+n-1} of {@link #OUTPUTS} as a model's output over {@code labels}. */
  private static ModelOutput out(float[] outputs, float[] labels, int from, int n, ModelSpec spec) {
    int w = spec.labelWidth();
    float[] rows = java.util.Arrays.copyOfRange(outputs, from * w, (from + n) * w);
    NDArray z = manager.create(rows, new Shape(n, w));
    return new ModelOutput(z, new float[labels.length / w], labels, from, n, spec);
  }

  private static Evaluation scoreInTwoChunks(LossKind kind, float[] outputs, float[] labels) {
    ModelSpec spec = spec(kind, 2);
    Objective.Scorer s = Objective.of(kind, null).scorer();
    s.add(out(outputs, labels, 0, 2, spec));
    s.add(out(outputs, labels, 2, 1, spec));
    return s.result();
  }

  @Test
  void meanSquaredError() {
    ModelSpec spec = spec(LossKind.MSE, 2);
    assertEquals(9.25 / 6, Objective.of(LossKind.MSE, null).loss(out(OUTPUTS, LABELS, 0, 3, spec)).getFloat(), 1e-6);
    Evaluation e = scoreInTwoChunks(LossKind.MSE, OUTPUTS, LABELS);
    // Chunks of 2 and 1 examples: (1 + 4) / 4 * 2 + (0.25 + 4) / 2 * 1 = 4.625 over 3 examples.
    assertEquals(9.25 / 6, e.loss(), 1e-6);
    assertEquals("r2", e.metricName());
    assertEquals(R2, e.metric(), 1e-9);
    assertEquals(3, e.count());
    assertTrue(Double.isNaN(e.accuracy()), "a regression has no accuracy: " + e.accuracy());
  }

  @Test
  void meanAbsoluteError() {
    ModelSpec spec = spec(LossKind.L1, 2);
    assertEquals(5.5 / 6, Objective.of(LossKind.L1, null).loss(out(OUTPUTS, LABELS, 0, 3, spec)).getFloat(), 1e-6);
    Evaluation e = scoreInTwoChunks(LossKind.L1, OUTPUTS, LABELS);
    assertEquals(5.5 / 6, e.loss(), 1e-6);
    assertEquals(R2, e.metric(), 1e-9); // R² does not depend on the loss
  }

  @Test
  void huberIsQuadraticUpToOneAndLinearBeyond() {
    ModelSpec spec = spec(LossKind.HUBER, 2);
    assertEquals(3.625 / 6, Objective.of(LossKind.HUBER, null).loss(out(OUTPUTS, LABELS, 0, 3, spec)).getFloat(),
        1e-6);
    assertEquals(3.625 / 6, scoreInTwoChunks(LossKind.HUBER, OUTPUTS, LABELS).loss(), 1e-6);
    // At |e| = 1 both pieces give 1/2.
    ModelSpec one = spec(LossKind.HUBER, 1);
    assertEquals(0.5, Objective.of(LossKind.HUBER, null).loss(out(new float[] {3}, new float[] {2}, 0, 1, one))
        .getFloat(), 1e-6);
  }

  @Test
  void r2OfAPerfectFitIsOneOfTheMeanZeroAndAConstantOutputCountsZero() {
    ModelSpec spec = spec(LossKind.MSE, 1);
    float[] y = {1, 2, 6};
    Objective o = Objective.of(LossKind.MSE, null);
    Objective.Scorer perfect = o.scorer();
    perfect.add(out(y, y, 0, 3, spec));
    assertEquals(1.0, perfect.result().metric(), 1e-12);
    Objective.Scorer mean = o.scorer();
    mean.add(out(new float[] {3, 3, 3}, y, 0, 3, spec));
    assertEquals(0.0, mean.result().metric(), 1e-12);
    // Worse than the mean is negative: errors 5, 0, -5 give SSE 50 against SST 14.
    Objective.Scorer bad = o.scorer();
    bad.add(out(new float[] {6, 2, 1}, y, 0, 3, spec));
    assertEquals(1 - 50.0 / 14, bad.result().metric(), 1e-9);
    // Second output's labels all 5: it has no variance to explain and counts as 0 in the mean (R² of the first
    // output is 1).
    ModelSpec two = spec(LossKind.MSE, 2);
    Objective.Scorer constant = o.scorer();
    constant.add(out(new float[] {1, 4, 2, 5, 6, 6}, new float[] {1, 5, 2, 5, 6, 5}, 0, 3, two));
    assertEquals(0.5, constant.result().metric(), 1e-9);
  }

  /*
   * Multi-label, two labels per example: logits (0, ln 3), (2, -1); labels (1, 1), (0, 0).
   * Per value log(1 + e^z) - z y: log 2; log 4 - ln 3 = log(4/3); log(1 + e^2); log(1 + e^-1).
   * Predicted 1 where z > 0: (0, 1), (1, 0) against (1, 1), (0, 0): 2 of 4 right.
   * AUC: positives score 0 and ln 3, negatives 2 and -1: 2 of the 4 (positive, negative) pairs ordered.
   */
  @Test
  void multiLabelBinaryCrossEntropyAccuracyAndMicroAuc() {
    ModelSpec spec = spec(LossKind.MULTI_LABEL, 2);
    float[] z = {0, (float) Math.log(3), 2, -1};
    float[] y = {1, 1, 0, 0};
    double expected = (Math.log(2) + Math.log(4.0 / 3) + Math.log(1 + Math.exp(2)) + Math.log(1 + Math.exp(-1))) / 4;
    Objective o = Objective.of(LossKind.MULTI_LABEL, null);
    assertEquals(expected, o.loss(out(z, y, 0, 2, spec)).getFloat(), 1e-6);
    Objective.Scorer s = o.scorer();
    s.add(out(z, y, 0, 1, spec));
    s.add(out(z, y, 1, 1, spec));
    Evaluation e = s.result();
    assertEquals(expected, e.loss(), 1e-6);
    assertEquals("auc", e.metricName());
    assertEquals(0.5, e.metric(), 1e-9);
    assertEquals(0.5, e.accuracy(), 1e-9);
    float[] p = o.probabilities(out(z, y, 0, 2, spec));
    assertEquals(0.75, p[1], 1e-6); // sigmoid(ln 3) = 3 / 4
  }

  @Test
  void multiLabelLossStaysFiniteForLargeLogits() {
    // log(1 + e^100) overflows a float; the stable form gives 0 for (z 100, y 1) and 100 for (z -100, y 1).
    ModelSpec spec = spec(LossKind.MULTI_LABEL, 2);
    float loss = Objective.of(LossKind.MULTI_LABEL, null)
        .loss(out(new float[] {100, -100}, new float[] {1, 1}, 0, 1, spec)).getFloat();
    assertEquals(50, loss, 1e-4);
  }

  @Test
  void multiLabelTargetsMustBeZeroOrOne() {
    ModelSpec spec = spec(LossKind.MULTI_LABEL, 2);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Objective.of(LossKind.MULTI_LABEL, null).check(new float[2], new float[] {0, 1, 1, 0.5f}, 2, spec));
    assertEquals("Bad record at index 1: label value 1 is 0.5, not 0 or 1. Multi-label targets are 0/1 per label; for"
        + " real values use --loss mse.", e.getMessage());
  }
}
