package main

import (
	"fmt"

	"github.com/kgroup/assignor/adapters/kgoassignor"
)

func init() { parts["franz-go"] = franzgoPart }

// franzgoPart builds the balancer and the options that wire it into a kgo
// client (kgo.NewClient(append(opts, b.Opts()...)...)).
func franzgoPart() {
	b := kgoassignor.CooperativeSticky()
	fmt.Printf("franz-go %s: %d options\n", b.ProtocolName(), len(b.Opts()))
}
