package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/IBM/sarama"
)

// broker is one Apache Kafka process (KRaft, broker and controller in one node) started by
// bench/interop/kafka.sh run, which formats a fresh temporary directory and execs the JVM, so cmd's
// process is the broker itself.
type broker struct {
	addr      string
	dir       string
	cmd       *exec.Cmd
	exited    chan struct{}
	startTook time.Duration
}

// scriptPath returns bench/interop/kafka.sh, found relative to this package's directory (go test runs
// in it).
func scriptPath() (string, error) {
	p, err := filepath.Abs(filepath.Join("..", "kafka.sh"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("interop script: %w", err)
	}
	return p, nil
}

// runScript runs kafka.sh with args and returns its standard output; its standard error is
// returned in the error.
func runScript(ctx context.Context, args ...string) (string, error) {
	script, err := scriptPath()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, script, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("kafka.sh %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startBroker formats a temporary directory, starts the broker and waits until it answers a
// metadata request and can create a topic. The start time it records runs from launching the
// script (storage format included) to that point.
func startBroker(ctx context.Context) (*broker, error) {
	script, err := scriptPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "assignor-interop-kafka-")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	ctrl, err := freePort()
	if err != nil {
		return nil, err
	}
	b := &broker{addr: "127.0.0.1:" + strconv.Itoa(port), dir: dir, exited: make(chan struct{})}
	out, err := os.Create(filepath.Join(dir, "stdout.log"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	start := time.Now()
	b.cmd = exec.Command(script, "run", dir, strconv.Itoa(port), strconv.Itoa(ctrl))
	b.cmd.Stdout, b.cmd.Stderr = out, out
	// Its own process group, so stop reaches the storage-format JVM too; and killed with the
	// test binary, so a test killed by a timeout leaves no broker behind.
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the broker: %w", err)
	}
	go func() { _ = b.cmd.Wait(); close(b.exited) }()
	if err := b.waitReady(ctx); err != nil {
		b.stop()
		return nil, err
	}
	b.startTook = time.Since(start)
	return b, nil
}

func (b *broker) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	logPath := filepath.Join(b.dir, "broker.log")
	for {
		if logContains(logPath, "Kafka Server started") {
			break
		}
		select {
		case <-b.exited:
			return fmt.Errorf("broker exited during start: %s", b.tail())
		case <-ctx.Done():
			return fmt.Errorf("broker not started: %w: %s", ctx.Err(), b.tail())
		case <-time.After(50 * time.Millisecond):
		}
	}
	// The log line comes when the broker has registered; make sure a client can use it.
	for {
		admin, err := sarama.NewClusterAdmin([]string{b.addr}, clientConfig("ready-probe"))
		if err == nil {
			_, _, err = admin.DescribeCluster()
			admin.Close()
			if err == nil {
				return nil
			}
		}
		select {
		case <-b.exited:
			return fmt.Errorf("broker exited during start: %s", b.tail())
		case <-ctx.Done():
			return fmt.Errorf("broker not serving: %w (last error %v): %s", ctx.Err(), err, b.tail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func logContains(path, s string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), s) {
			return true
		}
	}
	return false
}

// tail returns the last lines of the broker's output and log, for error messages.
func (b *broker) tail() string {
	var parts []string
	for _, name := range []string{"stdout.log", "format.log", "broker.log"} {
		data, err := os.ReadFile(filepath.Join(b.dir, name))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		parts = append(parts, name+":\n"+strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n")
}

// stop terminates the broker (SIGTERM to its process group, SIGKILL after 15 s) and removes
// its directory. It is safe to call twice.
func (b *broker) stop() error {
	if b.cmd != nil && b.cmd.Process != nil {
		pgid := b.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-b.exited:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-b.exited
		}
	}
	if b.dir == "" {
		return nil
	}
	err := os.RemoveAll(b.dir)
	b.dir = ""
	return err
}

// createTopics creates topics with partitions each and waits until every partition has a
// leader.
func (b *broker) createTopics(partitions int32, topics ...string) error {
	admin, err := sarama.NewClusterAdmin([]string{b.addr}, clientConfig("admin"))
	if err != nil {
		return err
	}
	defer admin.Close()
	for _, topic := range topics {
		err := admin.CreateTopic(topic, &sarama.TopicDetail{NumPartitions: partitions, ReplicationFactor: 1}, false)
		if err != nil && !errors.Is(err, sarama.ErrTopicAlreadyExists) {
			return fmt.Errorf("creating topic %s: %w", topic, err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		meta, err := admin.DescribeTopics(topics)
		ready := err == nil
		for _, m := range meta {
			if m.Err != sarama.ErrNoError || int32(len(m.Partitions)) != partitions {
				ready = false
				continue
			}
			for _, p := range m.Partitions {
				if p.Leader < 0 {
					ready = false
				}
			}
		}
		if ready {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("topics %v have no leaders after 30 s (last error %v)", topics, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// committed returns the group's committed offsets for topics, from the broker.
func (b *broker) committed(group string, topics []string, partitions int32) (map[topicPartition]int64, error) {
	admin, err := sarama.NewClusterAdmin([]string{b.addr}, clientConfig("admin"))
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	want := make(map[string][]int32, len(topics))
	for _, topic := range topics {
		for p := range partitions {
			want[topic] = append(want[topic], p)
		}
	}
	resp, err := admin.ListConsumerGroupOffsets(group, want)
	if err != nil {
		return nil, err
	}
	if resp.Err != sarama.ErrNoError {
		return nil, fmt.Errorf("group %s offsets: %w", group, resp.Err)
	}
	out := make(map[topicPartition]int64)
	for topic, blocks := range resp.Blocks {
		for p, block := range blocks {
			if block.Err != sarama.ErrNoError {
				return nil, fmt.Errorf("group %s offset of %s/%d: %w", group, topic, p, block.Err)
			}
			out[topicPartition{topic, p}] = block.Offset
		}
	}
	return out, nil
}

// clientConfig is the sarama configuration every client of the suite starts from: a protocol
// version new enough for subscription v2 (owned partitions and generation) and the short
// timeouts the broker's group.min.session.timeout.ms (500 ms) allows.
func clientConfig(clientID string) *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Version = sarama.V4_0_0_0
	cfg.ClientID = clientID
	cfg.Metadata.Retry.Backoff = 50 * time.Millisecond
	cfg.Net.DialTimeout = 5 * time.Second
	cfg.Net.ReadTimeout = 10 * time.Second
	cfg.Net.WriteTimeout = 5 * time.Second
	return cfg
}
