package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DjlReplicaInputTest {
  static final ModelSpec MLP = new ModelSpec("mlp", 1, 6, 6, 5, 3);
  static ModelReplica replica;
  static LabeledArrays data;

  @BeforeAll
  static void create() {
    replica = Replicas.create(MLP, OptimizerSpec.sgd(0, 0), 1);
    data = Synthetic.templates(MLP, 8, 0.5f, 4);
  }

  @AfterAll
  static void close() {
    replica.close();
  }

  @Test
  void featuresOfWrongLengthAreRejectedNamingBothLengths() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> replica.trainStep(new float[7 * 36], data.labels(), 8, 0.1f));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("length 252 but 288 was expected"), e.getMessage());
  }

  @Test
  void labelsOfWrongLengthAreRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> replica.evaluate(data.features(), new float[7], 8));
    assertTrue(e.getMessage().contains("labels of 8 examples"), e.getMessage());
  }

  @Test
  void outOfRangeLabelIsRejectedNamingItsIndexAndValue() {
    float[] labels = data.labels().clone();
    labels[5] = 5;
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> replica.trainStep(data.features(), labels, 8, 0.1f));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("at index 5: the label 5 is not an integer in 0..4"), e.getMessage());
    labels[5] = -1;
    e = assertThrows(DsSyncException.class, () -> replica.evaluate(data.features(), labels, 8));
    assertTrue(e.getMessage().contains("label -1"), e.getMessage());
  }

  @Test
  void nonFiniteLearningRateIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> replica.trainStep(data.features(), data.labels(), 8, Float.NaN));
    assertEquals(ErrorKind.CONFIG, e.kind());
  }

  @Test
  void nonFiniteLossIsReturnedForTheTrainerToReport() {
    try (ModelReplica r = Replicas.create(MLP, OptimizerSpec.sgd(0, 0), 1)) {
      float[] features = data.features().clone();
      features[0] = Float.NaN;
      assertTrue(Float.isNaN(r.trainStep(features, data.labels(), 8, 0.1f)));
    }
  }

  @Test
  void unknownOptimizerKindIsRejectedListingTheKnownOnes() {
    OptimizerSpec bad = new OptimizerSpec("rmsprop", 0, 0, 0.9, 0.999, 1e-8);
    DsSyncException e = assertThrows(DsSyncException.class, () -> Replicas.create(MLP, bad, 1));
    assertTrue(e.getMessage().contains("Unknown optimizer 'rmsprop'. Choose one of [sgd, sgd-nesterov, adamw, adam]"),
        e.getMessage());
  }

  @Test
  void momentumOutsideUnitIntervalIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(MLP, OptimizerSpec.sgd(1.0, 0), 1));
    assertTrue(e.getMessage().contains("--momentum = 1.0"), e.getMessage());
  }

  @Test
  void zeroThreadsIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(MLP, OptimizerSpec.sgd(0, 0), 0));
    assertTrue(e.getMessage().contains("--threads-per-worker = 0"), e.getMessage());
  }

  @Test
  void evaluationCoversEveryExampleAcrossInternalBatches() {
    ModelSpec spec = new ModelSpec("mlp", 1, 2, 2, 3, 1);
    LabeledArrays many = Synthetic.templates(spec, DjlReplica.EVAL_BATCH + 3, 0.5f, 12);
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      Evaluation all = r.evaluate(many.features(), many.labels(), many.size());
      LabeledArrays head = Synthetic.slice(many, 0, DjlReplica.EVAL_BATCH);
      LabeledArrays tail = Synthetic.slice(many, DjlReplica.EVAL_BATCH, 3);
      Evaluation merged = r.evaluate(head.features(), head.labels(), head.size())
          .merge(r.evaluate(tail.features(), tail.labels(), 3));
      assertEquals(many.size(), all.count());
      assertEquals(merged.accuracy(), all.accuracy(), 1e-12);
      assertEquals(merged.loss(), all.loss(), 1e-6);
    }
  }

  @Test
  void stepsReleaseTheirTemporaries() {
    ModelSpec cnn = new ModelSpec("cnn", 1, 8, 8, 5, 1);
    LabeledArrays small = Synthetic.templates(cnn, 8, 0.5f, 13);
    try (DjlReplica r = new DjlReplica(cnn, OptimizerSpec.adam(1e-4), 1)) {
      Synthetic.train(r, small, 8, 2, 0.01f);
      r.evaluate(small.features(), small.labels(), 8);
      int live = r.liveArrays();
      Synthetic.train(r, small, 8, 200, 0.01f);
      r.evaluate(small.features(), small.labels(), 8);
      r.writeState(Synthetic.state(r));
      assertEquals(live, r.liveArrays());
    }
  }
}
