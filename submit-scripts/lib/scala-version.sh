# Sourced by the dssync command and lib/layout.sh.
#
# spark_scala_version LIB_DIR: the Scala version (2.12 or 2.13) the Spark jars in LIB_DIR were built for,
# from the name of their spark-core jar; fails when there is none. Spark's launcher wants it in
# SPARK_SCALA_VERSION even when the jars come from a class path.
spark_scala_version() {
  local core=("$1"/spark-core_*.jar)
  [[ -e "${core[0]}" ]] || return 1
  local name=${core[0]##*/spark-core_}
  echo "${name%%-*}"
}
