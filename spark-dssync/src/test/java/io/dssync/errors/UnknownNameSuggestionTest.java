package io.dssync.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dssync.train.TrainerConfig;
import org.junit.jupiter.api.Test;

/** An unknown name close to a known one (a typo) suggests it; a far one does not. */
class UnknownNameSuggestionTest {
  private static final Object[] SCHEDULES = {"full", "local", "random", "butterfly", "topology", "auto"};

  @Test
  void aTypoOfAKnownNameSuggestsItBeforeTheList() {
    assertEquals("Unknown schedule 'toplogy' (did you mean topology?). Choose one of [full, local, random, butterfly,"
        + " topology, auto].", Errors.unknownName("schedule", "toplogy", SCHEDULES).getMessage());
    assertEquals("--epochs", Errors.closest("--epoch", new Object[] {"--workers", "--epochs", "--eval-every"}));
    assertEquals("fashion-mnist", Errors.closest("Fashion_MNIST", new Object[] {"mnist", "fashion-mnist"}));
  }

  @Test
  void aNameFarFromEveryKnownOneGetsOnlyTheList() {
    assertEquals("Unknown optimizer 'rmsprop'. Choose one of [sgd, adam].",
        Errors.unknownName("optimizer", "rmsprop", new Object[] {"sgd", "adam"}).getMessage());
    assertEquals("full", Errors.closest("ful", SCHEDULES));
    assertNull(Errors.closest("ab", new Object[] {"abc"}), "one edit is half of a two-letter name: no guess");
    assertNull(Errors.closest(null, SCHEDULES));
  }

  @Test
  void aTypoInAFlagWithAFixedSetOfValuesSuggestsTheValue() {
    DsSyncException e = org.junit.jupiter.api.Assertions.assertThrows(DsSyncException.class,
        () -> TrainerConfig.SCHEDULE.parse("toplogy"));
    assertEquals(true, e.getMessage().startsWith("Invalid --schedule = toplogy: must be one of full, local, random,"
        + " butterfly, topology, auto (did you mean topology?). "), e.getMessage());
  }
}
