#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real: headless Chromium
# (+ its driver) for the page tests and PostgreSQL for the storage tests.
# Best effort: without root or apt the tests that need them skip with a reason.
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb)
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
