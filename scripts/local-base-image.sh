#!/usr/bin/env bash
# Builds a node base image locally, with no image pulled from a registry: FROM scratch + a Node 24
# binary + the shell tools the Argo CD plugin's commands run (sh, grep, head; env for the bundle's
# `#!/usr/bin/env node` line) + the shared libraries `ldd` lists + /etc/passwd and /etc/group with
# nobody + /tmp (the files a scratch image needs for node and those tools). It stands in for
# node:24-bookworm-slim, the Dockerfile's default base, which has all of these.
#
# The node binary is the official Linux build as the npm package node-linux-<arch> ships it (what
# the `node` package installs), fetched once with `npm pack` from the npm registry into
# ${XDG_CACHE_HOME:-~/.cache}/llsd-render/ and reused from there offline; the host's own node
# (which may be 20) only runs npm. Needs npm, tar, buildah and podman (Debian packages podman
# buildah runc; `npm run test:prereqs` installs them and writes the containers.conf settings they
# need here).
#
#   scripts/local-base-image.sh [--force]          # prints the image name on stdout
#   podman build --build-arg BASE_IMAGE=$(scripts/local-base-image.sh) -t localhost/llsd-render:0.1.0 .
#
# The tag is the node version and a hash of this script, e.g.
# localhost/llsd-render-node-base:24.21.0-1a2b3c4d, so a changed recipe is a new image. An existing
# image with that tag is reused unless --force is given.
set -euo pipefail

force=0
case "${1:-}" in
  --force) force=1 ;;
  '') ;;
  *) echo "usage: $0 [--force]" >&2; exit 2 ;;
esac

# The one place the image's node version is pinned (an LTS line: 24 is supported until 2028-04).
node_version=24.21.0

# Copied into the image from the host: the shell and the tools plugin.yaml's commands use.
shell_tools='sh grep head env'
for tool in buildah podman npm tar ldd sha256sum $shell_tools; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "$0: $tool not found: run \`npm run test:prereqs\` (as root it installs the Debian packages podman buildah runc), or install the Debian package that has $tool" >&2; exit 1; }
done

case "$(uname -m)" in
  x86_64) node_arch=x64 ;;
  aarch64) node_arch=arm64 ;;
  *) echo "$0: no node-linux package for $(uname -m): build with --build-arg BASE_IMAGE=<an image with node 24>" >&2; exit 1 ;;
esac
recipe=$(sha256sum "$0" | cut -c1-8)
image="localhost/llsd-render-node-base:${node_version}-${recipe}"

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

# The node binary: the package tarball is kept in the cache (52 MB, fetched once; npm checks it
# against the registry's integrity hash), unpacked here, and must run on this host.
package="node-linux-${node_arch}@${node_version}"
cache="${XDG_CACHE_HOME:-${HOME:-$(cd ~ && pwd)}/.cache}/llsd-render"
tarball="$cache/node-linux-${node_arch}-${node_version}.tgz"
if [ ! -f "$tarball" ]; then
  mkdir -p "$cache"
  (cd "$work" && npm pack --silent "$package" >/dev/null) ||
    { echo "$0: cannot fetch $package from the npm registry: put its tarball (\`npm pack $package\` on a machine with access) at $tarball" >&2; exit 1; }
  # Renamed into place, so a concurrent build never reads half a tarball.
  mv "$work/node-linux-${node_arch}-${node_version}.tgz" "$tarball.$$.tmp"
  mv "$tarball.$$.tmp" "$tarball"
fi
tar -xzf "$tarball" -C "$work" package/bin/node
node_bin="$work/package/bin/node"
out=$("$node_bin" --version 2>&1) && [ "$out" = "v${node_version}" ] ||
  { echo "$0: $tarball does not hold a working node ${node_version} (remove it to fetch it again): $out" >&2; exit 1; }

root="$work/root"
mkdir -p "$root/usr/local/bin" "$root/usr/bin" "$root/etc" "$root/tmp"
chmod 1777 "$root/tmp"
# Merged /usr, as in Debian: /bin/sh and /usr/bin/env are the same files.
ln -s usr/bin "$root/bin"
cp "$node_bin" "$root/usr/local/bin/node"
binaries="$node_bin"
for tool in $shell_tools; do
  path=$(readlink -f "$(command -v "$tool")")
  cp "$path" "$root/usr/bin/$tool"
  binaries="$binaries $path"
done
# Every library these link against, at the path the dynamic loader looks for it (the loader itself
# included), following symlinks so the image holds real files.
libs=$(for bin in $binaries; do ldd "$bin" | grep -o '/[^ ]*'; done | sort -u)
[ -n "$libs" ] || { echo "$0: ldd lists no libraries for $binaries (static binaries need no base: use FROM scratch)" >&2; exit 1; }
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
  --label "org.opencontainers.image.description=Local test base: node ${node_version} (npm package ${package}), the host's sh, grep, head, env and their libraries, no package manager" \
  --label "org.opencontainers.image.version=${node_version}" \
  "$container"
buildah commit -q --rm "$container" "$image" >/dev/null
container=''

# The libraries must be complete: node has to start in the image, and the plugin's kind of shell
# pipeline and `#!/usr/bin/env node` have to work.
fail() {
  echo "$0: $1 in $image: $2" >&2
  podman rmi -f "$image" >/dev/null 2>&1 || true
  exit 1
}
out=$(podman run --rm --network none --user nobody "$image" --version 2>&1) && [ "$out" = "v${node_version}" ] ||
  fail 'node does not start' "$out"
out=$(podman run --rm --network none --user nobody --entrypoint sh "$image" \
  -c "set -eu; printf 'kind: x\n' > /tmp/a.yaml; grep -rlE --include='*.yaml' '^kind:' /tmp | head -n 1; /usr/bin/env node -p 1" 2>&1) &&
  [ "$out" = "$(printf '/tmp/a.yaml\n1')" ] || fail 'sh, grep, head or env does not work' "$out"
echo "$image"
