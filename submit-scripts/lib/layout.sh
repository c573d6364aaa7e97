# Sourced by the submit scripts: where the build output is, and a Spark "installation" made of the
# Maven-resolved Spark jars (there is no Spark binary distribution on these machines).
#
# Knobs (environment):
#   DSSYNC_BUILD_DIR  the module's build folder (default spark-dssync/target; tests pass theirs)
#   DSSYNC_APP_JAR    the application jar (default: the jar in the build folder)
#   SPARK_HOME        a real Spark installation with bin/spark-submit; used as is when present

scripts_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo_dir=$(cd "$scripts_dir/.." && pwd)
build_dir="${DSSYNC_BUILD_DIR:-$repo_dir/spark-dssync/target}"
app_jar="${DSSYNC_APP_JAR:-$build_dir/spark-dssync-0.1.0-SNAPSHOT.jar}"
read -r -a module_flags < "$scripts_dir/java-module-flags"
source "$scripts_dir/lib/scala-version.sh"

die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# Builds the project on first use, as the dssync command does, when the default layout is missing.
ensure_build() {
  if [[ -f "$app_jar" && -d "$build_dir/lib" && -d "$build_dir/app-lib" ]]; then
    return
  fi
  if [[ -n "${DSSYNC_BUILD_DIR:-}${DSSYNC_APP_JAR:-}" ]]; then
    die "no build at DSSYNC_BUILD_DIR=$build_dir (need $app_jar, lib/ and app-lib/); run mvn -DskipTests package there or unset DSSYNC_BUILD_DIR"
  fi
  echo "[dssync] building (first run): mvn -DskipTests package" >&2
  (cd "$repo_dir" && mvn -q -B -DskipTests package) >&2
}

# The jars an application adds to a Spark installation, comma separated (spark-submit --jars).
app_jars_csv() {
  local jars=("$build_dir"/app-lib/*.jar)
  [[ -e "${jars[0]}" ]] || die "no jars in $build_dir/app-lib; run mvn -DskipTests package"
  local IFS=,
  echo "${jars[*]}"
}

# The Scala version the build's Spark was compiled for (2.12 or 2.13).
build_scala_version() {
  spark_scala_version "$build_dir/lib" || die "no Spark jars in $build_dir/lib; run mvn -DskipTests package"
}

# A SPARK_HOME whose jars/ holds Spark and its dependencies: the build's lib/ minus the app jars.
# Workers launch executors (and cluster-mode drivers) from $SPARK_HOME/jars, like a distribution.
spark_dist_home() {
  local home="$build_dir/spark-dist"
  if [[ ! -d "$home/jars" || "$build_dir/lib" -nt "$home/jars" || "$build_dir/app-lib" -nt "$home/jars" ]]; then
    rm -rf "$home/jars.new"
    mkdir -p "$home/jars.new"
    local jar
    for jar in "$build_dir"/lib/*.jar; do
      [[ -e "$build_dir/app-lib/$(basename "$jar")" ]] || ln -s "$jar" "$home/jars.new/"
    done
    rm -rf "$home/jars"
    mv "$home/jars.new" "$home/jars"
  fi
  echo "$home"
}
