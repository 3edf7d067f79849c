# Shared by the lent-GPU scripts (source it from the repository root): symt is not installed on
# that machine, so install lark from the carried wheel in .whl/ and build symt's C++ core for the
# machine's Python (skipped with SKIP_BUILD=1, e.g. on a warm machine that built it already), then
# point PYTHONPATH and SYMT at the working tree.
if [ -z "${SKIP_BUILD:-}" ]; then
  python3 -m pip install --no-deps -q .whl/lark-*.whl
  cmake -S . -B /tmp/symt-build -G Ninja -DCMAKE_BUILD_TYPE=Release -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" \
    -DPython_EXECUTABLE="$(command -v python3)" > /tmp/symt-build.log 2>&1 && cmake --build /tmp/symt-build >> /tmp/symt-build.log 2>&1 \
    || { tail -30 /tmp/symt-build.log; exit 1; }
  cp /tmp/symt-build/_core*.so python/symt/
fi
export PYTHONPATH=$PWD/python
export SYMT=${SYMT:-python3 -m symt.cli}
