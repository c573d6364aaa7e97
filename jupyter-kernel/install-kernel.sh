#!/usr/bin/env bash
# Installs the project's Java kernel for Jupyter as "dssync-java" (Jupyter's user data folder, or
# $JUPYTER_DATA_DIR): java with Spark's module flags, the kernel jar and target/lib/* (which holds
# spark-dssync and its dependencies). Builds the project first when needed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
jar="$here/target/dssync-jupyter-kernel-0.1.0-SNAPSHOT.jar"
if [[ ! -f "$jar" || ! -d "$here/target/lib" ]]; then
  (cd "$root" && mvn -q -B -DskipTests package)
fi
data_dir="${JUPYTER_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/jupyter}"
dir="$data_dir/kernels/dssync-java"
mkdir -p "$dir"
read -r -a flags < "$root/submit-scripts/java-module-flags"
source "$root/submit-scripts/lib/java.sh"
args=("$java_cmd" "${flags[@]}" "-Xmx${DSSYNC_KERNEL_MEMORY:-4g}" -Dai.djl.offline=true -Djava.awt.headless=true
  "-Dlog4j2.configurationFile=$root/submit-scripts/log4j2-cli.properties" -cp "$jar:$here/target/lib/*" io.dssync.kernel.KernelMain "{connection_file}")
{
  printf '{\n  "argv": ['
  sep=""
  for a in "${args[@]}"; do printf '%s"%s"' "$sep" "${a//\"/\\\"}"; sep=", "; done
  printf '],\n  "display_name": "Java (dssync)",\n  "language": "java",\n  "interrupt_mode": "message",\n'
  # glibc malloc settings for PyTorch's per-step tensors (io.dssync.replica.NativeAllocator).
  printf '  "env": {"SPARK_LOCAL_IP": "127.0.0.1"'
  read -r -a malloc_env < "$root/submit-scripts/malloc-env"
  for setting in "${malloc_env[@]}"; do printf ', "%s": "%s"' "${setting%%=*}" "${setting#*=}"; done
  printf '}\n}\n'
} > "$dir/kernel.json"
echo "Installed kernel dssync-java in $dir"
