module github.com/kgroup/assignor/adapters/kgoassignor

go 1.26.0

require (
	github.com/kgroup/assignor v0.1.0
	github.com/twmb/franz-go v1.22.3
	github.com/twmb/franz-go/pkg/kmsg v1.15.1
	pgregory.net/rapid v1.3.0
)

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
)

// The replace builds the adapter against the core in this repository (the
// workspace and CI's single-module checks); consumers of the published
// module ignore it and get the release required above (docs/development.md).
replace github.com/kgroup/assignor => ../..
