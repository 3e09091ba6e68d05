#!/usr/bin/env bash
# release-check.sh [VERSION] [--before-tags]: checks a release commit
# (docs/development.md's checklist, the parts a script can see):
#   1. LICENSE at the root and in every published module, the same Apache
#      License 2.0 text, tracked by git (so each module zip carries it);
#   2. CHANGELOG.md has a "## [Unreleased]" section and one for VERSION
#      ("## [X.Y.Z]" or "## [vX.Y.Z]", a date may follow);
#   3. every published module's go.mod requires this repository's modules at
#      VERSION (none at v0.0.0) and keeps its replace directives;
#   4. .ci/modproxy.sh serves every published module at VERSION without
#      rewriting anything (the go command's zip rules hold);
#   5. unless --before-tags: the annotated tags VERSION (the core) and
#      DIR/VERSION (the module in DIR) exist and point at HEAD.
# With no VERSION, it checks the version of the release tags that point at
# HEAD, and passes with a note if there are none (not a release commit).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
core=github.com/kgroup/assignor
version="" before_tags=false
for a in "$@"; do
	case "$a" in
	--before-tags) before_tags=true ;;
	v*) version=$a ;;
	*)
		echo "usage: .ci/release-check.sh [vX.Y.Z] [--before-tags]" >&2
		exit 2
		;;
	esac
done
fails=0
bad() {
	echo "release-check: FAIL: $*"
	fails=$((fails + 1))
}

# The published modules: go.work's but examples, by directory.
mapfile -t dirs < <(go list -m -f '{{.Dir}}' | while read -r d; do
	rel=$(realpath --relative-to="$root" "$d")
	[ "$rel" = examples ] || echo "$rel"
done)
tag_of() { # tag_of DIR: the module's tag for $version
	if [ "$1" = . ]; then echo "$version"; else echo "$1/$version"; fi
}

if [ -z "$version" ]; then
	mapfile -t at_head < <(git tag --points-at HEAD | grep -E '(^|/)v[0-9]+\.[0-9]+\.[0-9]+' || true)
	if [ "${#at_head[@]}" -eq 0 ]; then
		echo "release-check: no release tag points at HEAD; not a release commit, nothing to check"
		exit 0
	fi
	mapfile -t versions < <(printf '%s\n' "${at_head[@]}" | sed 's#.*/##' | sort -u)
	[ "${#versions[@]}" -eq 1 ] || {
		echo "release-check: FAIL: the tags at HEAD name several versions: ${versions[*]}"
		exit 1
	}
	version=${versions[0]}
fi
echo "release-check: $version, modules: ${dirs[*]}"

# 1. Licences.
if [ ! -f LICENSE ]; then
	bad "no LICENSE at the root"
else
	if ! head -5 LICENSE | grep -q "Apache License" || ! grep -q "Version 2.0, January 2004" LICENSE; then
		bad "LICENSE is not the Apache License 2.0 text"
	fi
	for d in "${dirs[@]}"; do
		f=$d/LICENSE
		[ "$d" = . ] && f=LICENSE
		if [ ! -f "$f" ]; then
			bad "$d has no LICENSE (a module zip holds only its own directory)"
		elif ! cmp -s LICENSE "$f"; then
			bad "$f differs from the root's LICENSE"
		elif [ -z "$(git ls-files -- "$f")" ]; then
			bad "$f is not tracked by git"
		fi
	done
fi

# 2. The changelog.
if [ ! -f CHANGELOG.md ]; then
	bad "no CHANGELOG.md"
else
	grep -qE '^## \[Unreleased\]' CHANGELOG.md || bad "CHANGELOG.md has no ## [Unreleased] section"
	grep -qE "^## \[v?${version#v}\]" CHANGELOG.md || bad "CHANGELOG.md has no ## [${version#v}] section"
fi

# 3. Requirements at the version, replaces kept.
for d in "${dirs[@]}"; do
	[ "$d" = . ] && continue
	while read -r path ver; do
		[ "$ver" = "$version" ] || bad "$d/go.mod requires $path $ver, not $version"
	done < <(awk '/^require[[:space:]]*\(/ { b = 1; next } b && /^\)/ { b = 0; next } b { print $1, $2 } /^require[[:space:]]+[^(]/ { print $2, $3 }' "$d/go.mod" | grep "^$core" || true)
	grep -qE '^replace' "$d/go.mod" || bad "$d/go.mod has no replace directive (CI's single-module checks need it)"
done

# 4. The proxy, as is.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
.ci/modproxy.sh "$version" "$tmp/proxy" >"$tmp/modproxy.txt" 2>&1 || bad "modproxy at $version without rewriting: $(cat "$tmp/modproxy.txt")"

# 5. Tags.
if ! $before_tags; then
	head=$(git rev-parse HEAD)
	for d in "${dirs[@]}"; do
		t=$(tag_of "$d")
		if ! git rev-parse -q --verify "refs/tags/$t" >/dev/null; then
			bad "no tag $t"
		elif [ "$(git cat-file -t "refs/tags/$t")" != tag ]; then
			bad "tag $t is not annotated (git tag -a)"
		elif [ "$(git rev-parse "$t^{commit}")" != "$head" ]; then
			bad "tag $t does not point at HEAD"
		fi
	done
fi

if [ "$fails" -gt 0 ]; then
	echo "release-check: $version: $fails problem(s)"
	exit 1
fi
echo "release-check: $version: ok"
