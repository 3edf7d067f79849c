#!/usr/bin/env bash
# Builds Fast Downward 19.06 with symt's plugin (fd_plugin/) and libtorch, under build/fast-downward/.
#
# The Fast Downward sources are the registry sdist downward-dlr==19.6.1 (byte-identical to the
# upstream 19.06 release), fetched with pip and checked against a pinned SHA-256; nothing of Fast
# Downward is committed or edited. Cached and idempotent: the build is redone only when fd_plugin/,
# this script, the pinned version or the installed torch changes, and then incrementally (CMake).
#
# Usage: bash scripts/build_fd.sh [--force]      (needs .venv from scripts/setup.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

fd_version="19.6.1"
fd_sdist="downward_dlr-${fd_version}.tar.gz"
fd_sha256="404db7b101a41ec82f67eeee1cf3437df56d0a20e4dbdf541040e68c1a88aad9"

py="$root/.venv/bin/python"
out="$root/build/fast-downward"
src_dir="$out/src"
fd_root="$src_dir/downward_dlr-${fd_version}/downward_dlr"
cmake_dir="$out/cmake"
binary="$cmake_dir/fd/bin/downward"
stamp="$out/.built"
force=0
[ "${1:-}" = "--force" ] && force=1

if [ ! -x "$py" ]; then
    echo "[build_fd] error: $py not found; run scripts/setup.sh first" >&2
    exit 2
fi
torch_version="$("$py" -c 'import torch; print(torch.__version__)')"
fingerprint="$( (echo "$fd_version $fd_sha256 $torch_version"; cat "$0";
                 find fd_plugin -type f -not -path '*/__pycache__/*' | LC_ALL=C sort | xargs cat
                 cat cpp/include/symt/local_net.hpp cpp/src/local_net.cc cpp/src/local_kernels.hpp cpp/src/local_kernels.cc) |
               sha256sum | cut -c1-16)"
if [ "$force" = 0 ] && [ -x "$binary" ] && [ -f "$out/build.json" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$fingerprint" ]; then
    echo "[build_fd] Fast Downward is up to date: $binary"
    exit 0
fi

start=$(date +%s)
mkdir -p "$out/download" "$src_dir"

# 1. The pinned sdist (pip's metadata step needs setuptools and wheel, which setup.sh installs).
if [ ! -f "$out/download/$fd_sdist" ]; then
    echo "[build_fd] downloading downward-dlr==$fd_version (sdist)"
    "$py" -m pip --disable-pip-version-check -q download --no-deps --no-binary :all: \
        --no-build-isolation "downward-dlr==$fd_version" -d "$out/download"
fi
actual_sha="$(sha256sum "$out/download/$fd_sdist" | cut -d' ' -f1)"
if [ "$actual_sha" != "$fd_sha256" ]; then
    echo "[build_fd] error: $fd_sdist has SHA-256 $actual_sha, expected $fd_sha256" >&2
    rm -f "$out/download/$fd_sdist"
    exit 1
fi

# 2. Unpacked once (the sources are never modified, so an existing tree is reused).
if [ ! -f "$fd_root/fast-downward.py" ]; then
    echo "[build_fd] unpacking $fd_sdist"
    rm -rf "$src_dir/downward_dlr-${fd_version}"
    tar -xzf "$out/download/$fd_sdist" -C "$src_dir"
fi

# 3. Configure (fd_plugin/CMakeLists.txt adds Fast Downward's src/ as a subdirectory) and build.
torch_prefix="$("$py" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
pybind11_dir="$("$py" -m pybind11 --cmakedir)"   # for wl()'s embedded interpreter
export PATH="$root/.venv/bin:$PATH"   # cmake and ninja from the virtual environment
# A build tree configured for another Fast Downward tree (a changed pin) is started afresh.
if [ -f "$cmake_dir/CMakeCache.txt" ] &&
   ! grep -qxF "FAST_DOWNWARD_ROOT:PATH=$fd_root" "$cmake_dir/CMakeCache.txt"; then
    rm -rf "$cmake_dir"
fi
generator=()
if [ ! -f "$cmake_dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    generator=(-G Ninja)
fi
echo "[build_fd] configuring"
cmake -S "$root/fd_plugin" -B "$cmake_dir" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
    -DFAST_DOWNWARD_ROOT="$fd_root" \
    -DCMAKE_PREFIX_PATH="$torch_prefix" \
    -Dpybind11_DIR="$pybind11_dir" -DPython_EXECUTABLE="$py" >"$out/configure.log" 2>&1 ||
    { tail -n 40 "$out/configure.log" >&2; echo "[build_fd] error: CMake configure failed (log: $out/configure.log)" >&2; exit 1; }
echo "[build_fd] building (2 jobs; a full build takes a few minutes)"
cmake --build "$cmake_dir" -j "${SYMT_BUILD_JOBS:-2}" >"$out/build.log" 2>&1 ||
    { grep -E "error|Error" "$out/build.log" | head -n 40 >&2; echo "[build_fd] error: build failed (log: $out/build.log)" >&2; exit 1; }

# build.json tells `fast-downward` (python/symt/fast_downward/build.py) where everything is.
"$py" - "$out/build.json" "$fd_version" "$fd_root" "$cmake_dir/fd/bin" "$torch_version" \
    "$root/fd_plugin/driver_shim" <<'PY'
import json, sys
path, version, root, bin_dir, torch_version, shim_dir = sys.argv[1:]
with open(path, "w") as f:
    json.dump({"version": version, "root": root, "bin_dir": bin_dir, "torch": torch_version,
               "shim_dir": shim_dir}, f, indent=1)
PY
echo "$fingerprint" > "$stamp"
elapsed=$(( $(date +%s) - start ))
size_mb="$(du -m "$binary" | cut -f1)"
echo "[build_fd] built $binary in ${elapsed} s (binary ${size_mb} MB)"
