#!/usr/bin/env bash
# Installs strut's build dependencies from Debian 12 packages, only if any is missing. clang and
# its libFuzzer runtime build the fuzzers that the test suite runs (tools/fuzz.sh).
set -euo pipefail
packages=(cmake g++ ninja-build pkg-config libtbb-dev libxsimd-dev libbenchmark-dev libgtest-dev
          nlohmann-json3-dev libxxhash-dev libcairo2-dev libmsgpack-cxx-dev libzstd-dev
          libcli11-dev chromium clang libclang-rt-14-dev
          python3-dev python3-numpy python3-pytest pybind11-dev python3-distributed)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
