# Sourced by ./strata and ./run-tests: finds a JDK >= 21 and Maven, or says clearly what is missing.
# Order: $JAVA_HOME, then `java` on PATH, then the usual install folders.

strata_java_major() {
  # Prints the major version of the java binary given, or nothing.
  # The JDK's release file answers without starting a JVM (each start costs ~0.2 s of every ./strata run).
  local release v
  release="$(dirname "$(dirname "$1")")/release"
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release" | head -n1)
    if [ -n "$v" ] && [ "$v" != 1 ]; then
      echo "$v"
      return 0
    fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1
}

strata_find_jdk() {
  local candidates=() c home major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v javac)")
    candidates+=("$(dirname "$(dirname "$c")")")
  fi
  for c in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /usr/local/opt/openjdk*/libexec/openjdk.jdk/Contents/Home \
           /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for home in "${candidates[@]}"; do
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
    major=$(strata_java_major "$home/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      echo "$home"
      return 0
    fi
  done
  return 1
}

strata_setup_env() {
  local jdk
  if ! jdk=$(strata_find_jdk); then
    echo "strata: no JDK 21 or newer found." >&2
    echo "  Looked at \$JAVA_HOME, the javac on PATH, and /usr/lib/jvm, /usr/java, /opt/java, ~/.sdkman, ~/.jdks." >&2
    echo "  Install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+) or set JAVA_HOME to it." >&2
    return 1
  fi
  export JAVA_HOME="$jdk"
  # Maven's bundled Guice/Guava use sun.misc.Unsafe; JDK 24+ warns about it on every build.
  if [ "$(strata_java_major "$jdk/bin/java")" -ge 24 ] 2>/dev/null; then
    case " ${MAVEN_OPTS:-} " in
      *sun-misc-unsafe-memory-access*) ;;
      *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
    esac
  fi
  if [ -x "$STRATA_ROOT/mvnw" ]; then
    STRATA_MVN="$STRATA_ROOT/mvnw"
  elif command -v mvn >/dev/null 2>&1; then
    STRATA_MVN=mvn
  else
    echo "strata: Maven not found on PATH." >&2
    echo "  Install Apache Maven 3.8 or newer (e.g. 'apt-get install maven') and try again." >&2
    return 1
  fi
  export STRATA_MVN
}
