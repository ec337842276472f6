#!/usr/bin/env bash
# Release builds of hands, with nothing but the Go toolchain: static
# binaries (CGO_ENABLED=0) for linux and darwin on amd64 and arm64, and
# windows on amd64 and arm64, built with -trimpath and stripped, into DIR
# (default dist/), with SHA256SUMS. The version the binaries print
# (`hands version`) comes from the build information Go records: the
# module version from a tag on the commit, and the VCS revision.
#
#   scripts/release.sh [DIR]
#
# RELEASE_TARGETS="linux/amd64 darwin/arm64" builds only those (CI builds
# two, to keep within its time).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
mkdir -p "$out"
targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
if [ -n "${RELEASE_TARGETS:-}" ]; then
	read -r -a targets <<<"$RELEASE_TARGETS"
fi
# Stamp the VCS revision when the source is a git checkout (GOFLAGS may say
# otherwise); outside one, build without it.
vcs=-buildvcs=false
if git rev-parse --git-dir >/dev/null 2>&1 && [ -d "$(git rev-parse --git-common-dir)" ]; then
	vcs=-buildvcs=auto
fi
for target in "${targets[@]}"; do
	os="${target%/*}" arch="${target#*/}"
	name="hands-$os-$arch"
	[ "$os" = windows ] && name="$name.exe"
	CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" go build "$vcs" -trimpath -ldflags "-s -w" -o "$out/$name" ./cmd/hands
	echo "$out/$name"
done
(cd "$out" && sha256sum hands-* > SHA256SUMS)
echo "$out/SHA256SUMS"
