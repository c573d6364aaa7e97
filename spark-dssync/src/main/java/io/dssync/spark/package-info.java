/**
 * Spark's internals, in one package: the barrier tasks' rendezvous, the task slots and executor hosts of
 * the cluster, the standalone master probe, the driver's block reports, the JVM's Spark environment
 * ({@link io.dssync.spark.SparkEnvs}), and {@link io.dssync.spark.SparkVersions}, the one place where the
 * Spark versions differ. Everything here may change with a Spark release; {@code LayeringTest} keeps these
 * calls out of the other packages.
 */
package io.dssync.spark;
