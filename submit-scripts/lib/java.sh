# Sourced: sets java_cmd to the JDK in JAVA_HOME when one is set, as Maven and spark-submit choose
# it, else to java on the PATH, so every script and the JVMs it starts run on the same Java.
java_cmd=java
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  java_cmd="$JAVA_HOME/bin/java"
fi
