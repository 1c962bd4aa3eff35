# Sourced by bin/restore-worker, bin/compaction-worker and bin/job-launcher, which set $tool (the
# jar's name), $options (a java argument file beside bin/, or empty) and $bin (their directory,
# symlinks followed). Finds the jar, the options and java, then replaces the shell with the JVM:
# the script's pid becomes java's, so SIGTERM and SIGINT reach the JVM, which stops the worker
# cleanly (exit 40).
home=$(dirname -- "$bin")

# the image's layout (/app/bin/<tool> beside /app/<tool>.jar) or the checkout's (<module>/target)
if [ -f "$home/$tool.jar" ]; then
  jar=$home/$tool.jar
elif [ -f "$home/$tool/target/$tool.jar" ]; then
  jar=$home/$tool/target/$tool.jar
else
  echo "$tool: no $home/$tool.jar and no $home/$tool/target/$tool.jar: build the jars first (mvn -B -DskipTests package in $home)" >&2
  exit 1
fi

if [ -n "${JAVA_HOME:-}" ]; then
  java=$JAVA_HOME/bin/java
  if [ ! -x "$java" ]; then
    echo "$tool: JAVA_HOME is $JAVA_HOME, but $java is not an executable: point JAVA_HOME at a Java 17" >&2
    exit 1
  fi
elif ! java=$(command -v java); then
  echo "$tool: no java on PATH and JAVA_HOME is not set: install Java 17 or set JAVA_HOME" >&2
  exit 1
fi

# The java command line, built back to front: [-Xlog...] [@options] [archive] JAVA_OPTS -jar JAR ARGS.
# JAVA_OPTS is split at blanks and never globbed; it comes after the argument file, so its -Xmx
# wins over the file's.
set -f
# shellcheck disable=SC2086
set -- $JAVA_OPTS -jar "$jar" "$@"
set +f
# the class archive written for this jar, when one lies beside it (the image's; by hand: docs/tuning.md)
if [ -f "${jar%.jar}.jsa" ]; then
  set -- "-XX:SharedArchiveFile=${jar%.jar}.jsa" "$@"
fi
# the workers' options (a small serial-collected heap, C2 for what is hot) in the checkout; the
# image has no such file: there JAVA_TOOL_OPTIONS sizes the heap from the container's memory limit
if [ -n "$options" ] && [ -f "$home/$options" ]; then
  set -- "@$home/$options" "$@"
fi
# the JVM's own warnings (an archive it cannot use, for one) go to stderr, as the programs' logs
# do: stdout holds only the result JSON, or the launcher's YAML
exec "$java" -Xlog:disable -Xlog:all=warning:stderr "$@"
