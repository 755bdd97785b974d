# llsd-render as a container KRM function (kpt `image:`, kustomize `container:`).
# The bundle needs nothing but node: no npm install, no network at build or run time.
#
#   npm run build
#   podman build --build-arg VERSION=$(node -p 'require("./package.json").version') -t llsd-render .
#
# BASE_IMAGE is any image with `node` (>= 20) on PATH and a `nobody` user (kpt and kustomize run
# functions with `--user nobody`). Air-gapped builds point it at a mirror; the tests use a base
# built locally from the host's node (scripts/local-base-image.sh), as no registry is reachable.
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
# nobody:nogroup. The function reads stdin and writes stdout only; it needs no writable path.
USER 65534:65534
WORKDIR /tmp
ENTRYPOINT ["node", "/usr/local/lib/llsd-render/llsd-render.js"]
