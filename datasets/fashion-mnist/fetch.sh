#!/usr/bin/env bash
# Fetches Fashion-MNIST into the dssync dataset cache and verifies it.
#
# Usage: datasets/fashion-mnist/fetch.sh [cache-root]
#   cache-root defaults to $DSSYNC_DATA_DIR, else ~/.cache/dssync/datasets; files go to
#   <cache-root>/fashion-mnist/. Already verified files are kept.
#
# Order: the official source (curl with short timeouts: a blocked network can hang instead of
# refusing), then the Debian package dataset-fashion-mnist (installed, else `apt-get download`
# + `dpkg-deb -x`, no root needed; existing package lists only). Every file is verified by the
# SHA-256 of its decompressed content, which is the same for upstream's and Debian's archives.
set -euo pipefail

OFFICIAL_URL="http://fashion-mnist.s3-website.eu-central-1.amazonaws.com"
PACKAGE="dataset-fashion-mnist"
declare -A SHA256=(
  [train-images-idx3-ubyte]=c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888
  [train-labels-idx1-ubyte]=bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9
  [t10k-images-idx3-ubyte]=5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b
  [t10k-labels-idx1-ubyte]=0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34
)
FILES=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)

root="${1:-${DSSYNC_DATA_DIR:-$HOME/.cache/dssync/datasets}}"
dir="$root/fashion-mnist"
mkdir -p "$dir"
work="$(mktemp -d "$dir/.fetch-XXXXXX")"
trap 'rm -rf "$work"' EXIT

log() { echo "fetch.sh: $*" >&2; }

# verify FILE NAME: true when FILE (gzip or raw) decompresses to NAME's recorded content.
verify() {
  local actual
  actual="$(gzip -dcf "$1" 2>/dev/null | sha256sum | cut -d' ' -f1)" || return 1
  [[ "$actual" == "${SHA256[$2]}" ]]
}

# place FILE NAME: moves a verified download into the cache atomically (same file system).
place() {
  mv -f "$1" "$dir/$2.gz"
  log "using $dir/$2.gz"
}

official_ok=1
debian_root=""

from_official() {
  local name="$1" part="$work/$1.gz"
  [[ $official_ok == 1 ]] || return 1
  log "fetching $name.gz from $OFFICIAL_URL/$name.gz"
  if curl -fsSL --connect-timeout 5 --speed-time 15 --speed-limit 1024 --max-time 600 \
      -o "$part" "$OFFICIAL_URL/$name.gz" && verify "$part" "$name"; then
    place "$part" "$name"
    return 0
  fi
  log "the official source failed for $name.gz; not trying it for the other files"
  official_ok=0
  return 1
}

# Sets debian_root to a folder holding the package's files (installed or unpacked), once.
debian_files() {
  [[ -n "$debian_root" ]] && return 0
  local installed
  if installed="$(dpkg -L "$PACKAGE" 2>/dev/null | grep '/train-images-idx3-ubyte.gz$')"; then
    debian_root="$(dirname "$installed")"
    return 0
  fi
  log "fetching $PACKAGE with apt-get download (package lists are not updated)"
  if ! (cd "$work" && apt-get download "$PACKAGE" >&2); then
    log "apt-get download $PACKAGE failed; if the package is unknown, run apt-get update first"
    return 1
  fi
  # Explicit checks: `set -e` does not apply inside a function called from an `||` list.
  dpkg-deb -x "$work"/"$PACKAGE"_*.deb "$work/deb" || { log "dpkg-deb -x failed"; return 1; }
  local found
  found="$(find "$work/deb" -name train-images-idx3-ubyte.gz | head -n1)"
  [[ -n "$found" ]] || { log "$PACKAGE holds no train-images-idx3-ubyte.gz"; return 1; }
  debian_root="$(dirname "$found")"
}

from_debian() {
  local name="$1" part="$work/$1.gz"
  debian_files || return 1
  log "using $name.gz from the Debian package $PACKAGE"
  cp "$debian_root/$name.gz" "$part"
  if verify "$part" "$name"; then
    place "$part" "$name"
    return 0
  fi
  log "$name.gz from $PACKAGE failed verification"
  return 1
}

failed=0
for name in "${FILES[@]}"; do
  if [[ -f "$dir/$name.gz" ]] && verify "$dir/$name.gz" "$name"; then
    log "using $dir/$name.gz (cached, verified)"
    continue
  fi
  [[ -f "$dir/$name.gz" ]] && log "cached $dir/$name.gz failed verification; fetching again"
  from_official "$name" || from_debian "$name" || { log "could not get $name.gz"; failed=1; }
done

if [[ $failed == 1 ]]; then
  log "Fashion-MNIST is incomplete. Download the four files from $OFFICIAL_URL/ into $dir,"
  log "or install the Debian package ($PACKAGE), or set DSSYNC_DATA_DIR to a folder whose"
  log "fashion-mnist/ subfolder holds them."
  exit 1
fi
log "Fashion-MNIST is ready in $dir"
