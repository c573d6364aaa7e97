#!/usr/bin/env bash
# DS-Sync training on YARN (tested against a real MiniYARNCluster by io.dssync.cluster.YarnSubmitTest).
#   HADOOP_CONF_DIR (required) the cluster's configuration; DEPLOY_MODE client|cluster (default client);
#   WORKERS (default 8); QUEUE (default default); EXECUTOR_MEMORY (default 2g); NODE_ENGINE_CACHE_DIR
#   where containers unpack PyTorch's native library (default: inside each container's work folder).
#   Extra arguments go to dssync train.
# Uses $SPARK_HOME/bin/spark-submit when a Spark installation is there, else Spark's launcher over the
# build's jars (they include Spark's YARN client). Without an installation the containers still need
# Spark's jars: set spark.yarn.jars or spark.yarn.archive in a copy of dssync-defaults.conf
# (DSSYNC_PROPERTIES_FILE), or Spark zips and uploads them with every application.
# Fashion-MNIST must be in DSSYNC_DATA_DIR on the machine that runs the driver (with
# DEPLOY_MODE=cluster that is a YARN node: prefer client mode, or cache the data on every node).
set -euo pipefail
scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workers="${WORKERS:-8}"
: "${HADOOP_CONF_DIR:?set HADOOP_CONF_DIR to the YARN cluster configuration}"
engine_cache="${NODE_ENGINE_CACHE_DIR:-djl-cache}"
# Static allocation: barrier stages need all N executors at once for the whole run.
# The engine cache goes to executors and to a cluster-mode driver (it runs in the application master).
exec "$scripts/dssync-submit" --master yarn --deploy-mode "${DEPLOY_MODE:-client}" \
  --queue "${QUEUE:-default}" \
  --num-executors "$workers" --executor-cores 1 --executor-memory "${EXECUTOR_MEMORY:-2g}" \
  --conf "spark.executorEnv.ENGINE_CACHE_DIR=$engine_cache" \
  --conf "spark.yarn.appMasterEnv.ENGINE_CACHE_DIR=$engine_cache" \
  --conf spark.yarn.maxAppAttempts=1 \
  train --workers "$workers" --schedule random --group-size 2 "$@"
