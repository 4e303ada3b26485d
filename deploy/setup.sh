#!/bin/sh
# Installs what Trawl and its whole test suite need on a Debian or Ubuntu machine, skipping what is
# there: Chromium (browser rendering), Go and Python 3 with venv, setuptools and wheel (the SDK test suites), from
# Debian's packages through apt-get (sudo unless root); Bun at the pinned version through npm; and
# the dependencies from bun.lock. The README's setup and .ci/run both run it, so a newcomer's
# machine gets what CI's gets.
set -eu
cd "$(dirname "$0")/.."

BUN_VERSION=1.4.5

missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v go >/dev/null 2>&1 || missing="$missing golang-go"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
# venv is a separate Debian package; the Python SDK's packaging test builds one, offline, with the
# setuptools and wheel that Debian keeps in /usr/share/python-wheels.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing="$missing python3-venv"; fi
ls /usr/share/python-wheels/setuptools-*.whl >/dev/null 2>&1 || missing="$missing python3-setuptools-whl"
ls /usr/share/python-wheels/wheel-*.whl >/dev/null 2>&1 || missing="$missing python3-wheel-whl"
if [ -n "$missing" ]; then
  echo "Installing Debian packages:$missing"
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing >/dev/null"
fi

if ! command -v bun >/dev/null 2>&1; then
  echo "Installing Bun $BUN_VERSION (npm)"
  npm install -g "bun@$BUN_VERSION"
fi
echo "bun $(bun --version)"

bun install --frozen-lockfile
