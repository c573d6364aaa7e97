package io.dssync.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.Synthetic;
import org.junit.jupiter.api.Test;

/** WRN, BERT (masked-LM and classification) and DeepFM: sizes, shapes, tasks, input checks, state. */
class WorkloadModelsTest {
  static final ModelSpec WRN = new ModelSpec("wrn-10-1", 1, 28, 28, 10, 1);
  static final ModelSpec BERT_CLS = new ModelSpec("bert-cls-L1-H2-D8", 1, 1, 4, 3, 1, 10);
  static final ModelSpec BERT_MLM = new ModelSpec("bert-mlm-L1-H2-D8", 2, 1, 4, 10, 1, 10);
  static final ModelSpec DEEPFM = new ModelSpec("deepfm", 1, 1, 3, 2, 1, 10);

  @Test
  void namesSelectTheTask() {
    assertEquals(LossKind.CLASSIFICATION, Models.lossKind("wrn-28-10"));
    assertEquals(LossKind.MASKED_LM, Models.lossKind("bert-mlm"));
    assertEquals(LossKind.MASKED_LM, Models.lossKind("bert-mlm-L4-H4-D256"));
    assertEquals(LossKind.CLASSIFICATION, Models.lossKind("bert-cls"));
    assertEquals(LossKind.BINARY, Models.lossKind("deepfm"));
    assertTrue(Models.isKnown("wrn-16-4") && Models.isKnown("bert-mlm-l2-h4-d128"));
    assertTrue(!Models.isKnown("wrn-16") && !Models.isKnown("bert-mlm-L2") && !Models.isKnown("bert"));
  }

  @Test
  void wrnHasTheHandCountedSizes() {
    // stem 1*16*9; group 1: BN 32, conv 2304, BN 32, conv 2304; group 2: BN 32, conv 16*32*9, BN 64,
    // conv 32*32*9, 1x1 shortcut 512; group 3: BN 64, 18432, BN 128, 36864, shortcut 2048;
    // final BN 128 and dense 64*10+10. Running stats of 240 BatchNorm channels.
    assertSizes(WRN, 77_562, 77_562 + 480);
  }

  @Test
  void wrnTakesCifarShapedInputsWithOnlyTheStemGrowing() {
    // 3x32x32 (CIFAR-10): the stem convolution has 3 input channels instead of 1 (2 x 16 x 9 more
    // weights); global average pooling makes everything after it independent of height and width.
    ModelSpec cifar = new ModelSpec("wrn-10-1", 3, 32, 32, 10, 1);
    assertSizes(cifar, 77_562 + 288, 77_562 + 288 + 480);
    LabeledArrays batch = Synthetic.templates(cifar, 4, 0.1f, 3);
    check(cifar, batch.features(), batch.labels(), "accuracy");
  }

  @Test
  void wrnDepthMustBeSixNPlusFour() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Models.build(new ModelSpec("wrn-12-2", 1, 28, 28, 10, 1)));
    assertTrue(e.getMessage().contains("6n+4"), e.getMessage());
  }

  @Test
  void bertHeadsHaveTheHandCountedSizes() {
    // tokens 10*8, positions 4*8, LayerNorm 16; layer: 4 x (8*8+8), LN 16, 8*32+32, 32*8+8, LN 16.
    int encoder = 80 + 32 + 16 + 4 * 72 + 16 + 288 + 264 + 16;
    assertSizes(BERT_CLS, encoder + 72 + 27, encoder + 72 + 27); // pooler 8*8+8, classifier 8*3+3
    assertSizes(BERT_MLM, encoder + 72 + 16 + 90, encoder + 72 + 16 + 90); // transform, LN, decoder 8*10+10
  }

  @Test
  void deepFmHasTheHandCountedSizes() {
    // embeddings 10*8, first-order weights 10, MLP 24*64+64, 64*32+32, 32+1, global bias 1.
    assertSizes(DEEPFM, 80 + 10 + 1600 + 2080 + 33 + 1, 3804);
  }

  @Test
  void everyWorkloadTrainsAStepAndEvaluatesWithItsMetric() {
    float[] tokens = {2, 5, 6, 0, 2, 7, 0, 0};
    check(BERT_CLS, tokens, new float[] {0, 2}, "accuracy");
    float[] masked = {2, 4, 6, 0, -1, 5, -1, -1, /* second example */ 2, 7, 4, 4, -1, -1, 8, 9};
    check(BERT_MLM, masked, new float[] {0, 0}, "masked_accuracy");
    check(DEEPFM, new float[] {0, 4, 9, 1, 3, 8}, new float[] {1, 0}, "auc");
  }

  @Test
  void idsOutsideTheVocabularyAreRejected() {
    try (ModelReplica r = Replicas.create(BERT_CLS, OptimizerSpec.sgd(0, 0), 1)) {
      DsSyncException e = assertThrows(DsSyncException.class,
          () -> r.trainStep(new float[] {2, 5, 10, 0}, new float[] {1}, 1, 0.1f));
      assertTrue(e.getMessage().contains("id 10.0 is not an integer in 0..9"), e.getMessage());
    }
    try (ModelReplica r = Replicas.create(DEEPFM, OptimizerSpec.sgd(0, 0), 1)) {
      DsSyncException e = assertThrows(DsSyncException.class,
          () -> r.evaluate(new float[] {0, 4, -1}, new float[] {1}, 1));
      assertTrue(e.getMessage().contains("id -1.0"), e.getMessage());
    }
  }

  @Test
  void wrongShapesAndVocabulariesAreRejectedAtBuild() {
    assertMessage(new ModelSpec("bert-cls", 1, 1, 16, 2, 1), "needs vocabSize >= 2");
    assertMessage(new ModelSpec("bert-mlm", 1, 1, 16, 100, 1, 100), "needs 2 x 1 x L");
    assertMessage(new ModelSpec("bert-mlm", 2, 1, 16, 50, 1, 100), "numClasses must equal vocabSize 100");
    assertMessage(new ModelSpec("deepfm", 1, 1, 5, 3, 1, 100), "must be 2");
    assertMessage(new ModelSpec("bert-cls-L2-H3-D64", 1, 1, 16, 2, 1, 100), "width divisible by heads");
  }

  @Test
  void stateRoundTripsThroughReadAndWrite() {
    for (ModelSpec spec : new ModelSpec[] {WRN, BERT_CLS, BERT_MLM, DEEPFM}) {
      try (ModelReplica a = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1);
          ModelReplica b = Replicas.create(new ModelSpec(spec.name(), spec.channels(), spec.height(),
              spec.width(), spec.numClasses(), 99, spec.vocabSize()), OptimizerSpec.sgd(0, 0), 1)) {
        float[] state = Synthetic.state(a);
        for (int i = 0; i < state.length; i++) {
          state[i] += 0.001f * (i % 7);
        }
        b.writeState(state);
        assertArrayEquals(state, Synthetic.state(b), spec.name());
      }
    }
  }

  private static void check(ModelSpec spec, float[] features, float[] labels, String metric) {
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.adam(0), 1)) {
      float[] before = Synthetic.state(r);
      float loss = r.trainStep(features, labels, labels.length, 0.01f);
      assertTrue(Float.isFinite(loss) && loss > 0, spec.name() + " loss " + loss);
      assertTrue(!java.util.Arrays.equals(before, Synthetic.state(r)), spec.name() + " did not update");
      Evaluation e = r.evaluate(features, labels, labels.length);
      assertEquals(metric, e.metricName());
      assertEquals(labels.length, e.count());
      assertTrue(Double.isFinite(e.loss()), spec.name() + " " + e);
    }
  }

  private static void assertMessage(ModelSpec spec, String part) {
    DsSyncException e = assertThrows(DsSyncException.class, () -> Models.build(spec));
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }

  private static void assertSizes(ModelSpec spec, int trainable, int state) {
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      assertEquals(trainable, r.trainableSize(), spec.name());
      assertEquals(state, r.stateSize(), spec.name());
    }
  }
}
