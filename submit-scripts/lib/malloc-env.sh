# Sourced: exports glibc's malloc settings under which PyTorch's per-step tensors stop faulting
# pages in again every step (io.dssync.replica.NativeAllocator says why) into this shell, so the
# JVM started next gets them. A value already in the environment wins. Leaves malloc_env holding
# the NAME=VALUE pairs in effect, for passing on to processes that do not inherit this environment.
read -r -a malloc_env < "$(dirname "${BASH_SOURCE[0]}")/../malloc-env"
for i in "${!malloc_env[@]}"; do
  name=${malloc_env[$i]%%=*}
  if [[ -n "${!name:-}" ]]; then
    malloc_env[$i]="$name=${!name}"
  else
    export "${malloc_env[$i]}"
  fi
done
unset i name
