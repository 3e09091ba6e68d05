#!/usr/bin/env bash
# quickstart.sh checkout|release: proves the README's quick start in
# throwaway modules outside the tree, as a user would run it.
#
# The commands come from README.md: each fenced block right after a line
#   <!-- quickstart:checkout -->   (depend on a checkout, before a release)
#   <!-- quickstart:release -->    (go get at a version, after a release)
# is one scenario, run in a fresh module (go mod init example.com/quickstart)
# holding the program in .ci/quickstart/. A sh block is run as written, with
# /path/to/assignor standing for the checkout; a go.mod block (go.mod, text)
# is appended to the module's go.mod, then go mod tidy. Then the program is
# built and run, and its output must be .ci/quickstart/want-*.txt: the core's
# part always, an adapter's part when the block names the adapter's module.
# While README.md has no quickstart marker at all, the built-in blocks below
# (the same commands) are run, and the script says so.
#
#   checkout: the checkout is `git archive HEAD` of this repository (what a
#     clean clone holds), in a temporary directory.
#   release:  .ci/modproxy.sh builds a file:// module proxy of every
#     published module at the version the release blocks name, from this
#     tree; before the release commit it serves the go.mod requirements of
#     this repository's modules at v0.0.0 as that version (a simulated
#     release; after the release commit they already say it). The user's
#     module resolves offline (GOPROXY=file://<proxy>,file://<module
#     cache>,off, GOSUMDB=off, a module cache of its own, so nothing of the
#     simulated version stays behind); the third-party modules come from the
#     local module cache, filled and verified against this repository's
#     go.sum files first, and every go.sum line the user gets must be one of
#     theirs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-}
case "$mode" in
checkout | release) ;;
*)
	echo "usage: .ci/quickstart.sh checkout|release" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() {
	echo "quickstart: $*" >&2
	exit 1
}
core=github.com/kgroup/assignor

# blocks KIND DIR: writes each fenced block after <!-- quickstart:KIND -->
# to DIR/N.LANG and prints how many there are; a marker must be followed by
# a fenced block, blank lines allowed between.
blocks() {
	mkdir -p "$2"
	awk -v kind="$1" -v dir="$2" '
		function bad(msg) { print "README.md:" NR ": " msg > "/dev/stderr"; err = 1; exit 1 }
		$0 ~ "^[[:space:]]*<!--[[:space:]]*quickstart:" kind "[[:space:]]*-->[[:space:]]*$" { armed = 1; next }
		inblock && /^[[:space:]]*```[[:space:]]*$/ { inblock = 0; close(file); next }
		inblock { print > file; next }
		armed && /^[[:space:]]*```/ {
			lang = $0; sub(/^[[:space:]]*```/, "", lang); sub(/[[:space:]].*$/, "", lang)
			if (lang == "") lang = "text"
			n++; file = dir "/" n "." lang; printf "" > file
			inblock = 1; armed = 0; next
		}
		armed && NF { bad("<!-- quickstart:" kind " --> is not followed by a fenced block") }
		END { if (err) exit 1; if (inblock) bad("unterminated block"); print n + 0 }
	' README.md
}

# builtin KIND DIR: the built-in blocks, used while README.md has no marker.
builtin() {
	mkdir -p "$2"
	case "$1" in
	checkout)
		cat >"$2/1.sh" <<-'EOF'
			go work init
			go work use . /path/to/assignor /path/to/assignor/adapters/saramaassignor /path/to/assignor/adapters/kgoassignor
		EOF
		cat >"$2/2.sh" <<-'EOF'
			go mod edit -require github.com/kgroup/assignor/adapters/saramaassignor@v0.0.0 \
				-require github.com/kgroup/assignor/adapters/kgoassignor@v0.0.0 \
				-replace github.com/kgroup/assignor=/path/to/assignor \
				-replace github.com/kgroup/assignor/adapters/saramaassignor=/path/to/assignor/adapters/saramaassignor \
				-replace github.com/kgroup/assignor/adapters/kgoassignor=/path/to/assignor/adapters/kgoassignor
			go mod tidy
		EOF
		echo 2
		;;
	release)
		cat >"$2/1.sh" <<-'EOF'
			go get github.com/kgroup/assignor@v0.1.0 github.com/kgroup/assignor/adapters/saramaassignor@v0.1.0 github.com/kgroup/assignor/adapters/kgoassignor@v0.1.0
		EOF
		echo 1
		;;
	esac
}

dir=$tmp/blocks
if grep -q '<!--[[:space:]]*quickstart:' README.md; then
	n=$(blocks "$mode" "$dir") || fail "README.md's quickstart markers are malformed"
	[ "$n" -gt 0 ] || fail "README.md has quickstart markers but no <!-- quickstart:$mode --> block"
	echo "quickstart: $n $mode block(s) from README.md"
else
	n=$(builtin "$mode" "$dir")
	echo "quickstart: README.md has no <!-- quickstart:$mode --> marker yet; running the $n built-in $mode block(s) (the same commands)"
fi

# A block that runs go install installs here, not in the user's GOBIN.
export GOBIN=$tmp/bin
export PATH="$GOBIN:$PATH"

# The checkout a user would have: the committed tree at HEAD.
checkout=$tmp/assignor
mkdir -p "$checkout"
git -C "$root" archive HEAD | tar -x -C "$checkout"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
	echo "quickstart: note: uncommitted changes are not in the checkout (git archive HEAD)"
fi

# scenario NAME BLOCK BUILDFLAGS: a fresh module, the block, build, run, compare.
scenario() {
	local name=$1 block=$2 buildflags=$3
	local d=$tmp/user-$name base lang
	base=$(basename "$block")
	lang=${base#*.}
	mkdir -p "$d"
	cp .ci/quickstart/main.go "$d/"
	local want=(.ci/quickstart/want-core.txt)
	# Parts in name order, as main runs them.
	if grep -q "adapters/kgoassignor" "$block"; then
		cp .ci/quickstart/part_franzgo.go "$d/"
		want+=(.ci/quickstart/want-franzgo.txt)
	fi
	if grep -q "adapters/saramaassignor" "$block"; then
		cp .ci/quickstart/part_sarama.go "$d/"
		want+=(.ci/quickstart/want-sarama.txt)
	fi
	local script
	script=$(sed -e "s#/path/to/assignor#$checkout#g" -e 's/^\$ //' "$block")
	echo "quickstart: $name: in a new module at $d:"
	sed 's/^/    /' "$block"
	# Every step checks its own status: set -e does not hold in a subshell
	# whose status is tested.
	(
		cd "$d" || exit 1
		go mod init example.com/quickstart >/dev/null 2>&1 || fail "$name: go mod init failed"
		case "$lang" in
		sh | bash | shell | console)
			bash -euo pipefail -c "$script" || fail "$name: the block failed"
			;;
		go.mod | gomod | text | txt)
			printf '\n%s\n' "$script" >>go.mod
			go mod tidy || fail "$name: go mod tidy failed after the block"
			;;
		*) fail "$name: a $lang block; sh or go.mod expected" ;;
		esac
		# shellcheck disable=SC2086 # flags, one word each
		go build $buildflags -o quickstart . || fail "$name: the program does not build after the block"
		./quickstart >got.txt || fail "$name: the program failed"
	) || exit 1
	if ! diff -u <(cat "${want[@]}") "$d/got.txt"; then
		fail "$name: the output differs from ${want[*]}"
	fi
	echo "quickstart: $name: ok ($(basename -a "${want[@]}" | tr '\n' ' '))"
}

case "$mode" in
checkout)
	unset GOWORK
	for block in "$dir"/*; do
		scenario "checkout-$(basename "$block" | cut -d. -f1)" "$block" ""
	done
	;;
release)
	mapfile -t versions < <(cat "$dir"/* | grep -oE "${core}[a-z/]*@v[^[:space:]\"'\`]+" | sed 's/.*@//' | sort -u)
	[ "${#versions[@]}" -eq 1 ] || fail "the release blocks name ${#versions[@]} versions of this repository's modules (${versions[*]:-none}); one expected"
	version=${versions[0]}

	# Third-party modules into the local module cache, checked against
	# this repository's go.sum files (the network, if at all, only here).
	shared=$(go env GOMODCACHE)
	for m in $(go list -m -f '{{.Dir}}'); do
		(cd "$m" && GOWORK=off go mod download && GOWORK=off go list -m all >/dev/null)
	done

	proxy=$tmp/proxy
	.ci/modproxy.sh "$version" "$proxy" --rewrite-requires
	export GOWORK=off GOSUMDB=off GOMODCACHE=$tmp/modcache
	export GOPROXY="file://$proxy,file://$shared/cache/download,off"
	GOFLAGS="$(go env GOFLAGS) -modcacherw"
	export GOFLAGS
	for block in "$dir"/*; do
		name=release-$(basename "$block" | cut -d. -f1)
		scenario "$name" "$block" -trimpath
		d=$tmp/user-$name
		# Our modules at the version; everything else as this repository
		# verified it.
		list=$(cd "$d" && go list -m -f '{{.Path}} {{.Version}}' all) || fail "$name: go list -m all failed"
		got=$(grep "^$core" <<<"$list" | grep -v " $version\$" || true)
		[ -z "$got" ] || fail "$name: modules of this repository not at $version: $got"
		unknown=$(comm -23 <(grep -v "^$core" "$d/go.sum" | sort -u) <(cat go.sum adapters/*/go.sum cmd/assignor/go.sum bench/go.sum | sort -u))
		[ -z "$unknown" ] || fail "$name: go.sum lines none of this repository's go.sum files has: $unknown"
	done
	;;
esac
echo "quickstart: $mode: every block works as written"
