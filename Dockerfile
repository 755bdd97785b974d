# llsd-render as a container KRM function (kpt `image:`, kustomize `container:`).
# The bundle needs nothing but node: no npm install, no network at build or run time. The image is
# named localhost/llsd-render:<package.json version> wherever it is used (examples, README, tests):
#
#   npm run build
#   podman build --build-arg VERSION=0.1.0 -t localhost/llsd-render:0.1.0 .
#
# Without access to Docker Hub, build the base from the npm registry's Node 24 binary instead:
#
#   podman build --build-arg BASE_IMAGE=$(scripts/local-base-image.sh) --build-arg VERSION=0.1.0 -t localhost/llsd-render:0.1.0 .
#
# BASE_IMAGE is any image with `node` (24, a supported LTS; the bundle itself runs on 20+) on PATH
# and a `nobody` user (kpt and kustomize run functions with `--user nobody`); as the Argo CD plugin
# sidecar (examples/argocd) it also needs `sh`, `grep`, `head` and `/usr/bin/env`. Air-gapped
# builds point it at a mirror or at scripts/local-base-image.sh's image, which the tests use.
ARG BASE_IMAGE=docker.io/library/node:24-bookworm-slim
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
# Node 24's own compile cache (NODE_COMPILE_CACHE) is not used: it keeps only the code compiled
# before the program runs, and a render with it took 40 ms longer (src/loader.cjs says more).
# Exec form and node alone: the base image need not have a shell.
ENV LLSD_RENDER_CODE_CACHE=/usr/local/lib/llsd-render/code-cache
RUN ["node", "-e", "const input = 'apiVersion: config.kubernetes.io/v1\\nkind: ResourceList\\nitems:\\n  - apiVersion: llamastack.io/v1alpha2\\n    kind: LlamaStackDistribution\\n    metadata: {name: warm-up, namespace: warm-up}\\n    spec: {distribution: {name: starter}}\\n'; require('node:child_process').execFileSync(process.execPath, ['/usr/local/lib/llsd-render/llsd-render.js'], { input, stdio: ['pipe', 'ignore', 'inherit'] }); if (!require('node:fs').readdirSync(process.env.LLSD_RENDER_CODE_CACHE).some((f) => f.endsWith('.v8cache'))) throw new Error('no code cache was written');"]
# nobody:nogroup. The function reads stdin and writes stdout only; it needs no writable path.
USER 65534:65534
WORKDIR /tmp
ENTRYPOINT ["node", "/usr/local/lib/llsd-render/llsd-render.js"]
