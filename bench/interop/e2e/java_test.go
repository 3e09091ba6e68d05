package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// javaHost is one JVM of bench/interop/javaconsumer hosting any number of Java consumers, driven over
// its standard input (one JSON command a line) and reporting over its standard output (one JSON
// event a line) into a ledger.
type javaHost struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	ledger *ledger
	done   chan struct{}

	mu      sync.Mutex
	closed  map[string]chan struct{} // member -> closed when the member reports "closed"
	started map[string]chan struct{}
	names   map[string]string // member id -> its ledger name (a restarted member is a new member)
	stderr  strings.Builder
	logPath string // the JVM's log, with the consumer coordinator's INFO lines
}

// javaEvent is one line of the program's output; see InteropConsumer.java.
type javaEvent struct {
	Ev      string   `json:"ev"`
	ID      string   `json:"id"`
	T       int64    `json:"t"` // Unix microseconds
	Gen     int32    `json:"gen"`
	Member  string   `json:"member"`
	Parts   [][2]any `json:"parts"`
	All     [][2]any `json:"all"`
	Topic   string   `json:"topic"`
	P       int32    `json:"p"`
	Offs    []int64  `json:"offs"`
	Off     int64    `json:"off"`
	Msg     string   `json:"msg"`
	Closing bool     `json:"closing"`
}

func (e javaEvent) time() time.Time { return time.UnixMicro(e.T) }

func partsOf(raw [][2]any) ([]topicPartition, error) {
	out := make([]topicPartition, 0, len(raw))
	for _, p := range raw {
		topic, ok1 := p[0].(string)
		num, ok2 := p[1].(float64)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("malformed partition %v", p)
		}
		out = append(out, topicPartition{topic, int32(num)})
	}
	return out, nil
}

// startJavaHost starts the JVM; it logs Kafka's client warnings to javaconsumer.log in dir.
func startJavaHost(ctx context.Context, l *ledger, dir string) (*javaHost, error) {
	root, err := filepath.Abs(filepath.Join("..", "javaconsumer", "target"))
	if err != nil {
		return nil, err
	}
	cp, err := os.ReadFile(filepath.Join(root, "classpath.txt"))
	if err != nil {
		return nil, fmt.Errorf("java consumer classpath (run bench/interop/kafka.sh build): %w", err)
	}
	classpath := filepath.Join(root, "interop-consumer.jar") + string(os.PathListSeparator) + strings.TrimSpace(string(cp))
	h := &javaHost{
		logPath: filepath.Join(dir, "javaconsumer.log"),
		ledger:  l,
		done:    make(chan struct{}),
		closed:  make(map[string]chan struct{}),
		started: make(map[string]chan struct{}),
		names:   make(map[string]string),
	}
	h.cmd = exec.Command("java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k",
		"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
		// The coordinator logs "Finished assignment for group at generation N" on the leader
		// only: the one place a Java consumer tells that it led.
		"-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.consumer.internals.ConsumerCoordinator=info",
		"-Dorg.slf4j.simpleLogger.logFile="+h.logPath,
		"-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
		"-cp", classpath, "io.kgroup.interop.InteropConsumer")
	h.cmd.Stderr = &lockedWriter{mu: &h.mu, w: &h.stderr}
	h.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // dies with the test binary
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := h.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the java consumer: %w", err)
	}
	go h.read(stdout)
	return h, nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func (h *javaHost) read(stdout io.Reader) {
	defer close(h.done)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var e javaEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			h.ledger.problem("java: unreadable event %q: %v", sc.Text(), err)
			continue
		}
		h.handle(e)
	}
	if err := sc.Err(); err != nil {
		h.ledger.problem("java: reading events: %v", err)
	}
}

func (h *javaHost) name(id string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.names[id]
}

func (h *javaHost) handle(e javaEvent) {
	name := h.name(e.ID)
	l := h.ledger
	switch e.Ev {
	case "started":
		h.mu.Lock()
		if ch := h.started[e.ID]; ch != nil {
			close(ch)
			delete(h.started, e.ID)
		}
		h.mu.Unlock()
	case "assigned":
		parts, err := partsOf(e.Parts)
		if err != nil {
			l.problem("java %s: %v", name, err)
		}
		for _, tp := range parts {
			l.claimStart(name, tp, e.Gen, e.time())
		}
		if len(parts) == 0 {
			l.mu.Lock()
			l.seenGeneration(e.Gen, e.time())
			l.mu.Unlock()
		}
	case "revoked", "lost":
		parts, err := partsOf(e.Parts)
		if err != nil {
			l.problem("java %s: %v", name, err)
		}
		for _, tp := range parts {
			l.claimEnd(name, tp, e.time())
		}
		switch {
		case e.Ev == "lost" && e.Closing:
			l.note("java %s closed during a rebalance: %v reported lost (generation %d)", name, parts, e.Gen)
		case e.Ev == "lost":
			l.problem("java %s lost %v in generation %d", name, parts, e.Gen)
		}
	case "consumed":
		l.consume(name, topicPartition{e.Topic, e.P}, e.Gen, e.Offs, e.time())
	case "committed", "commitfail":
		// Commit failures during a rebalance are expected; the revocation commits again and
		// the final check reads the committed offsets from the broker.
	case "closed":
		l.memberGone(name, e.time())
		h.mu.Lock()
		if ch := h.closed[e.ID]; ch != nil {
			close(ch)
			delete(h.closed, e.ID)
		}
		h.mu.Unlock()
	case "error":
		l.problem("java %s: %s", name, e.Msg)
	default:
		l.problem("java %s: unknown event %q", name, e.Ev)
	}
}

// javaMember is what a Java consumer is started with.
type javaMember struct {
	id, name  string // id in the JVM; name in the ledger (unique per incarnation)
	instance  string // group.instance.id; empty for a dynamic member
	group     string
	topics    []string
	bootstrap string
	session   time.Duration
	heartbeat time.Duration
	maxPoll   time.Duration
}

func (h *javaHost) send(cmd map[string]string) error {
	line, err := json.Marshal(cmd)
	if err != nil {
		return err
	}
	_, err = h.stdin.Write(append(line, '\n'))
	return err
}

// start starts a consumer and waits until it subscribed.
func (h *javaHost) start(m javaMember) error {
	h.ledger.member(m.name, kindJava)
	started := make(chan struct{})
	h.mu.Lock()
	h.names[m.id] = m.name
	h.started[m.id] = started
	h.closed[m.id] = make(chan struct{})
	h.mu.Unlock()
	err := h.send(map[string]string{
		"op": "start", "id": m.id, "bootstrap": m.bootstrap, "group": m.group,
		"topics": strings.Join(m.topics, ","), "instance": m.instance,
		"session":   fmt.Sprint(m.session.Milliseconds()),
		"heartbeat": fmt.Sprint(m.heartbeat.Milliseconds()),
		"maxpoll":   fmt.Sprint(m.maxPoll.Milliseconds()),
	})
	if err != nil {
		return err
	}
	select {
	case <-started:
		return nil
	case <-h.done:
		return fmt.Errorf("java consumer exited: %s", h.stderrText())
	case <-time.After(30 * time.Second):
		return fmt.Errorf("java member %s did not start in 30 s", m.name)
	}
}

// stop closes a consumer (leaving the group unless it is static) and waits until it closed.
func (h *javaHost) stop(id string) error {
	h.mu.Lock()
	closed := h.closed[id]
	h.mu.Unlock()
	if closed == nil {
		return fmt.Errorf("java member %s is not running", id)
	}
	if err := h.send(map[string]string{"op": "stop", "id": id}); err != nil {
		return err
	}
	select {
	case <-closed:
		return nil
	case <-h.done:
		return fmt.Errorf("java consumer exited: %s", h.stderrText())
	case <-time.After(30 * time.Second):
		return fmt.Errorf("java member %s did not close in 30 s", id)
	}
}

func (h *javaHost) stderrText() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stderr.String()
}

// close stops every consumer and the JVM.
func (h *javaHost) close() error {
	_ = h.send(map[string]string{"op": "quit"})
	_ = h.stdin.Close()
	select {
	case <-h.done:
	case <-time.After(40 * time.Second):
		_ = h.cmd.Process.Kill()
		<-h.done
	}
	err := h.cmd.Wait()
	if err != nil {
		return fmt.Errorf("java consumer: %w: %s", err, h.stderrText())
	}
	return nil
}

// ledGenerations returns the generations a Java member led, with the member's id, read from the
// coordinator's log line "[Consumer clientId=ID, groupId=G] Finished assignment for group at
// generation N: …", which only the leader writes.
func (h *javaHost) ledGenerations() (map[int32]string, error) {
	data, err := os.ReadFile(h.logPath)
	if err != nil {
		return nil, err
	}
	led := make(map[int32]string)
	for _, line := range strings.Split(string(data), "\n") {
		_, rest, ok := strings.Cut(line, "[Consumer clientId=")
		if !ok {
			continue
		}
		id, rest, ok := strings.Cut(rest, ",")
		if !ok {
			continue
		}
		_, rest, ok = strings.Cut(rest, "Finished assignment for group at generation ")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, ":")
		gen, err := strconv.ParseInt(num, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("java log: generation in %q: %w", line, err)
		}
		led[int32(gen)] = id
	}
	return led, nil
}

// recordLeaders tells the ledger which generations Java members led so far.
func (h *javaHost) recordLeaders() error {
	led, err := h.ledGenerations()
	if err != nil {
		return err
	}
	for gen, id := range led {
		h.ledger.ledBy(gen, h.name(id), kindJava)
	}
	return nil
}
