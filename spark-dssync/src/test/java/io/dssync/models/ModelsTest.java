package io.dssync.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.Synthetic;
import org.junit.jupiter.api.Test;

class ModelsTest {
  @Test
  void registryListsTheBuiltInModels() {
    assertArrayEquals(new String[] {"mlp", "cnn", "wrn-16-4", "bert-mlm", "bert-cls", "deepfm"}, Models.names());
  }

  @Test
  void unknownModelNameIsRejectedListingTheKnownOnes() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Models.build(new ModelSpec("resnet", 1, 28, 28, 10, 1)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("Unknown model 'resnet'. Choose one of [mlp, cnn, wrn-<depth>-<k>,"),
        e.getMessage());
  }

  @Test
  void inputTooSmallForTwoPoolingLayersIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Models.build(new ModelSpec("cnn", 1, 3, 28, 10, 1)));
    assertTrue(e.getMessage().contains("3x28"), e.getMessage());
  }

  @Test
  void singleClassIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Models.build(new ModelSpec("mlp", 1, 28, 28, 1, 1)));
    assertTrue(e.getMessage().contains("model.numClasses = 1"), e.getMessage());
  }

  @Test
  void mlpOnFashionMnistHasTheDocumentedLayerSizes() {
    // 784*256+256 + 256*128+128 + 128*10+10
    assertSizes(new ModelSpec("mlp", 1, 28, 28, 10, 1), 235_146, 235_146);
  }

  @Test
  void cnnOnFashionMnistHasTheDocumentedLayerSizes() {
    // conv 1*32*9+32, BN 2*32, conv 32*64*9+64, BN 2*64, dense 64*7*7*128+128, dense 128*10+10;
    // plus running mean and variance of both BatchNorm layers.
    assertSizes(new ModelSpec("cnn", 1, 28, 28, 10, 1), 421_834, 421_834 + 192);
  }

  @Test
  void cnnAcceptsCifarShapedInput() {
    ModelSpec cifar = new ModelSpec("cnn", 3, 32, 32, 10, 1);
    // dense layer sees 64 x 8 x 8 after two poolings of 32x32
    assertSizes(cifar, 896 + 64 + 18_496 + 128 + 4096 * 128 + 128 + 1290, 545_290 + 192);
    LabeledArrays data = Synthetic.templates(cifar, 4, 0.5f, 1);
    try (ModelReplica r = Replicas.create(cifar, OptimizerSpec.sgd(0, 0), 1)) {
      r.trainStep(data.features(), data.labels(), 4, 0.01f);
      Evaluation e = r.evaluate(data.features(), data.labels(), 4);
      assertEquals(4, e.count());
    }
  }

  private static void assertSizes(ModelSpec spec, int trainable, int state) {
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      assertEquals(trainable, r.trainableSize());
      assertEquals(state, r.stateSize());
    }
  }
}
