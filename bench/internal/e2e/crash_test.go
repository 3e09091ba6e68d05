package e2e

import (
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

// TestCrashDialer: Crash resets the connections the dialer made (the peer
// reads ECONNRESET, not EOF) and refuses new ones.
func TestCrashDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()

	d := NewCrashDialer(time.Second)
	c, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("dial before the crash: %v", err)
	}
	defer c.Close()
	peer, ok := <-accepted
	if !ok {
		t.Fatal("the listener accepted nothing")
	}
	defer peer.Close()

	d.Crash()
	_ = peer.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := peer.Read(make([]byte, 1)); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("peer read after the crash = %v, want a connection reset (got EOF: %t)", err, errors.Is(err, io.EOF))
	}
	if _, err := d.Dial("tcp", ln.Addr().String()); !errors.Is(err, errCrashed) {
		t.Errorf("dial after the crash = %v, want %v", err, errCrashed)
	}
}
