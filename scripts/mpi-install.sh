#!/usr/bin/env bash
# Installs what `cargo build --features mpi` needs on Debian 12 (bookworm), when missing:
# Open MPI (library, headers, mpirun) and libclang for bindgen, with clang's own headers
# (stddef.h; without libclang-common-14-dev, set
# BINDGEN_EXTRA_CLANG_ARGS=-I/usr/lib/gcc/x86_64-linux-gnu/12/include instead).
# Uses sudo only when not root; every step is bounded in time.
#
#   scripts/mpi-install.sh
set -euo pipefail

packages=(libopenmpi-dev openmpi-bin libclang1-14 libclang-common-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "mpi-install: installing ${missing[*]} (apt)"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
timeout 600 "${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive timeout 900 "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
