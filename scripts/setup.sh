#!/usr/bin/env bash
# Idempotent set-up: creates .venv/ in the repository root and installs symt (editable) into it.
# Safe to run repeatedly: finished steps are detected and skipped, the C++ build is cached.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv"
py="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    echo "[setup] creating virtual environment in .venv/"
    "$py" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)

# torch first and pinned: a looser requirement resolved later could pull a multi-GB CUDA build.
if ! "$venv/bin/python" -c "import torch, sys; sys.exit(0 if torch.__version__.startswith('2.13.0') else 1)" 2>/dev/null; then
    echo "[setup] installing torch 2.13.0 (CPU)"
    "${pip[@]}" install "torch==2.13.0"
fi

# Build requirements live in the venv so the editable install can skip build isolation and
# reuse its CMake build directory between runs.
stamp="$venv/.symt-build-deps"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
    echo "[setup] installing build and development requirements"
    "${pip[@]}" install "scikit-build-core>=0.10" "pybind11>=2.12" "setuptools" "wheel" "cmake>=3.18" "ninja"
    touch "$stamp"
fi

# The editable install maps each module name to its file when it is made, so a module added, moved
# or removed (not only a build file changed) asks for a new install: the list of module paths counts.
fingerprint="$( (cat pyproject.toml CMakeLists.txt; find cpp -type f | sort | xargs cat
                 find python -name '*.py' | sort) | sha256sum | cut -c1-16)"
installed="$venv/.symt-installed"
if [ ! -f "$installed" ] || [ "$(cat "$installed")" != "$fingerprint" ] || ! "$venv/bin/python" -c "import symt._core" 2>/dev/null; then
    echo "[setup] building and installing symt (editable)"
    "${pip[@]}" install --no-build-isolation -e ".[dev,docs]"
    echo "$fingerprint" > "$installed"
fi
bash "$root/scripts/build_fd.sh"   # Fast Downward 19.06 + symt plugin (cached)

# The documentation's browser test opens the built site in Debian's Chromium. Installed where this
# runs as root with apt (CI, the project's machines); elsewhere the test says it is skipped.
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "[setup] installing Chromium (Debian) for the documentation's browser test"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
    else
        echo "[setup] no Chromium and no root apt-get: the documentation's browser test will be skipped"
    fi
fi
echo "[setup] ready: $venv/bin/symt"
