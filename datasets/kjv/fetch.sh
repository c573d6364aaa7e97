#!/usr/bin/env bash
# Writes the King James Bible, one verse a line, into the dssync dataset cache and verifies it.
#
# Usage: datasets/kjv/fetch.sh [cache-root]
#   Writes <cache-root>/kjv/kjv-verses.txt with Debian's `bible -f Gen1:1-Rev22:21`: the
#   installed program (package bible-kjv) when there is one, else the program and its text
#   (bible-kjv-text) from `apt-get download` + `dpkg-deb -x`, without installing.
set -euo pipefail
NAME=kjv
source "$(dirname "$0")/../common.sh"

SHA256=cd45f0c9cedab8e4439bd6486c8952c77cc8b0ecc5d1f6ae3513f2039f47229d
target=kjv-verses.txt

if [[ -f "$dir/$target" && "$(sha256_of "$dir/$target")" == "$SHA256" ]]; then
  log "using $dir/$target (cached, verified)"
  exit 0
fi
part="$work/$target"
if ! (command -v bible >/dev/null && bible -f Gen1:1-Rev22:21 > "$part" 2>/dev/null \
    && [[ "$(sha256_of "$part")" == "$SHA256" ]]); then
  log "no working installed bible program; downloading bible-kjv and bible-kjv-text"
  unpacked="$(debian_unpack bible-kjv bible-kjv-text)"
  (cd "$unpacked/usr/lib" && "$unpacked/usr/bin/bible" -p "$unpacked/usr/lib" -f Gen1:1-Rev22:21) > "$part"
fi
actual="$(sha256_of "$part")"
[[ "$actual" == "$SHA256" ]] || { log "SHA-256 of the verses is $actual, expected $SHA256"; exit 1; }
place "$part" "$target"
