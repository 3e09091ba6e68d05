module github.com/kgroup/assignor/bench

go 1.26.0

require (
	github.com/IBM/sarama v1.61.1
	github.com/kgroup/assignor v0.1.0
	github.com/kgroup/assignor/adapters/kgoassignor v0.1.0
	github.com/kgroup/assignor/adapters/saramaassignor v0.1.0
	github.com/kgroup/assignor/cmd/assignor v0.1.0
	github.com/twmb/franz-go v1.22.3
	github.com/twmb/franz-go/pkg/kfake v0.0.0-20260918054303-01f206a7e32c
	github.com/twmb/franz-go/pkg/kmsg v1.15.1
	go.uber.org/goleak v1.3.0
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/eapache/go-resiliency v1.7.0 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/hashicorp/go-uuid v1.0.3 // indirect
	github.com/jcmturner/aescts/v2 v2.0.0 // indirect
	github.com/jcmturner/dnsutils/v2 v2.0.0 // indirect
	github.com/jcmturner/gofork v1.7.6 // indirect
	github.com/jcmturner/gokrb5/v8 v8.4.4 // indirect
	github.com/jcmturner/rpc/v2 v2.0.3 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/rcrowley/go-metrics v0.0.0-20250401214520-65e299d6c5c9 // indirect
	github.com/twmb/franz-go/pkg/kadm v1.20.0 // indirect
	golang.org/x/crypto v0.57.0 // indirect
	golang.org/x/image v0.45.0 // indirect
	golang.org/x/net v0.59.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
)

// The replace builds the module against the core and the adapters in this repository (the
// workspace and CI's single-module checks); consumers of the published
// module ignore it and get the releases required above (docs/development.md).
replace (
	github.com/kgroup/assignor => ..
	github.com/kgroup/assignor/adapters/kgoassignor => ../adapters/kgoassignor
	github.com/kgroup/assignor/adapters/saramaassignor => ../adapters/saramaassignor
	github.com/kgroup/assignor/cmd/assignor => ../cmd/assignor
)
