#!/usr/bin/env bash
# The documentation site (mkdocs.yml): serve it locally with live reload, or build it.
#   bash scripts/docs.sh            # serve on http://127.0.0.1:8000 (another address: --dev-addr HOST:PORT)
#   bash scripts/docs.sh build      # write site/ in strict mode (what the tests do)
#   bash scripts/docs.sh tables     # rewrite the tables generated from the reports' CSVs in docs/*.md
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
[ -x .venv/bin/mkdocs ] || bash scripts/setup.sh
export NO_MKDOCS_2_WARNING=1
case "${1:-serve}" in
serve) shift || true; exec .venv/bin/mkdocs serve --strict "$@" ;;
build) shift; exec .venv/bin/mkdocs build --strict "$@" ;;
tables) exec .venv/bin/python docs/hooks/symt_docs.py --update ;;
*) echo "usage: $0 [serve|build|tables] [mkdocs options]" >&2; exit 2 ;;
esac
