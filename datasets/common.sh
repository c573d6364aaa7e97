# Shared helpers for the datasets/*/fetch.sh scripts (sourced, not run).
# The including script sets NAME (the cache subfolder); this sets $dir and a temporary $work.

root="${1:-${DSSYNC_DATA_DIR:-$HOME/.cache/dssync/datasets}}"
dir="$root/$NAME"
mkdir -p "$dir"
work="$(mktemp -d "$dir/.fetch-XXXXXX")"
trap 'rm -rf "$work"' EXIT

log() { echo "fetch.sh: $*" >&2; }

# sha256_of FILE: SHA-256 of FILE's content, decompressed when it is gzip.
sha256_of() { gzip -dcf "$1" 2>/dev/null | sha256sum | cut -d' ' -f1; }

# place FILE TARGET_NAME: moves a verified file into the cache (same file system: atomic).
place() {
  mv -f "$1" "$dir/$2"
  log "using $dir/$2"
}

# debian_unpack PACKAGE...: prints a folder holding the packages' files, downloaded with
# `apt-get download` and unpacked with `dpkg-deb -x` (no root, no install, no apt-get update).
debian_unpack() {
  local out="$work/debian"
  mkdir -p "$out"
  (cd "$work" && apt-get download "$@" >&2) || {
    log "apt-get download $* failed; if a package is unknown, run apt-get update first"
    return 1
  }
  local deb
  for deb in "$work"/*.deb; do
    dpkg-deb -x "$deb" "$out" || { log "dpkg-deb -x $deb failed"; return 1; }
  done
  echo "$out"
}
