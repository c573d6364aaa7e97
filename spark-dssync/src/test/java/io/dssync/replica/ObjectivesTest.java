package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.dssync.errors.DsSyncException;
import io.dssync.models.ModelSpec;
import io.dssync.models.LossKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Losses and metrics of each task on tiny hand-computed outputs. */
class ObjectivesTest {
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
  void softmaxCrossEntropyAndAccuracy() {
    ModelSpec spec = new ModelSpec("mlp", 1, 1, 2, 2, 1);
    // Example 0: logits (0, ln 3), label 1 -> p = 3/4; example 1: logits (0, 0), label 0 -> p = 1/2.
    NDArray logits = manager.create(new float[] {0, (float) Math.log(3), 0, 0}, new Shape(2, 2));
    ModelOutput out = new ModelOutput(logits, new float[4], new float[] {1, 0}, 0, 2, spec);
    Objective o = Objective.of(LossKind.CLASSIFICATION, null);
    double expected = (-Math.log(0.75) - Math.log(0.5)) / 2;
    assertEquals(expected, o.loss(out).getFloat(), 1e-6);
    Objective.Scorer s = o.scorer();
    s.add(out);
    Evaluation e = s.result();
    assertEquals(expected, e.loss(), 1e-6);
    assertEquals(1.0, e.accuracy()); // argmax of a tie is the first class
    assertEquals("accuracy", e.metricName());
  }

  @Test
  void maskedLmScoresOnlyTheMaskedPositions() {
    // One example of width 4, vocab 3: row 0 ids, row 1 targets; positions 1 and 3 are masked.
    ModelSpec spec = new ModelSpec("bert-mlm", 2, 1, 4, 3, 1, 3);
    float[] features = {2, 1, 1, 1, /* targets */ -1, 2, -1, 0};
    // Output rows belong to the masked positions in order: target 2, then target 0.
    NDArray logits = manager.create(new float[] {1, 0, 0, (float) Math.log(2), 0, 0}, new Shape(2, 3));
    ModelOutput out = new ModelOutput(logits, features, new float[] {0}, 0, 1, spec);
    Objective o = Objective.of(LossKind.MASKED_LM, null);
    double first = Math.log(Math.E + 2); // -log(e^0 / (e^1 + e^0 + e^0))
    double second = Math.log(2); // -log(2 / (2 + 1 + 1))
    assertEquals((first + second) / 2, o.loss(out).getFloat(), 1e-6);
    Objective.Scorer s = o.scorer();
    s.add(out);
    Evaluation e = s.result();
    assertEquals((first + second) / 2, e.loss(), 1e-6);
    assertEquals(0.5, e.metric(), 1e-9); // row 0 predicts 0 (target 2), row 1 predicts 0 (target 0)
    assertEquals("masked_accuracy", e.metricName());
    assertEquals(1, e.count());
  }

  @Test
  void maskedLmTargetsMustBeMinusOneOrAnId() {
    ModelSpec spec = new ModelSpec("bert-mlm", 2, 1, 2, 3, 1, 3);
    Objective o = Objective.of(LossKind.MASKED_LM, null);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> o.check(new float[] {2, 1, -1, 3}, new float[] {0}, 1, spec));
    assertTrue(e.getMessage().contains("masked-LM target 3.0") && e.getMessage().contains("position 1"),
        e.getMessage());
    o.check(new float[] {2, 1, -1, 2}, new float[] {0}, 1, spec);
  }

  @Test
  void binaryLogLossAndAucOverTheWholeSet() {
    ModelSpec spec = new ModelSpec("deepfm", 1, 1, 1, 2, 1, 5);
    NDArray z = manager.create(new float[] {0, 2}, new Shape(2, 1));
    ModelOutput out = new ModelOutput(z, new float[2], new float[] {1, 0}, 0, 2, spec);
    Objective o = Objective.of(LossKind.BINARY, null);
    double expected = (Math.log(2) + 2 + Math.log(1 + Math.exp(-2))) / 2;
    assertEquals(expected, o.loss(out).getFloat(), 1e-6);
    float[] p = o.probabilities(out);
    assertEquals(0.5, p[1], 1e-6);
    assertEquals(1 / (1 + Math.exp(-2)), p[3], 1e-6);

    // AUC over two chunks: scores 0.1 (0), 0.35 (1) | 0.4 (0), 0.8 (1) -> 3 of 4 pairs ordered.
    Objective.Scorer s = o.scorer();
    s.add(new ModelOutput(manager.create(new float[] {0.1f, 0.35f}, new Shape(2, 1)), new float[2],
        new float[] {0, 1}, 0, 2, spec));
    s.add(new ModelOutput(manager.create(new float[] {0.4f, 0.8f}, new Shape(2, 1)), new float[4],
        new float[] {0, 0, 0, 1}, 2, 2, spec));
    Evaluation e = s.result();
    assertEquals("auc", e.metricName());
    assertEquals(0.75, e.metric(), 1e-9);
    assertEquals(0.5, e.accuracy(), 1e-9); // every z > 0 predicts 1; two of four labels are 1
  }

  @Test
  void binaryLabelsMustBeZeroOrOne() {
    ModelSpec spec = new ModelSpec("deepfm", 1, 1, 1, 2, 1, 5);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Objective.of(LossKind.BINARY, null).check(new float[2], new float[] {0, 2}, 2, spec));
    assertTrue(e.getMessage().contains("label 2 is not 0 or 1"), e.getMessage());
  }

  @Test
  void aucOfAKnownRankingWithTies() {
    assertEquals(0.75, Auc.of(new float[] {0.1f, 0.4f, 0.35f, 0.8f}, new float[] {0, 0, 1, 1}, 4), 1e-12);
    assertEquals(1.0, Auc.of(new float[] {3, 1, 2}, new float[] {1, 0, 1}, 3), 1e-12);
    assertEquals(0.0, Auc.of(new float[] {3, 1}, new float[] {0, 1}, 2), 1e-12);
    // A tie between a positive and a negative counts half.
    assertEquals(0.5, Auc.of(new float[] {0.5f, 0.5f}, new float[] {0, 1}, 2), 1e-12);
    assertTrue(Double.isNaN(Auc.of(new float[] {1, 2}, new float[] {1, 1}, 2)));
  }
}
