#!/usr/bin/env bash
# Copies Fair's affairs data (fair.csv, as statsmodels ships it) into the dssync dataset cache.
#
# Usage: datasets/fair-affairs/fetch.sh [cache-root]
#   Writes <cache-root>/fair-affairs/fair.csv from the Debian package python3-statsmodels: the
#   installed one, else `apt-get download` + `dpkg-deb -x` (no root, no install).
set -euo pipefail
NAME=fair-affairs
source "$(dirname "$0")/../common.sh"

SHA256=fd5f3f094a34fc35ca346a14c359e046ed27843038d6921efcd50a7ab21f6af0
PACKAGE=python3-statsmodels

if [[ -f "$dir/fair.csv" && "$(sha256_of "$dir/fair.csv")" == "$SHA256" ]]; then
  log "using $dir/fair.csv (cached, verified)"
  exit 0
fi
source_file="$(dpkg -L "$PACKAGE" 2>/dev/null | grep '/datasets/fair/fair.csv$' || true)"
if [[ -z "$source_file" ]]; then
  unpacked="$(debian_unpack "$PACKAGE")"
  source_file="$(find "$unpacked" -path '*/datasets/fair/fair.csv' | head -n1)"
fi
[[ -n "$source_file" ]] || { log "$PACKAGE holds no datasets/fair/fair.csv"; exit 1; }
cp "$source_file" "$work/fair.csv"
actual="$(sha256_of "$work/fair.csv")"
[[ "$actual" == "$SHA256" ]] || { log "SHA-256 of fair.csv is $actual, expected $SHA256"; exit 1; }
place "$work/fair.csv" fair.csv
