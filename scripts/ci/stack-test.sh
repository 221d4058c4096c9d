#!/usr/bin/env bash
# The compose stack of docker/README.md, for real, in CI (.ci/run calls it; runs as root):
#   1. installs docker.io, docker-compose, buildah and debootstrap from Debian, starts dockerd if none runs;
#   2. builds the stand-in base images CI cannot pull (docker/test/build-base-images.sh);
#   3. builds DocQA's image from docker/Dockerfile as it is, with buildah (Debian's docker has no
#      BuildKit builder for RUN --mount), the machine's CA bundle as the extra_ca secret, and loads it
#      into dockerd; prints its size;
#   4. in a copy of docker/: install.sh, `docker-compose up -d` with two workers, the time until it
#      answers through nginx, then the checks of docker/test/stack-checks.mjs; a restart of the api
#      (data kept); `docker-compose down` leaving the volumes.
# Any failure exits non-zero (after printing the containers' logs). Everything it started is stopped
# at the end; images stay cached for the next run. STACK_KEEP=1 leaves the stack up for debugging.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export DEBIAN_FRONTEND=noninteractive
STACK_PORT=${STACK_PORT:-18300}
PROJECT=docqa-ci-stack
T0=$(date +%s)
say() { printf '  [stack %s +%ss] %s\n' "$(date -u +%H:%M:%S)" "$(($(date +%s) - T0))" "$*"; }

# --- 1. tools and the engine ------------------------------------------------------------------------
need=""
for tool in dockerd:docker.io docker-compose:docker-compose buildah:buildah debootstrap:debootstrap; do
  command -v "${tool%%:*}" >/dev/null || need="$need ${tool#*:}"
done
if [ -n "$need" ]; then
  say "installing$need"
  apt-get update -qq && apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
STARTED_DOCKERD=""
if ! docker info >/dev/null 2>&1; then
  say "starting dockerd"
  setsid dockerd >/var/log/docqa-ci-dockerd.log 2>&1 &
  STARTED_DOCKERD=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start:"; tail -n 30 /var/log/docqa-ci-dockerd.log; exit 1; }
fi

STACK_DIR=$(mktemp -d)
compose() { docker-compose --project-name "$PROJECT" --project-directory "$STACK_DIR" -f "$STACK_DIR/compose.yaml" "$@"; }
COMPOSE_BASES=""
cleanup() {
  local code=$?
  if [ -n "$COMPOSE_BASES" ] && kill -0 "$COMPOSE_BASES" 2>/dev/null; then kill "$COMPOSE_BASES" 2>/dev/null || true; wait "$COMPOSE_BASES" 2>/dev/null || true; fi
  if [ "$code" -ne 0 ] && [ -f "$STACK_DIR/compose.yaml" ]; then
    echo "---- stack logs (last 60 lines per service) ----"
    compose ps || true
    compose logs --no-color --tail=60 || true
  fi
  if [ "${STACK_KEEP:-}" != 1 ]; then
    [ -f "$STACK_DIR/compose.yaml" ] && compose down -v --remove-orphans >/dev/null 2>&1 || true
    rm -rf "$STACK_DIR"
    if [ -n "$STARTED_DOCKERD" ]; then kill "$STARTED_DOCKERD" 2>/dev/null || true; wait "$STARTED_DOCKERD" 2>/dev/null || true; fi
  fi
  exit "$code"
}
trap cleanup EXIT

# --- 2. base images -----------------------------------------------------------------------------------
say "base image node:24-bookworm-slim (stand-in)"
bash docker/test/build-base-images.sh node
# PostgreSQL's and nginx's stand-ins build meanwhile (mostly downloads and unpacking, on a cold cache).
COMPOSE_BASES_LOG=$(mktemp)
bash docker/test/build-base-images.sh compose >"$COMPOSE_BASES_LOG" 2>&1 &
COMPOSE_BASES=$!

# --- 3. DocQA's image ---------------------------------------------------------------------------------
say "building docqa:latest from docker/Dockerfile (buildah)"
build_start=$(date +%s)
BUILD_LOG=$(mktemp)
NOFILE=$(ulimit -Hn); [ "$NOFILE" != unlimited ] || NOFILE=1048576
OLD_IMAGE=$(buildah images --quiet --no-trunc localhost/docqa:latest 2>/dev/null || true)
# The machine's CA bundle as the extra_ca secret: this machine's network re-signs TLS (docker/README.md,
# The image). buildah passes on its own open-file limit, too low for npm ci on a warm cache (EMFILE):
# --ulimit gives the build this shell's hard limit (raising it is not permitted here). No --layers: every build starts at `COPY . .` anyway, and npm's cache is a cache mount
# that buildah keeps between builds.
if ! buildah bud --format docker --network host --pull-never --ulimit nofile="$NOFILE:$NOFILE" \
  --secret id=extra_ca,src=/etc/ssl/certs/ca-certificates.crt \
  --build-arg DOCQA_COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  --build-arg DOCQA_BUILD_DATE="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  -f docker/Dockerfile -t localhost/docqa:latest . >"$BUILD_LOG" 2>&1; then
  echo "---- the image did not build (last 80 lines of buildah's output) ----"
  tail -n 80 "$BUILD_LOG"
  exit 1
fi
grep -E '^prune-llama-builds:' "$BUILD_LOG" | sed 's/^/    /' || true
rm -f "$BUILD_LOG"
# The previous build, untagged now: its layers are not reused.
[ -z "$OLD_IMAGE" ] || buildah rmi "$OLD_IMAGE" >/dev/null 2>&1 || true
say "image built in $(($(date +%s) - build_start)) s"
code=0; wait "$COMPOSE_BASES" || code=$?
cat "$COMPOSE_BASES_LOG"; rm -f "$COMPOSE_BASES_LOG"
[ "$code" -eq 0 ] || { echo "the stand-ins for pgvector/pgvector:pg15 and nginx:1.27 did not build"; exit 1; }
say "base images pgvector/pgvector:pg15 and nginx:1.27 (stand-ins) ready; loading docqa:latest into dockerd"
buildah push --quiet localhost/docqa:latest docker-daemon:docqa:latest >/dev/null
docker image prune -f >/dev/null   # the docqa:latest this one replaced
node_in_image=$(docker run --rm --entrypoint node docqa:latest --version)
size=$(docker image inspect --format '{{.Size}}' docqa:latest)
say "IMAGE docqa:latest: $((size / 1000000)) MB ($size bytes), Node $node_in_image"
case $node_in_image in v24.*) ;; *) echo "the image runs Node $node_in_image, not 24"; exit 1 ;; esac
# The native dependencies load and work inside the image (the image has no fonts: the check reads a
# PNG drawn on this machine instead of drawing one).
CHECK_DIR=$(mktemp -d)
cp scripts/ci/check-native.mjs "$CHECK_DIR/"
CHECK_NATIVE_SAVE_PNG="$CHECK_DIR/text.png" node scripts/ci/check-native.mjs >/dev/null
chmod -R a+rX "$CHECK_DIR"
docker run --rm --entrypoint node -e CHECK_NATIVE_PNG=/check/text.png \
  -v "$CHECK_DIR/text.png:/check/text.png:ro" -v "$CHECK_DIR/check-native.mjs:/app/scripts/ci/check-native.mjs:ro" \
  docqa:latest /app/scripts/ci/check-native.mjs | sed 's/^/    /'
rm -rf "$CHECK_DIR"

# --- 4. the stack -------------------------------------------------------------------------------------
cp -R docker/. "$STACK_DIR/"
rm -rf "$STACK_DIR/.env" "$STACK_DIR/secrets" "$STACK_DIR/test"
say "install.sh --port $STACK_PORT"
sh "$STACK_DIR/install.sh" --port "$STACK_PORT" | sed 's/^/    /' | grep -v 'Password:' || true
ADMIN_PASSWORD=$(cat "$STACK_DIR/secrets/default_admin_password")
compose down -v --remove-orphans >/dev/null 2>&1 || true   # a stack left over by an interrupted run

say "docker-compose up -d --scale worker=2"
up_start=$(date +%s.%N)
compose up -d --scale worker=2 2>&1 | sed 's/^/    /'
# Start time: from `up` to the first 200 from /api/health through nginx.
for _ in $(seq 1 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$STACK_PORT/api/health" 2>/dev/null && break
  sleep 0.5
done
curl -fsS -o /dev/null "http://127.0.0.1:$STACK_PORT/api/health" || { echo "the stack did not answer through nginx within 120 s"; exit 1; }
say "START TIME: $(awk -v a="$up_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s from docker-compose up to /api/health 200 through nginx"

running() { compose ps -q "$1" | xargs -r docker inspect --format '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}' | grep -c '^running healthy$' || true; }
for _ in $(seq 1 120); do [ "$(running worker)" = 2 ] && [ "$(running api)" = 1 ] && break; sleep 1; done
[ "$(running api)" = 1 ] || { echo "the api container is not healthy"; exit 1; }
[ "$(running worker)" = 2 ] || { echo "two healthy workers expected, $(running worker) found"; exit 1; }
echo "  ok   one api and two workers running and healthy"

say "checks through nginx"
node docker/test/stack-checks.mjs "http://127.0.0.1:$STACK_PORT" "$ADMIN_PASSWORD" first

say "restart of the api (data kept)"
compose restart api 2>&1 | sed 's/^/    /'
node docker/test/stack-checks.mjs "http://127.0.0.1:$STACK_PORT" "$ADMIN_PASSWORD" after-restart

say "docker-compose down (volumes stay)"
compose down 2>&1 | sed 's/^/    /'
[ -z "$(compose ps -q)" ] || { echo "containers left after down"; exit 1; }
for volume in data docs models pgdata; do
  docker volume inspect "${PROJECT}_$volume" >/dev/null || { echo "volume ${PROJECT}_$volume is gone after down"; exit 1; }
done
docker run --rm --entrypoint sh -v "${PROJECT}_pgdata:/d:ro" pgvector/pgvector:pg15 -c 'test -s /d/PG_VERSION' \
  || { echo "the pgdata volume holds no database after down"; exit 1; }
echo "  ok   after down: no containers, volumes data, docs, models and pgdata kept (the database in pgdata)"
say "STACK PASSED in $(($(date +%s) - T0)) s"
