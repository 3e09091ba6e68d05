#!/usr/bin/env bash
# staticcheck.sh: honnef.co/go/tools' staticcheck, pinned, on every module of
# the workspace (each module alone: staticcheck checks the packages of the
# module it runs in). Installs the pinned version into a cache directory
# once per machine.
set -euo pipefail
cd "$(dirname "$0")/.."

version=v0.8.2
bin="${XDG_CACHE_HOME:-$HOME/.cache}/assignor-ci/staticcheck-$version"
if [ ! -x "$bin/staticcheck" ]; then
	echo "staticcheck: installing $version"
	GOBIN="$bin" GOFLAGS=-mod=mod go install "honnef.co/go/tools/cmd/staticcheck@$version"
fi

rc=0
for dir in $(go list -m -f '{{.Dir}}'); do
	echo "staticcheck: $dir"
	(cd "$dir" && "$bin/staticcheck" ./...) || rc=1
done
exit "$rc"
