// Command releasetool is the release tooling of this repository's CI,
// run by the scripts in .ci/ (standard library only):
//
//	releasetool modproxy -version vX.Y.Z -out DIR [-rewrite-requires]
//	    a file:// GOPROXY of every published module at that version
//	releasetool vulndb -src OSVDIR -out DIR
//	    govulncheck's database layout from a directory of OSV reports
//	releasetool apicompat [-repo DIR] [-changelog FILE]
//	    the exported API at HEAD against each module's last release tag
//	releasetool vulnreport -label NAME < govulncheck.json
//	    govulncheck's findings by level; fails on a called vulnerability of a
//	    required module
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: releasetool modproxy|vulndb|apicompat|vulnreport [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "modproxy":
		err = runModproxy(os.Args[2:])
	case "vulndb":
		err = runVulndb(os.Args[2:])
	case "apicompat":
		err = runAPICompat(os.Args[2:])
	case "vulnreport":
		err = runVulnReport(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: modproxy, vulndb, apicompat or vulnreport", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
