#!/bin/sh
# Copies what DocQA needs at run time out of a built checkout (after `npm ci && npm run build`)
# into DEST, for the image's runtime stage (docker/Dockerfile) and for the test that serves from such
# a tree (test/deploy/runtime-tree.test.ts):
#
#   assemble-runtime.sh SOURCE DEST
#
# - the root's package.json, package-lock.json and .npmrc, and every workspace's package.json:
#   `npm ci --omit=dev` in DEST needs all of them to match the lock file;
# - each workspace's compiled dist/, without tests and type declarations;
# - the files the server reads beside its code: models/catalogue.json (docqa models) and
#   build-info.json (GET /api/version); the web UI is packages/web/dist;
# - the image's health check.
# Sources, tests, benchmarks and node_modules stay behind. A missing piece stops with its name.
set -eu

[ $# -eq 2 ] || { echo "usage: assemble-runtime.sh SOURCE DEST" >&2; exit 2; }
src=$1
dest=$2
cd "$src"
for needed in packages/server/dist/cli.js packages/web/dist/index.html packages/core/models/catalogue.json packages/server/build-info.json; do
  [ -f "$needed" ] || { echo "assemble-runtime: $src/$needed is missing; run npm run build first" >&2; exit 1; }
done

mkdir -p "$dest"
cp package.json package-lock.json .npmrc "$dest/"
for ws in kernel packages/* plugins/* examples/*; do
  [ -f "$ws/package.json" ] || continue
  mkdir -p "$dest/$ws"
  cp "$ws/package.json" "$dest/$ws/"
  if [ -d "$ws/dist" ]; then cp -R "$ws/dist" "$dest/$ws/"; fi
done
cp -R packages/server/build-info.json "$dest/packages/server/"
mkdir -p "$dest/packages/core" && cp -R packages/core/models "$dest/packages/core/"
find "$dest" -path '*/dist/*' \( -name '*.test.*' -o -name '*.d.ts' -o -name '*.d.ts.map' -o -name '*.tsbuildinfo' \) -exec rm -f {} +
mkdir -p "$dest/docker"
cp docker/healthcheck.mjs "$dest/docker/"
