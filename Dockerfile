# llsd-render as a container KRM function (kpt `image:`, kustomize `container:`).
# The bundle needs nothing but node. BASE_IMAGE lets air-gapped builds point at a mirror.
ARG BASE_IMAGE=docker.io/library/node:20-bookworm-slim
FROM ${BASE_IMAGE}
COPY dist/llsd-render.js /usr/local/bin/llsd-render
USER 65534:65534
ENTRYPOINT ["node", "/usr/local/bin/llsd-render"]
