package io.dssync.metrics;

/**
 * The first line of a metrics file: which run, its schedule and group size, the number of
 * workers and the whole configuration as text. Built by the trainer's configuration
 * ({@code TrainerConfig#runHeader}), so metrics does not depend on how settings are declared.
 */
public record RunHeader(String run, String schedule, int groupSize, int workers, String config) {}
