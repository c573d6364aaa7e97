package io.dssync.collective;

/**
 * Which of the two phases of an average an exchange runs, under which message phases ({@link MessageId}):
 * both (one average), the reduce-scatter alone (its chunk averaged in place, the rest left as it was), or
 * the all-gather alone (every member's chunk copied from its owner). The in-rack phases of
 * {@link GroupAllReduce#averageInRacks} have message phases of their own, so they never meet the level
 * across racks, which uses those of a flat average.
 */
enum ExchangePhases {
  FLAT(0, 1),
  RACK_REDUCE(2, -1),
  RACK_GATHER(-1, 3);

  /** The message phase of the reduce-scatter, or -1 when it does not run. */
  final int reduce;
  /** The message phase of the all-gather, or -1 when it does not run. */
  final int gather;

  ExchangePhases(int reduce, int gather) {
    this.reduce = reduce;
    this.gather = gather;
  }
}
