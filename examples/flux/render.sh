#!/bin/sh
# Render the LLSDs under app/ into rendered/, the directory Flux applies. Run it in CI (or
# before committing) with llsd-render on PATH, or LLSD_RENDER pointing at dist/llsd-render.js:
#   examples/flux/render.sh && git add examples/flux/rendered
# One file per LLSD (rendered/<namespace>/<name>.yaml) plus rendered/_passthrough.yaml for the
# other resources of app/; files of LLSDs that no longer exist are removed. A render error
# exits non-zero, so CI stops before anything is committed or pushed.
set -eu
cd "$(dirname "$0")"
exec "${LLSD_RENDER:-llsd-render}" build -o rendered app
