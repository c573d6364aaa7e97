package io.dssync.schedule;

/** A {@code topology} schedule waiting for the hosts of the ranks: racks come from the layout. */
record TopologyPlan(ScheduleSpec spec, RackLayout layout) implements SchedulePlan {
  @Override
  public int workers() {
    return spec.workers();
  }

  @Override
  public GroupSchedule forHosts(String[] hostOfRank) {
    if (hostOfRank.length != spec.workers()) {
      throw new IllegalArgumentException(hostOfRank.length + " hosts for " + spec.workers() + " ranks");
    }
    return Schedules.topology(spec, layout.rackOfRank(hostOfRank));
  }
}
