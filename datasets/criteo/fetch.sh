#!/usr/bin/env bash
# Puts a Criteo Display Advertising Challenge train.txt you downloaded into the dssync cache.
#
# Usage: datasets/criteo/fetch.sh PATH [cache-root]
#   PATH is Kaggle's dac.tar.gz (or criteo-research-kaggle-display-advertising-challenge-dataset.tar.gz)
#   or an unpacked train.txt. Criteo's licence forbids redistribution, so nothing downloads it
#   for you: get the archive from Kaggle after accepting its terms (see README.md).
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 PATH-to-dac.tar.gz-or-train.txt [cache-root]" >&2; exit 2; }
src="$1"
shift
NAME=criteo
source "$(dirname "$0")/../common.sh"

[[ -f "$src" ]] || { log "no such file: $src"; exit 1; }
case "$src" in
  *.tar.gz|*.tgz)
    log "unpacking train.txt from $src"
    tar -xzf "$src" -C "$work" --wildcards '*train.txt'
    part="$(find "$work" -name train.txt | head -n1)" ;;
  *) cp "$src" "$work/train.txt"; part="$work/train.txt" ;;
esac
cols="$(head -n1 "$part" | awk -F'\t' '{print NF}')"
[[ "$cols" == 40 ]] || { log "train.txt's first row has $cols columns, expected 40"; exit 1; }
rows="$(wc -l < "$part")"
log "train.txt has $rows rows (the full Kaggle file has 45,840,617)"
place "$part" train.txt
