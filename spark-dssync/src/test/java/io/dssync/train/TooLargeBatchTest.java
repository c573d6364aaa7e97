package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.StepFootprint;
import io.dssync.replica.Synthetic;
import io.dssync.testing.ChildJvm;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A batch whose steps cannot fit in the host's memory fails before training with the sizes and a
 * batch that fits; before, the kernel killed the JVM (exit 137) partway into the first step. Runs
 * {@code dssync train} in a JVM of its own, so that without the check only that JVM is killed.
 */
class TooLargeBatchTest {
  static final String MODEL = "wrn-16-8";
  private static final int FASHION_MNIST_TRAINING = 60_000;

  @Test
  void aBatchWhoseStepsExceedTheHostsMemoryFailsBeforeTrainingWithABatchThatFits() throws Exception {
    long batch = batchOfTwoReplicasOverMemory();
    assumeTrue(2 * batch <= FASHION_MNIST_TRAINING, "this host has memory for " + batch + " examples a step");

    ChildJvm.Run run = ChildJvm.run(ChildJvm.thisJdk(), Duration.ofSeconds(240), "io.dssync.cli.Main", "train",
        "--master", "local[2]", "--workers", "2", "--model", MODEL, "--batch-size", Long.toString(batch),
        "--train-limit", Long.toString(2 * batch), "--test-limit", "10", "--epochs", "1");

    String out = run.output();
    assertEquals(2, run.exitCode(), out);
    assertTrue(out.contains("dssync: Invalid --batch-size = " + batch + ": a training step of model " + MODEL), out);
    assertTrue(out.matches("(?s).*Use --batch-size \\d+ or less.*"), out);
    assertFalse(out.contains("Exception in thread"), out);
  }

  /**
   * The batch of {@link #MODEL} at which two replicas' forward tensors alone are a quarter more than
   * all the memory this host has now (the test is skipped where that is unknown).
   */
  static long batchOfTwoReplicasOverMemory() {
    OptionalLong available = HostMemory.available();
    assumeTrue(available.isPresent(), "the host's free memory is known on Linux only");
    ModelSpec spec = new ModelSpec(MODEL, 1, 28, 28, 10, 42);
    StepFootprint footprint;
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0.9, 0), 1)) {
      LabeledArrays two = Synthetic.templates(spec, 2, 0.5f, 1);
      footprint = replica.stepFootprint(two.features(), two.labels(), 2);
    }
    return (available.getAsLong() / 2 * 5 / 4 - footprint.fixedBytes()) / footprint.bytesPerExample() + 1;
  }
}
