#!/usr/bin/env bash
# DS-Sync training on a Spark standalone cluster (e.g. the one standalone-cluster starts).
#   MASTER (default $DSSYNC_MASTER_URL or spark://127.0.0.1:7077), DEPLOY_MODE client|cluster
#   (default client), WORKERS (default 4). Extra arguments go to dssync train.
# In cluster mode the driver runs on a worker: its output is in that worker's work folder,
# <cluster dir>/work/worker-*/driver-*/stdout for standalone-cluster.
set -euo pipefail
scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
master="${MASTER:-${DSSYNC_MASTER_URL:-spark://127.0.0.1:7077}}"
workers="${WORKERS:-4}"
# One executor per replica, one core each: N executors give the barrier stage its N slots.
exec "$scripts/dssync-submit" --master "$master" --deploy-mode "${DEPLOY_MODE:-client}" \
  --total-executor-cores "$workers" --executor-cores 1 \
  train --workers "$workers" --schedule random --group-size 2 "$@"
