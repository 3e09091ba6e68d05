#!/usr/bin/env bash
# modproxy.sh VERSION OUTDIR [--rewrite-requires]: builds a GOPROXY
# directory (use it as GOPROXY=file://OUTDIR) that serves every published
# module of the workspace (go.work's modules but examples) at VERSION:
# <module>/@v/list, VERSION.info, VERSION.mod, VERSION.zip. A zip holds the
# module's tracked files (git ls-files; content as in the work tree) under
# <module>@VERSION/, less nested modules and what the go command leaves
# out, and the tool refuses what the go command would refuse (paths, case
# collisions, sizes). The .mod is the module's go.mod as it is, replace
# directives included (consumers ignore them). --rewrite-requires serves
# requirements of this repository's modules at v0.0.0 as VERSION: a release
# commit simulated before it exists. Without it, a requirement at another
# version than VERSION is an error. The tool: .ci/releasetool (standard
# library only).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
	echo "usage: .ci/modproxy.sh VERSION OUTDIR [--rewrite-requires]" >&2
	exit 2
fi
version=$1 out=$2
shift 2
flags=()
for a in "$@"; do
	case "$a" in
	--rewrite-requires) flags+=(-rewrite-requires) ;;
	*)
		echo "modproxy.sh: unknown flag $a" >&2
		exit 2
		;;
	esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOWORK=off go -C .ci/releasetool build -o "$tmp/releasetool" .
"$tmp/releasetool" modproxy -repo "$(pwd)" -version "$version" -out "$out" "${flags[@]}"
