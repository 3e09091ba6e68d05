package e2e_test

import (
	"context"
	"os"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestZZStaticLeave(t *testing.T) {
	b := os.Getenv("DBG_BROKERS")
	if b == "" {
		t.Skip()
	}
	cl, _ := kgo.NewClient(kgo.SeedBrokers(b))
	defer cl.Close()
	for _, inst := range []*string{nil, kmsg.StringPtr("static-x")} {
		req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
		req.Group = "zz-static-leave"
		req.MemberID = "AAAAAAAAAAAAAAAAAAAAAA"
		req.MemberEpoch = -2
		req.InstanceID = inst
		resp, err := req.RequestWith(context.Background(), cl)
		if err != nil {
			t.Fatal(err)
		}
		msg := ""
		if resp.ErrorMessage != nil {
			msg = *resp.ErrorMessage
		}
		t.Logf("instance %v: error code %d %q", inst != nil, resp.ErrorCode, msg)
	}
}
