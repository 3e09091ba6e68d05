#!/usr/bin/env bash
# apicompat.sh: the exported API at HEAD against each published module's
# last release tag (vX.Y.Z for the core, DIR/vX.Y.Z for the module in DIR;
# git tag -l). It compares the golden files api/*.txt (one line per
# exported name, method, field and interface method; the suite "API golden
# files" keeps them equal to the code) at the tag with the work tree's. A
# line the tag has and HEAD lacks is an incompatible change (removed, or
# its signature, type or value changed), and so is a method added to an
# interface the tag has; added names are compatible. Under v0 incompatible
# changes are allowed, but CHANGELOG.md's "## [Unreleased]" section must
# name each, as package.Name or package.Type.Member (a removed type by its
# name; a removed package by its import path): the check prints every
# incompatible change and fails on one that is not named. With no release
# tag yet: "no release tag yet; nothing to compare", and it passes. The
# tool: .ci/releasetool (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOWORK=off go -C .ci/releasetool build -o "$tmp/releasetool" .
"$tmp/releasetool" apicompat -repo "$(pwd)" "$@"
