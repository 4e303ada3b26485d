#!/usr/bin/env bash
# The container image test, run by .ci/run and by hand (as root, or with sudo for the packages):
# installs podman from Debian if it is missing, makes the debian:bookworm-slim base image from
# Debian's packages when no registry can provide it (kept for the next run), builds the image
# from the unchanged Containerfile, reports its size and what takes the space, provides the
# postgres image compose.scale.yaml names (a test-only stand-in built from Debian's PostgreSQL 15
# when no real one is here), then runs deploy/image-checks.ts against it, which also brings up
# both compose files with podman-compose. Ends with "image test: PASSED" or "image test: FAILED …"
# and exits non-zero on any failure, including podman that cannot be installed.
# Measured on a 2-core CI machine: ~3 min from nothing (plus apt-get for podman when missing),
# ~1 min when the base images and the build cache are still there.
set -uo pipefail
cd "$(dirname "$0")/.."

IMAGE=localhost/trawl:it
BASE=docker.io/library/debian:bookworm-slim
started=$SECONDS
fail() { echo "image test: FAILED: $*"; exit 1; }
step() { echo "--- image test: $*"; }

# Podman and friends from Debian. A machine without them and without a way to install them fails
# the test: an image test that skips itself would pass without testing anything.
missing=""
for tool in podman runc mmdebstrap podman-compose; do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
if [ -n "$missing" ]; then
  step "installing$missing (Debian packages)"
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing >/dev/null" \
    || fail "could not install$missing"
  for tool in $missing; do command -v "$tool" >/dev/null 2>&1 || fail "$tool is still missing after apt-get install"; done
fi
[ "$(id -u)" = 0 ] || fail "run as root: the checks use rootful podman (the host network, and bridge networks for compose)"

# These machines need runc (crun refuses their hybrid cgroups), cgroupfs and no raised rlimits
# (../shared/reference/containers.md). A private config file sets that for this run only, so the
# machine's /etc/containers stays as it was.
conf_dir=$(mktemp -d)
trap 'rm -rf "$conf_dir"' EXIT
cat > "$conf_dir/containers.conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
export CONTAINERS_CONF="$conf_dir/containers.conf"
podman info >/dev/null 2>&1 || fail "podman does not work here: $(podman info 2>&1 | tail -n 1)"

# The image must carry the Bun the CI pins (deploy/setup.sh), or the image and the tests run different runtimes.
ci_bun=$(sed -n 's/^BUN_VERSION=//p' deploy/setup.sh)
image_bun=$(sed -n 's/^ARG BUN_VERSION=//p' Containerfile)
[ -n "$ci_bun" ] && [ "$ci_bun" = "$image_bun" ] || fail "Containerfile has Bun ${image_bun:-?}, deploy/setup.sh pins ${ci_bun:-?}"

if podman image exists "$BASE"; then
  step "base image $BASE already here (reused)"
else
  step "making $BASE from Debian's packages (no image registry is reachable)"
  t=$SECONDS
  rootfs="$conf_dir/rootfs.tar"
  # minbase plus the dpkg exclusions Debian's slim images carry (no manuals, docs or locales).
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' bookworm "$rootfs" >/dev/null 2>&1 || fail "mmdebstrap failed"
  podman import "$rootfs" "$BASE" >/dev/null || fail "podman import of the base image failed"
  rm -f "$rootfs"
  echo "base image made in $((SECONDS - t)) s"
fi

# Behind the TLS-inspecting proxy only the host's CA bundle is trusted: mount it into the build
# (never copied into the image). --format docker keeps HEALTHCHECK, which OCI image configs lack.
build_args=(--format docker --pull=never --network=host -t "$IMAGE" -f Containerfile)
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  build_args+=(-v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro
               --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
fi
step "building $IMAGE"
log=$(mktemp)
t=$SECONDS
if ! podman build "${build_args[@]}" . >"$log" 2>&1; then
  tail -n 40 "$log"; rm -f "$log"; fail "podman build failed"
fi
build_s=$((SECONDS - t))
grep -E '^removed [0-9]+ packages' "$log" || true
rm -f "$log"
echo "build: ${build_s} s"

step "size"
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' "$BASE")
echo "image: $((size / 1000000)) MB (base $((base_size / 1000000)) MB); layers:"
podman history --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" | grep -v '^0 B' | cut -c1-110 | sed 's/^/  /'
echo "largest parts:"
podman run --rm --network=host --entrypoint sh "$IMAGE" -c \
  'du -sm /usr/lib/chromium /usr/local/bin/bun /app/node_modules /app /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/share 2>/dev/null; du -sm /app/node_modules/* /app/node_modules/@*/* 2>/dev/null | sort -n | tail -n 6' \
  2>/dev/null | sed 's/^/  /'

# compose.scale.yaml's database. No registry here can provide the official postgres image, so a
# test-only stand-in is built from Debian's postgresql package on the same base (PostgreSQL 15, not
# the file's 16; deploy/test/postgres.Containerfile says what it copies of the official image) and
# tagged under the file's name, only when that name is free or already the stand-in: a real image
# is never replaced, and is what the test then uses.
pg_image=$(bun -e 'console.log(Bun.YAML.parse(await Bun.file("compose.scale.yaml").text()).services.postgres.image)') \
  || fail "cannot read the postgres image of compose.scale.yaml"
stand_in_label='{{index .Labels "io.trawl.test-stand-in"}}'
if podman image exists "$pg_image" && [ -z "$(podman image inspect --format "$stand_in_label" "$pg_image")" ]; then
  step "$pg_image already here (a real image; used as it is)"
else
  STAND_IN=localhost/trawl-test-postgres:15
  step "building $STAND_IN (Debian's PostgreSQL 15) as $pg_image"
  previous=$(podman image inspect --format '{{.Id}}' "$pg_image" 2>/dev/null || true)
  log=$(mktemp)
  t=$SECONDS
  if ! podman build --format docker --pull=never --network=host -t "$STAND_IN" -f deploy/test/postgres.Containerfile deploy/test >"$log" 2>&1; then
    tail -n 40 "$log"; rm -f "$log"; fail "podman build of the postgres stand-in failed"
  fi
  rm -f "$log"
  podman tag "$STAND_IN" "$pg_image" || fail "could not tag $STAND_IN as $pg_image"
  current=$(podman image inspect --format '{{.Id}}' "$pg_image")
  # A changed stand-in replaces the previous build instead of leaving it behind untagged.
  if [ -n "$previous" ] && [ "$previous" != "$current" ]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
  echo "postgres stand-in: $((SECONDS - t)) s, $(( $(podman image inspect --format '{{.Size}}' "$pg_image") / 1000000 )) MB"
fi

step "checks"
bun deploy/image-checks.ts "$IMAGE"
checks=$?

# The bare-metal unit is not run here (no systemd as PID 1), but it must be a unit systemd accepts.
if command -v systemd-analyze >/dev/null 2>&1; then
  if systemd-analyze verify deploy/trawl.service; then echo "ok   deploy/trawl.service passes systemd-analyze verify"
  else echo "FAIL deploy/trawl.service: systemd-analyze verify"; checks=1; fi
else
  echo "note: systemd-analyze not installed; deploy/trawl.service not verified"
fi

echo "image test: build ${build_s} s, image $((size / 1000000)) MB, whole test $((SECONDS - started)) s"
[ "$checks" = 0 ] || fail "deploy/image-checks.ts reported failures (above)"
echo "image test: PASSED"
