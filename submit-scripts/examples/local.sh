#!/usr/bin/env bash
# DS-Sync training through spark-submit in local mode: one JVM, N task threads, no cluster.
# Extra arguments are passed to dssync train (e.g. --train-limit 4000 --epochs 1).
set -euo pipefail
scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workers="${WORKERS:-4}"
exec "$scripts/dssync-submit" --master "local[$workers]" \
  --conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1 \
  train --workers "$workers" --schedule random --group-size 2 "$@"
