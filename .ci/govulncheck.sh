#!/usr/bin/env bash
# govulncheck.sh: golang.org/x/vuln's govulncheck, pinned, on every
# published module alone (GOWORK=off: the versions each module's go.mod
# selects, as a user's build starts from), against a vulnerability
# database built here: vuln.go.dev cannot be reached from CI, but the
# module proxy serves golang.org/x/vulndb, whose data/osv holds the
# database's OSV reports; .ci/releasetool converts them into the layout
# govulncheck reads from a file:// URL (index/db.json, index/modules.json,
# ID/<id>.json). The pinned database is the newest the module proxy listed
# when this was written: bump vulndb_version (and vuln_version) to see newer
# reports.
#
# It fails when the code calls a vulnerable function of a module it
# requires (fixable: require the fixed version). A called vulnerability of
# the standard library belongs to the Go toolchain that runs the scan; it
# is printed as a WARNING with the Go release that fixes it. Imported or
# required but not called: listed. If the tool or the database cannot be
# had from the proxy, it prints "govulncheck: skipped: <reason>" and passes.
# Both are cached per machine in ${XDG_CACHE_HOME:-~/.cache}/assignor-ci.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
vuln_version=v1.9.0
vulndb_version=v0.0.0-20261105234957-e22db6528018
cache="${XDG_CACHE_HOME:-$HOME/.cache}/assignor-ci"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"' EXIT
skip() {
	echo "govulncheck: skipped: $*"
	exit 0
}

tool=$tmp/releasetool
GOWORK=off go -C .ci/releasetool build -o "$tool" .

bin="$cache/govulncheck-$vuln_version"
if [ ! -x "$bin/govulncheck" ]; then
	echo "govulncheck: installing golang.org/x/vuln/cmd/govulncheck@$vuln_version"
	GOBIN="$bin" GOFLAGS=-mod=mod GOWORK=off go install "golang.org/x/vuln/cmd/govulncheck@$vuln_version" ||
		skip "the module proxy did not give golang.org/x/vuln/cmd/govulncheck@$vuln_version"
fi

db="$cache/vulndb-$vulndb_version"
if [ ! -f "$db/index/modules.json" ]; then
	echo "govulncheck: building the database from golang.org/x/vulndb@$vulndb_version"
	# A module cache of its own, dropped after: only the converted
	# database (about 20 MB) is kept.
	json=$(cd "$tmp" && GOWORK=off GOFLAGS=-modcacherw GOMODCACHE="$tmp/modcache" go mod download -json "golang.org/x/vulndb@$vulndb_version") ||
		skip "the module proxy did not give golang.org/x/vulndb@$vulndb_version"
	dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$json")
	info=$(sed -n 's/^[[:space:]]*"Info": "\(.*\)",\{0,1\}$/\1/p' <<<"$json")
	[ -d "$dir/data/osv" ] || skip "golang.org/x/vulndb@$vulndb_version has no data/osv directory of OSV reports"
	modified=$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$info")
	rm -rf "$db.new"
	"$tool" vulndb -src "$dir/data/osv" -out "$db.new" -modified "$modified" ||
		skip "the OSV reports of golang.org/x/vulndb@$vulndb_version do not convert (see above)"
	rm -rf "$db"
	mv "$db.new" "$db"
fi

rc=0
for dir in $(go list -m -f '{{.Dir}}'); do
	rel=$(realpath --relative-to="$root" "$dir")
	[ "$rel" = examples ] && continue # not published
	start=$SECONDS
	if ! (cd "$dir" && GOWORK=off "$bin/govulncheck" -db "file://$db" -format json ./... >"$tmp/report.json"); then
		echo "govulncheck: $rel: the scan failed"
		rc=1
		continue
	fi
	"$tool" vulnreport -label "$rel" <"$tmp/report.json" || rc=1
	echo "govulncheck: $rel: $((SECONDS - start))s"
done
exit "$rc"
