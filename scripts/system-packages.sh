#!/usr/bin/env bash
# Installs the Debian packages the project needs beside Python.
#   bash scripts/system-packages.sh modules   a JDK (javac): every module carries the Adjudicator
#                                             extension, compiled when modules are built
#   bash scripts/system-packages.sh           everything the test suite drives for real as well:
#                                             headless Chromium (+ driver), PostgreSQL, Xvfb and,
#                                             when VASSAL_ENGINE_JAR names an engine jar, the Java
#                                             libraries the real VASSAL engine runs with
#                                             (tests/engine; the list of ../shared/tools/vassal-check)
# Needs root and apt-get. Without them: for modules, an error saying what to install (a module is
# never built without its extension); for the tests, a note, and the tests needing them skip.
set -u
what=${1:-all}
need=()
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
if [ "$what" != modules ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb)
  command -v wrk >/dev/null 2>&1 || need+=(wrk)  # the benchmark's load generator (its own test)
  if [ -n "${VASSAL_ENGINE_JAR:-}" ]; then
    command -v xauth >/dev/null 2>&1 || need+=(xauth)
    [ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
    # package:jar pairs: a package is wanted when its jar is missing from /usr/share/java
    for pair in libcommons-lang3-java:commons-lang3 libcommons-io-java:commons-io \
        libcommons-codec-java:commons-codec libslf4j-java:slf4j-api liblogback-java:logback-classic \
        libmiglayout-java:miglayout-swing libjsoup-java:jsoup libbatik-java:batik-all \
        libswingx-java:swingx libtimingframework-java:TimingFramework libgetopt-java:gnu-getopt \
        libjlayer-java:jl libasm-java:asm libhttpclient5-java:httpclient5 libhttpcore5-java:httpcore5 \
        libmaven3-core-java:maven-artifact-3.x; do
      [ -f "/usr/share/java/${pair#*:}.jar" ] || need+=("${pair%%:*}")
    done
  fi
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  if [ "$what" = modules ]; then
    echo "system-packages: building modules needs a JDK (javac): install ${need[*]} (e.g. apt-get install default-jdk-headless)" >&2
    exit 1
  fi
  echo "system-packages: missing ${need[*]} (not root or no apt-get); tests needing them will skip" >&2
  exit 0
fi
echo "system-packages: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
if ! apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1; then
  if [ "$what" = modules ]; then
    echo "system-packages: apt-get install ${need[*]} failed; modules cannot be built without a JDK" >&2
    exit 1
  fi
  echo "system-packages: apt-get install failed; tests needing ${need[*]} will skip" >&2
fi
exit 0
