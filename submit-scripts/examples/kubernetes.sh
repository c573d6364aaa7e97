#!/usr/bin/env bash
# DS-Sync training on Kubernetes (documented, not run here: there is no Kubernetes on this machine).
# Needs a Spark installation (SPARK_HOME/bin/spark-submit), a container image with Spark 4.2 and
# Java 17 (IMAGE), and the project jar and app-lib jars reachable by the pods: either baked into
# the image (then pass DSSYNC_APP_JAR=local:///opt/dssync/spark-dssync.jar and list the jars under
# local:// too) or uploaded through spark.kubernetes.file.upload.path.
set -euo pipefail
scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workers="${WORKERS:-8}"
: "${SPARK_HOME:?set SPARK_HOME to a Spark 4.2 installation}"
: "${K8S_API:?set K8S_API to the API server, e.g. https://kubernetes.example:6443}"
: "${IMAGE:?set IMAGE to a Spark 4.2 / Java 17 container image}"
exec "$scripts/dssync-submit" --master "k8s://$K8S_API" --deploy-mode "${DEPLOY_MODE:-cluster}" \
  --conf spark.kubernetes.container.image="$IMAGE" \
  --conf spark.kubernetes.namespace="${K8S_NAMESPACE:-default}" \
  --conf spark.kubernetes.authenticate.driver.serviceAccountName="${SERVICE_ACCOUNT:-spark}" \
  --conf spark.executor.instances="$workers" --conf spark.executor.cores=1 \
  --conf spark.kubernetes.executor.request.cores=1 \
  --conf spark.executorEnv.ENGINE_CACHE_DIR=/tmp/djl-cache \
  ${UPLOAD_PATH:+--conf spark.kubernetes.file.upload.path="$UPLOAD_PATH"} \
  train --workers "$workers" --schedule random --group-size 2 "$@"
