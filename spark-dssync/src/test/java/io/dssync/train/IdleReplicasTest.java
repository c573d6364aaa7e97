package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import java.lang.reflect.Proxy;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which replicas wait between stages, who may take them, and when they are closed. */
class IdleReplicasTest {
  private static final IdleReplicas.Kind CNN =
      new IdleReplicas.Kind(new ModelSpec("cnn", 1, 28, 28, 10, 42), OptimizerSpec.sgd(0.9, 0.0), 1);
  private static final IdleReplicas.Kind MLP =
      new IdleReplicas.Kind(new ModelSpec("mlp", 1, 28, 28, 10, 42), OptimizerSpec.sgd(0.9, 0.0), 1);

  /** Replicas this test closed; a stand-in replica knows nothing but being closed. */
  private final Set<ModelReplica> closed = new HashSet<>();

  private ModelReplica fake() {
    ModelReplica[] self = new ModelReplica[1];
    self[0] = (ModelReplica) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ModelReplica.class},
        (proxy, method, args) -> {
          if (method.getName().equals("close")) {
            closed.add(self[0]);
            return null;
          }
          if (method.getName().equals("hashCode")) {
            return System.identityHashCode(proxy);
          }
          if (method.getName().equals("equals")) {
            return proxy == args[0];
          }
          throw new UnsupportedOperationException(method.getName());
        });
    return self[0];
  }

  private static String fit() {
    return "fit-" + UUID.randomUUID();
  }

  @Test
  void aReplicaGivenBackIsTakenAgainOnlyByTheSameFitAndKind() {
    String fit = fit();
    ModelReplica first = IdleReplicas.take(fit, CNN, this::fake);
    IdleReplicas.giveBack(fit, CNN, first);
    assertNotSame(first, IdleReplicas.take(fit, MLP, this::fake), "another model needs its own replica");
    assertNotSame(first, IdleReplicas.take(fit(), CNN, this::fake), "another fit needs its own replica");
    long built = IdleReplicas.created();
    assertSame(first, IdleReplicas.take(fit, CNN, this::fake), "the next stage of the fit reuses it");
    assertEquals(built, IdleReplicas.created(), "nothing built for the reuse");
    assertFalse(closed.contains(first));
    IdleReplicas.closeFit(fit);
  }

  @Test
  void aNewerFitClosesTheIdleReplicasOfTheEldestBeyondTheLimit() {
    String[] fits = new String[IdleReplicas.FITS + 1];
    ModelReplica[] idle = new ModelReplica[fits.length];
    for (int i = 0; i < fits.length; i++) {
      fits[i] = fit();
      idle[i] = IdleReplicas.take(fits[i], CNN, this::fake);
      IdleReplicas.giveBack(fits[i], CNN, idle[i]);
    }
    assertTrue(closed.contains(idle[0]), "the eldest fit's replica is closed");
    assertEquals(0, IdleReplicas.idle(fits[0]));
    for (int i = 1; i < fits.length; i++) {
      assertFalse(closed.contains(idle[i]), "fit " + i + " keeps its replica");
      assertEquals(1, IdleReplicas.idle(fits[i]));
    }
    // A stage of the evicted fit that ends now closes its replica instead of keeping it.
    ModelReplica late = fake();
    IdleReplicas.giveBack(fits[0], CNN, late);
    assertTrue(closed.contains(late));
    for (int i = 1; i < fits.length; i++) {
      IdleReplicas.closeFit(fits[i]);
    }
  }

  @Test
  void theEndOfAFitClosesItsIdleReplicas() {
    String fit = fit();
    ModelReplica a = IdleReplicas.take(fit, CNN, this::fake);
    ModelReplica b = IdleReplicas.take(fit, CNN, this::fake);
    IdleReplicas.giveBack(fit, CNN, a);
    IdleReplicas.giveBack(fit, CNN, b);
    assertEquals(2, IdleReplicas.idle(fit), "local mode: one per task thread");
    IdleReplicas.closeFit(fit);
    assertEquals(Set.of(a, b), closed);
    assertEquals(0, IdleReplicas.idle(fit));
  }

  @Test
  void replicasIdleBeyondTheLimitAreClosedAndAStageOfTheirFitStillRunningGivesBackAsUsual() {
    String fit = fit();
    ModelReplica waiting = IdleReplicas.take(fit, CNN, this::fake);
    ModelReplica running = IdleReplicas.take(fit, CNN, this::fake);
    IdleReplicas.giveBack(fit, CNN, waiting);
    long now = System.nanoTime();
    IdleReplicas.closeIdle(now + IdleReplicas.IDLE_LIMIT_NANOS / 2);
    assertFalse(closed.contains(waiting), "within the limit it waits for the fit's next stage");
    IdleReplicas.closeIdle(now + IdleReplicas.IDLE_LIMIT_NANOS + 1);
    assertTrue(closed.contains(waiting), "beyond the limit its native memory is freed");
    assertEquals(0, IdleReplicas.idle(fit));
    IdleReplicas.giveBack(fit, CNN, running);
    assertFalse(closed.contains(running), "the stage that was still running keeps its replica for the next");
    assertEquals(1, IdleReplicas.idle(fit));
    IdleReplicas.closeFit(fit);
  }
}
