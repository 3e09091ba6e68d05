package kafka

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// ErrUnavailable is wrapped by the errors of [Build] and [FromEnv] when
// the machine lacks what the harness needs (Java 17+ and Maven, or a
// harness built by a parent process).
var ErrUnavailable = errors.New("kafka: harness unavailable")

// ClasspathEnv is the environment variable through which a parent process
// hands the harness it built to its children: the java binary, a newline,
// the harness's classpath.
const ClasspathEnv = "ASSIGNOR_KAFKA_HARNESS"

// SourceEnv overrides where [Build] looks for the harness's sources (the
// directory holding bench/kafka's pom.xml).
const SourceEnv = "ASSIGNOR_KAFKA_SOURCE"

// mainClass is the harness's entry point.
const mainClass = "io.kgroup.assignor.kafkabench.Main"

// Harness is a built Java harness: how to start its JVM.
type Harness struct {
	// Java is the java binary.
	Java string
	// Classpath is the harness jar and its runtime dependencies.
	Classpath string
	// Version describes the Java runtime ("OpenJDK 64-Bit Server VM
	// 17.0.15+6-Debian-1deb12u1"); set by [Build], empty from [FromEnv].
	Version string
}

// Env returns the NAME=VALUE entry that hands h to a child process (see
// [FromEnv]).
func (h *Harness) Env() string { return ClasspathEnv + "=" + h.Java + "\n" + h.Classpath }

// FromEnv returns the harness a parent process handed over in
// [ClasspathEnv], or an error wrapping [ErrUnavailable] if there is none.
func FromEnv() (*Harness, error) {
	v := os.Getenv(ClasspathEnv)
	java, cp, ok := strings.Cut(v, "\n")
	if !ok || java == "" || cp == "" {
		return nil, fmt.Errorf("%w: %s is not set", ErrUnavailable, ClasspathEnv)
	}
	return &Harness{Java: java, Classpath: cp}, nil
}

// Build returns the harness, packaging it with Maven first if its jar is
// missing or older than a source. Maven runs offline first (the local
// repository, ~/.m2) and online only if that fails; log gets one line when
// Maven runs, and Maven's own output when it fails. The error wraps
// [ErrUnavailable] when java (17 or newer) or mvn is missing.
func Build(ctx context.Context, log io.Writer) (*Harness, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("%w: java not found on PATH (the harness needs Java 17 or newer)", ErrUnavailable)
	}
	v, version, err := javaVersion(ctx, java)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	} else if v < 17 {
		return nil, fmt.Errorf("%w: %s is Java %d; Kafka 4.4 needs Java 17 or newer", ErrUnavailable, java, v)
	}
	dir, err := sourceDir()
	if err != nil {
		return nil, err
	}
	jar := filepath.Join(dir, "target", "kafka-assignors.jar")
	cpFile := filepath.Join(dir, "target", "classpath.txt")
	if !upToDate(dir, jar, cpFile) {
		mvn, err := exec.LookPath("mvn")
		if err != nil {
			return nil, fmt.Errorf("%w: mvn not found on PATH (Maven builds the harness in %s)", ErrUnavailable, dir)
		}
		fmt.Fprintf(log, "kafka: building the Java harness in %s (mvn package, offline first)\n", dir)
		args := []string{"-B", "-q", "-f", filepath.Join(dir, "pom.xml"), "package", "dependency:build-classpath",
			"-Dmdep.outputFile=" + cpFile, "-Dmdep.includeScope=runtime"}
		start := time.Now()
		if out, err := exec.CommandContext(ctx, mvn, append([]string{"-o"}, args...)...).CombinedOutput(); err != nil {
			if out, err := exec.CommandContext(ctx, mvn, args...).CombinedOutput(); err != nil {
				return nil, fmt.Errorf("kafka: mvn package in %s: %v: %s", dir, err, lastLines(string(out), 8))
			}
			_ = out
		}
		// Maven leaves an unchanged classpath file as it was; mark it as
		// built now, so that the next call finds the harness up to date.
		now := time.Now()
		if err := os.Chtimes(cpFile, now, now); err != nil {
			return nil, fmt.Errorf("kafka: %w", err)
		}
		fmt.Fprintf(log, "kafka: harness built in %s\n", time.Since(start).Round(100*time.Millisecond))
	}
	deps, err := os.ReadFile(cpFile)
	if err != nil {
		return nil, fmt.Errorf("kafka: reading the harness classpath: %w", err)
	}
	return &Harness{Java: java, Classpath: jar + string(os.PathListSeparator) + strings.TrimSpace(string(deps)), Version: version}, nil
}

// javaVersion returns the major version of the java binary and a line
// naming its VM and runtime version.
func javaVersion(ctx context.Context, java string) (int, string, error) {
	out, err := exec.CommandContext(ctx, java, "-XshowSettings:properties", "-version").CombinedOutput()
	if err != nil {
		return 0, "", fmt.Errorf("%s -version: %v", java, err)
	}
	props := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), " = "); ok {
			props[k] = v
		}
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(props["java.specification.version"], "1."), ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		return 0, "", fmt.Errorf("%s: no java.specification.version in its settings", java)
	}
	return n, strings.TrimSpace(props["java.vm.name"] + " " + props["java.runtime.version"]), nil
}

// sourceDir returns the directory of the harness's pom.xml: SourceEnv, or
// bench/kafka next to this package's source (the bench is run from its
// sources, `go run ./bench`), or bench/kafka under the working directory.
func sourceDir() (string, error) {
	var candidates []string
	if d := os.Getenv(SourceEnv); d != "" {
		candidates = append(candidates, d)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		candidates = append(candidates, filepath.Join(filepath.Dir(file), "..", "..", "kafka"))
	}
	candidates = append(candidates, filepath.Join("bench", "kafka"), "kafka")
	for _, d := range candidates {
		if _, err := os.Stat(filepath.Join(d, "pom.xml")); err == nil {
			return filepath.Abs(d)
		}
	}
	return "", fmt.Errorf("%w: no harness sources (bench/kafka/pom.xml) found; set %s", ErrUnavailable, SourceEnv)
}

// upToDate reports whether jar and the classpath file exist, are newer than
// every source under dir (pom.xml and src), and every jar the classpath
// names exists.
func upToDate(dir, jar, cpFile string) bool {
	built := func(path string) time.Time {
		st, err := os.Stat(path)
		if err != nil {
			return time.Time{}
		}
		return st.ModTime()
	}
	oldest := built(jar)
	if t := built(cpFile); t.Before(oldest) {
		oldest = t
	}
	if oldest.IsZero() {
		return false
	}
	stale := false
	for _, root := range []string{filepath.Join(dir, "pom.xml"), filepath.Join(dir, "src")} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				stale = true
				return fs.SkipAll
			}
			if !d.IsDir() && built(path).After(oldest) {
				stale = true
				return fs.SkipAll
			}
			return nil
		})
	}
	if stale {
		return false
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		return false
	}
	for _, j := range filepath.SplitList(strings.TrimSpace(string(cp))) {
		if _, err := os.Stat(j); err != nil {
			return false
		}
	}
	return true
}

// lastLines returns the last n lines of s, joined with " | ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
