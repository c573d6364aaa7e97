/**
 * Who averages with whom after each step: pure, seeded functions of the step number, identical on
 * every worker and in every run (no Spark, no DJL).
 *
 * <p>Build a schedule with {@link io.dssync.schedule.Schedules#create} from a
 * {@link io.dssync.schedule.ScheduleSpec}. Kinds: FULL (one group of N), LOCAL (groups of one),
 * RANDOM (a seeded random partition, redrawn every P steps), BUTTERFLY (digit rotation for
 * N = g^m: exact global average every m steps). Any kind can add a global average every H steps
 * ({@link io.dssync.schedule.WithGlobalAverage}).
 *
 * <p>When N is not divisible by g (RANDOM), there are floor(N/g) groups and the N mod g leftover
 * ranks join the first groups one each, so groups have g or g+1 members (more only when the
 * leftovers outnumber the groups, e.g. N=5, g=3 gives a single group of 5). No group is ever
 * smaller than g.
 */
package io.dssync.schedule;
