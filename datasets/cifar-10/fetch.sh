#!/usr/bin/env bash
# Fetches CIFAR-10 (binary version) into the dssync dataset cache.
#
# Usage: datasets/cifar-10/fetch.sh [cache-root]
#   Files go to <cache-root>/cifar-10/ (data_batch_1.bin .. data_batch_5.bin, test_batch.bin).
#   No package registry ships CIFAR-10: only the official archive is used, verified by the MD5
#   its authors publish, and each batch file by its size (10,000 records of 3,073 bytes).
set -euo pipefail
NAME=cifar-10
source "$(dirname "$0")/../common.sh"

URL="https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz"
MD5=c32a1d4ab5d03f1284b67883e8d87530
FILES=(data_batch_1.bin data_batch_2.bin data_batch_3.bin data_batch_4.bin data_batch_5.bin test_batch.bin)

complete() {
  local f
  for f in "${FILES[@]}"; do
    [[ -f "$dir/$f" && $(stat -c %s "$dir/$f") == 30730000 ]] || return 1
  done
}

if complete; then
  log "CIFAR-10 is ready in $dir (cached)"
  exit 0
fi
log "fetching $URL (170,052,171 bytes)"
if ! curl -fSL --connect-timeout 5 --speed-time 30 --speed-limit 1024 -o "$work/a.tar.gz" "$URL"; then
  log "could not download $URL. Download it elsewhere and unpack the six .bin files into $dir."
  exit 1
fi
actual="$(md5sum "$work/a.tar.gz" | cut -d' ' -f1)"
[[ "$actual" == "$MD5" ]] || { log "MD5 of the archive is $actual, expected $MD5"; exit 1; }
tar -xzf "$work/a.tar.gz" -C "$work"
for f in "${FILES[@]}"; do
  place "$work/cifar-10-batches-bin/$f" "$f"
done
complete || { log "the archive's batch files have unexpected sizes"; exit 1; }
log "CIFAR-10 is ready in $dir"
