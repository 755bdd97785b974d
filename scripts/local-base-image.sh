#!/usr/bin/env bash
# Builds a node base image locally, with no registry pull: FROM scratch + the host's node binary
# + the shared libraries `ldd` lists + /etc/passwd and /etc/group with nobody + /tmp (recipe D in
# shared/reference/notes/real-tools.md §3). Needs buildah and podman (Debian packages podman
# buildah runc; .ci/run installs them and writes the containers.conf settings they need here).
#
#   scripts/local-base-image.sh [--force]          # prints the image name on stdout
#   podman build --build-arg BASE_IMAGE=$(scripts/local-base-image.sh) -t localhost/llsd-render:test .
#
# The tag is the host node's version, e.g. localhost/llsd-render-node-base:20.20.2. An existing
# image with that tag is reused unless --force is given.
set -euo pipefail

force=0
case "${1:-}" in
  --force) force=1 ;;
  '') ;;
  *) echo "usage: $0 [--force]" >&2; exit 2 ;;
esac

for tool in buildah podman node ldd; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "$0: $tool not found: install the Debian packages podman buildah runc (see .ci/run)" >&2; exit 1; }
done

node_bin=$(readlink -f "$(command -v node)")
node_version=$("$node_bin" -p 'process.versions.node')
image="localhost/llsd-render-node-base:${node_version}"

if [ "$force" = 0 ] && podman image exists "$image"; then
  echo "$image"
  exit 0
fi

work=$(mktemp -d)
container=''
cleanup() {
  [ -n "$container" ] && buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

root="$work/root"
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp"
chmod 1777 "$root/tmp"
cp "$node_bin" "$root/usr/local/bin/node"
# Every library node links against, at the path the dynamic loader looks for it (the loader itself
# included), following symlinks so the image holds real files.
libs=$(ldd "$node_bin" | grep -o '/[^ ]*' | sort -u)
[ -n "$libs" ] || { echo "$0: ldd lists no libraries for $node_bin (a static node needs no base: use FROM scratch)" >&2; exit 1; }
for lib in $libs; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

container=$(buildah from scratch)
buildah copy "$container" "$root/" / >/dev/null
buildah config \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --entrypoint '["node"]' --cmd '' \
  --label org.opencontainers.image.title=llsd-render-node-base \
  --label "org.opencontainers.image.description=Local test base: the host's node ${node_version} and its libraries, no package manager" \
  --label "org.opencontainers.image.version=${node_version}" \
  "$container"
buildah commit -q --rm "$container" "$image" >/dev/null
container=''

# The libraries must be complete: node has to start in the image.
if ! out=$(podman run --rm --network none --user nobody "$image" --version 2>&1) || [ "$out" != "v${node_version}" ]; then
  echo "$0: node does not start in $image: $out" >&2
  podman rmi -f "$image" >/dev/null 2>&1 || true
  exit 1
fi
echo "$image"
