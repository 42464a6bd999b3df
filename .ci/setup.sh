#!/usr/bin/env bash
# FDLab set-up on Debian 12: installs the Debian packages that are missing (once), then
# configures (once) and builds incrementally into build/. Used by both README commands.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(cmake g++ make pkg-config
      libeigen3-dev libglpk-dev zlib1g-dev liblbfgspp-dev liblinear-dev libsvm-dev nlohmann-json3-dev
      libcairo2-dev qt6-base-dev qt6-svg-dev qt6-qpa-plugins libqcustomplot-dev libgl-dev fonts-dejavu-core
      parallel slurm-wlm munge help2man liblinear-tools
      pybind11-dev python3-dev python3-numpy python3-scipy python3-pytest python3-sklearn
      libpython3.11-testsuite)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "FDLab setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
