package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import org.junit.jupiter.api.Test;

class ScheduleSpecValidationTest {

  private static DsSyncException rejected(ScheduleSpec spec) {
    DsSyncException e = assertThrows(DsSyncException.class, () -> Schedules.create(spec));
    assertEquals(ErrorKind.CONFIG, e.kind());
    return e;
  }

  private static void assertMentions(DsSyncException e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void zeroWorkersIsRejected() {
    assertMentions(rejected(new ScheduleSpec(ScheduleKind.RANDOM, 0, 1, 1, 0, 0)), "--workers = 0", "at least 1");
  }

  @Test
  void groupSizeZeroIsRejected() {
    assertMentions(
        rejected(new ScheduleSpec(ScheduleKind.RANDOM, 8, 0, 1, 0, 0)),
        "--group-size = 0", "group size must be between 1 and the number of workers N=8");
  }

  @Test
  void groupSizeAboveWorkersIsRejected() {
    assertMentions(
        rejected(new ScheduleSpec(ScheduleKind.RANDOM, 8, 9, 1, 0, 0)),
        "--group-size = 9", "group size must be between 1 and the number of workers N=8");
  }

  @Test
  void shufflePeriodZeroIsRejected() {
    assertMentions(rejected(new ScheduleSpec(ScheduleKind.RANDOM, 8, 2, 0, 0, 0)), "--shuffle-period = 0");
  }

  @Test
  void negativeGlobalAveragePeriodIsRejected() {
    assertMentions(
        rejected(new ScheduleSpec(ScheduleKind.RANDOM, 8, 2, 1, -1, 0)), "--global-average-period = -1");
  }

  @Test
  void butterflyWithWorkersNotAPowerOfGroupSizeSaysWhichPowersWork() {
    assertMentions(
        rejected(new ScheduleSpec(ScheduleKind.BUTTERFLY, 6, 4, 1, 0, 0)),
        "--workers = 6", "power of the group size g=4", "N = g^m such as 16, 64, 256");
    assertMentions(
        rejected(new ScheduleSpec(ScheduleKind.BUTTERFLY, 12, 2, 1, 0, 0)), "such as 4, 8, 16");
  }

  @Test
  void butterflySuggestsGroupSizesThatFitTheWorkers() {
    assertMentions(rejected(new ScheduleSpec(ScheduleKind.BUTTERFLY, 16, 3, 1, 0, 0)), "N=16 use g = 2, 4");
  }

  @Test
  void butterflyWithGroupsOfOneNeedsASingleWorker() {
    assertMentions(rejected(new ScheduleSpec(ScheduleKind.BUTTERFLY, 4, 1, 1, 0, 0)), "g >= 2");
    Schedules.create(new ScheduleSpec(ScheduleKind.BUTTERFLY, 1, 1, 1, 0, 0));
  }

  @Test
  void negativeStepIsRejected() {
    GroupSchedule schedule = Schedules.create(ScheduleSpec.of(ScheduleKind.RANDOM, 4, 2, 1, 0, 0));
    assertMentions(assertThrows(DsSyncException.class, () -> schedule.groupsAt(-1)), "step = -1");
  }

  @Test
  void validSpecValidatesToItself() {
    ScheduleSpec spec = ScheduleSpec.of(ScheduleKind.BUTTERFLY, 27, 3, 1, 10, 5);
    assertEquals(spec, spec.validate());
  }

  @Test
  void kindParsesCliNamesAndRejectsUnknownOnes() {
    assertEquals(ScheduleKind.BUTTERFLY, ScheduleKind.parse(" Butterfly "));
    assertMentions(
        assertThrows(DsSyncException.class, () -> ScheduleKind.parse("ring")),
        "'ring'", "full", "butterfly");
  }
}
