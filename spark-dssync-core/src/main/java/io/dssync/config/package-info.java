/**
 * The settings of the processes that run spark-dssync (the data plane's Spark properties, the environment),
 * declared and typed in one place; a fit's settings are {@code io.dssync.train.TrainerConfig}'s. Uses only errors;
 * every package may use it.
 */
package io.dssync.config;
