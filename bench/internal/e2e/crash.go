package e2e

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// CrashDialer dials for one member until [CrashDialer.Crash], which resets
// every connection it made (RST, not FIN) and makes it refuse new ones: a
// member that dies without leaving the group. It serves sarama
// (Net.Proxy.Dialer takes [CrashDialer.Dial]) and franz-go (kgo.Dialer takes
// [CrashDialer.DialContext]); the kfake harness and the real-broker suite in
// bench/interop/e2e both use it. Safe for concurrent use.
type CrashDialer struct {
	timeout time.Duration
	mu      sync.Mutex
	conns   []net.Conn
	crashed bool
}

var errCrashed = errors.New("e2e: member crashed")

// NewCrashDialer returns a dialer whose connection attempts time out after
// timeout (none when zero).
func NewCrashDialer(timeout time.Duration) *CrashDialer {
	return &CrashDialer{timeout: timeout}
}

// DialContext dials addr, or fails after Crash. A connection that completes
// while Crash runs is reset at once.
func (d *CrashDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	crashed := d.crashed
	d.mu.Unlock()
	if crashed {
		return nil, errCrashed
	}
	c, err := (&net.Dialer{Timeout: d.timeout}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.crashed {
		reset(c)
		return nil, errCrashed
	}
	d.conns = append(d.conns, c)
	return c, nil
}

// Dial is the golang.org/x/net/proxy.Dialer form sarama takes.
func (d *CrashDialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

// Crash resets every connection the dialer made and refuses new ones from
// now on.
func (d *CrashDialer) Crash() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.crashed = true
	for _, c := range d.conns {
		reset(c)
	}
	d.conns = nil
}

// reset closes c with an RST rather than a FIN.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}
