#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real: headless Chromium
# (+ its driver) for the page tests, PostgreSQL for the storage tests, and, when
# VASSAL_ENGINE_JAR names an engine jar, Xvfb and the Java libraries the real VASSAL
# engine runs with (tests/engine; the list of ../shared/tools/vassal-check/README.md).
# Best effort: without root or apt the tests that need them skip with a reason.
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb)
if [ -n "${VASSAL_ENGINE_JAR:-}" ]; then
  command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
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
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-packages: missing ${need[*]} (not root or no apt-get); tests needing them will skip" >&2
  exit 0
fi
echo "system-packages: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
  || echo "system-packages: apt-get install failed; tests needing ${need[*]} will skip" >&2
exit 0
