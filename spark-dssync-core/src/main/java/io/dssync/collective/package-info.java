/**
 * Group all-reduce over a {@link io.dssync.collective.Transport}: the slice rule
 * ({@link io.dssync.collective.Chunking}), the two-phase direct reduce-scatter / all-gather
 * ({@link io.dssync.collective.GroupAllReduce}) and an in-memory transport for tests and
 * single-JVM runs. No Spark, no DJL: the Spark transport lives in the transport package.
 */
package io.dssync.collective;
