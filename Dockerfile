# llsd-render as a container KRM function (kpt `image:`, kustomize `container:`).
# The bundle needs nothing but node: no npm install, no network at build or run time.
#
#   npm run build
#   podman build --build-arg VERSION=$(node -p 'require("./package.json").version') -t llsd-render .
#
# BASE_IMAGE is any image with `node` (>= 20) on PATH and a `nobody` user (kpt and kustomize run
# functions with `--user nobody`); as the Argo CD plugin sidecar (examples/argocd) it also needs
# `sh`, `grep`, `head` and `/usr/bin/env`. Air-gapped builds point it at a mirror; the tests use a
# base built locally from the host's node and those tools (scripts/local-base-image.sh), as no
# registry is reachable.
ARG BASE_IMAGE=docker.io/library/node:20-bookworm-slim
FROM ${BASE_IMAGE}

ARG VERSION=0.0.0-dev
ARG SOURCE=https://github.com/llamastack/llsd-render
LABEL org.opencontainers.image.title="llsd-render" \
      org.opencontainers.image.description="KRM function and CLI that renders LlamaStackDistribution resources into llama-stack config and Kubernetes manifests." \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"

COPY dist/llsd-render.js /usr/local/lib/llsd-render/llsd-render.js
# `llsd-render` on PATH, for the Argo CD plugin's `generate` command: a link to the bundle, which
# starts with `#!/usr/bin/env node` (node resolves the link, so the code cache below still matches).
# Made with node, as the base image need not have a shell; executable whatever mode the build
# context gave the file.
RUN ["node", "-e", "const fs = require('node:fs'); fs.chmodSync('/usr/local/lib/llsd-render/llsd-render.js', 0o755); fs.symlinkSync('../lib/llsd-render/llsd-render.js', '/usr/local/bin/llsd-render');"]
# V8's code cache of the program (src/loader.cjs), made by one render at build time: a function
# container is new on every run and could keep none of its own (and cannot write as nobody).
# Exec form and node alone: the base image need not have a shell.
ENV LLSD_RENDER_CODE_CACHE=/usr/local/lib/llsd-render/code-cache
RUN ["node", "-e", "const input = 'apiVersion: config.kubernetes.io/v1\\nkind: ResourceList\\nitems:\\n  - apiVersion: llamastack.io/v1alpha2\\n    kind: LlamaStackDistribution\\n    metadata: {name: warm-up, namespace: warm-up}\\n    spec: {distribution: {name: starter}}\\n'; require('node:child_process').execFileSync(process.execPath, ['/usr/local/lib/llsd-render/llsd-render.js'], { input, stdio: ['pipe', 'ignore', 'inherit'] }); if (!require('node:fs').readdirSync(process.env.LLSD_RENDER_CODE_CACHE).some((f) => f.endsWith('.v8cache'))) throw new Error('no code cache was written');"]
# nobody:nogroup. The function reads stdin and writes stdout only; it needs no writable path.
USER 65534:65534
WORKDIR /tmp
ENTRYPOINT ["node", "/usr/local/lib/llsd-render/llsd-render.js"]
