#!/usr/bin/env bash
# oldest-go.sh: builds and tests the core module alone with the oldest Go
# release its go.mod names (the `go` line), which the module proxy serves as
# the toolchain go1.N.0. The core promises to build there; newer language or
# library features would break its users on that release.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(awk '$1 == "go" {print $2; exit}' go.mod)
case "$version" in
*.*.*) toolchain=go$version ;;
*) toolchain=go$version.0 ;;
esac
echo "oldest-go: core go line $version, toolchain $toolchain"
GOWORK=off GOTOOLCHAIN=$toolchain go version
GOWORK=off GOTOOLCHAIN=$toolchain go vet ./...
GOWORK=off GOTOOLCHAIN=$toolchain go test -count=1 -timeout 150s ./...
