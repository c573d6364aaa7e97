#!/usr/bin/env bash
# Your table and your network on a Spark cluster, end to end, then checked in PyTorch:
#   1. a Parquet table (pixels: an ML vector, label: a class index) from Fashion-MNIST;
#   2. your nn.Module (your-table/your_net.py) exported with python/dssync_export.py;
#   3. dssync-submit ... train --data <table> --model-file <net.pt> --save-model <dir> on the cluster;
#   4. DsSyncClassificationModel.load(<dir>).transform(test table) in a new Spark application;
#   5. torch.jit.load(<dir>/model.pt) scores the same rows; the script fails below 99.9% agreement.
#
# Environment (all optional):
#   MASTER          the cluster (default $DSSYNC_MASTER_URL or spark://127.0.0.1:7077, standalone-cluster's)
#   WORKERS         replicas, one executor core each (default 2)
#   OUT             the run's folder: table/, net.pt, model/, scored/ (default ./your-table-run)
#   TRAIN_ROWS, TEST_ROWS   table sizes (default 8000 and 1000)
#   DSSYNC_PYTHON   a Python that imports torch (default: python3 when it does, else /usr/bin/python3)
# Extra arguments go to dssync train (e.g. --epochs 3 --learning-rate 0.05).
#
# Every path is read by the driver and the executors and by Python: on one machine, or with OUT on
# a file system every node mounts at the same path. Steps 1 and 4 run Spark in local mode through
# the JDK's source launcher (your-table/YourTable.java); only training uses the cluster.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scripts=$(cd "$here/.." && pwd)
source "$scripts/lib/layout.sh"
source "$scripts/lib/java.sh"
master="${MASTER:-${DSSYNC_MASTER_URL:-spark://127.0.0.1:7077}}"
workers="${WORKERS:-2}"
out="${OUT:-your-table-run}"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# A version manager's python3 often lacks torch while the system one has it, so try both.
python="${DSSYNC_PYTHON:-}"
if [[ -z "$python" ]]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c "import torch" 2>/dev/null; then
      python=$candidate
      break
    fi
  done
  [[ -n "$python" ]] || die "no python3 here imports torch; install PyTorch (<= 2.7) or set DSSYNC_PYTHON"
fi

ensure_build
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
local_spark() {
  "$java_cmd" "${module_flags[@]}" -Xmx1g -Dlog4j2.configurationFile="file:$scripts/log4j2-cli.properties" \
    -cp "$app_jar:$build_dir/lib/*" "$here/your-table/YourTable.java" "$@"
}

echo "== 1. the table" >&2
local_spark table "$out/table" "${TRAIN_ROWS:-8000}" "${TEST_ROWS:-1000}"

echo "== 2. the network" >&2
# --seed: the same initial weights on every run, so runs of this script compare.
"$python" "$repo_dir/python/dssync_export.py" --module your_net:YourNet --args '{"classes": 10}' \
  --input-shape 1,28,28 --output-size 10 --module-path "$here/your-table" --seed 7 --out "$out/net.pt"

echo "== 3. training on $master" >&2
# One executor per replica, one core each: N executors give the barrier stage its N slots.
"$scripts/dssync-submit" --master "$master" --total-executor-cores "$workers" --executor-cores 1 \
  train --workers "$workers" --schedule random --group-size 2 \
  --data "$out/table/train.parquet" --test-data "$out/table/test.parquet" --format parquet \
  --features-col pixels --label-col label --model-file "$out/net.pt" --save-model "$out/model" \
  --epochs 2 "$@"

echo "== 4. the saved model in a new Spark application" >&2
local_spark score "$out/model" "$out/table/test.parquet" "$out/scored"

echo "== 5. the same rows in PyTorch" >&2
"$python" "$repo_dir/python/examples/compare_with_spark.py" --model "$out/model/model.pt" \
  --predictions "$out/scored" --min-agreement 0.999
