package main

import (
	"context"
	"testing"
	"time"
)

// TestRun runs the example against its embedded cluster with two members.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	if err := run(ctx, "", "orders", 4, 2, "example-test"); err != nil {
		t.Fatal(err)
	}
}
