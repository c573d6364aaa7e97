#!/usr/bin/env bash
# DS-Sync training on YARN (documented, not run here: there is no YARN cluster on this machine).
# Needs a Spark installation (SPARK_HOME/bin/spark-submit) configured for your cluster
# (HADOOP_CONF_DIR), and Fashion-MNIST in DSSYNC_DATA_DIR on the machine that runs the driver
# (with DEPLOY_MODE=cluster that is a YARN node: prefer client mode, or cache the data on every node).
set -euo pipefail
scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workers="${WORKERS:-8}"
: "${SPARK_HOME:?set SPARK_HOME to a Spark 4.1 installation with YARN support}"
: "${HADOOP_CONF_DIR:?set HADOOP_CONF_DIR to the YARN cluster configuration}"
# Static allocation: barrier stages need all N executors at once for the whole run.
# ENGINE_CACHE_DIR relative: DJL unpacks its native library inside each container's work folder.
exec "$scripts/dssync-submit" --master yarn --deploy-mode "${DEPLOY_MODE:-client}" \
  --queue "${QUEUE:-default}" \
  --num-executors "$workers" --executor-cores 1 --executor-memory 2g \
  --conf spark.executorEnv.ENGINE_CACHE_DIR=djl-cache \
  --conf spark.yarn.maxAppAttempts=1 \
  train --workers "$workers" --schedule random --group-size 2 "$@"
