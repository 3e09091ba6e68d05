package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kgroup/assignor/cmd/assignor/internal/demo"
)

// Main runs the command on os.Args[1:], stops at SIGINT or SIGTERM, and
// exits with [Run]'s status. Call [Register] first for assignors of your
// own.
func Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the command on args (without the program name), writing its
// output to stdout and errors and progress to stderr, until it is done or
// ctx ends. It returns the exit status: 0 on success, 1 on an error (its
// message, which says what to fix, on stderr), 2 on a bad command line.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	var run func(context.Context, options, io.Writer, io.Writer) error
	switch args[0] {
	case "describe":
		run = runDescribe
	case "whatif":
		run = runWhatIf
	case "watch":
		run = runWatch
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "assignor: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	o, ok := parseFlags(args[0], args[1:], stderr)
	if !ok {
		return 2
	}
	if args[0] == "whatif" && o.list {
		listAssignors(stdout)
		return 0
	}
	if err := o.check(args[0]); err != nil {
		fmt.Fprintf(stderr, "assignor %s: %v\n", args[0], err)
		return 2
	}
	if err := run(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "assignor %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

const readOnly = `Read-only: it sends admin requests only (ListGroups, DescribeGroups,
ConsumerGroupDescribe, Metadata, OffsetFetch, ListOffsets); it never joins
the group and never commits offsets.`

func usage(w io.Writer) {
	fmt.Fprintf(w, `usage: assignor <command> [flags]

Looks at a live Kafka consumer group from outside: who holds what, how far
each member is behind, how much load each gets, and what another assignor
would do to it. %s

commands:
  describe  members, subscriptions, claims, assignments, lag and load
  whatif    the plan an assignor would make from the live state (-assignor NAME;
            -list for the names): moves, rounds to settle, loads before and after
  watch     polls the group and prints a timeline of what can be seen from outside

Every command takes -brokers and -group, -json for scripts, and -demo, which
starts an embedded broker with a skewed producer and a group of sarama members
on count-based sticky (no cluster needed). assignor <command> -h lists its flags.
`, readOnly)
}

// options is a command line.
type options struct {
	brokers, group string
	json, demo     bool
	timeout        time.Duration
	window         time.Duration
	// whatif
	assignor string
	list     bool
	plot     string
	// watch
	interval, duration, lagEvery time.Duration
}

func parseFlags(cmd string, args []string, stderr io.Writer) (options, bool) {
	var o options
	fs := flag.NewFlagSet("assignor "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.brokers, "brokers", "", "comma-separated bootstrap brokers, host:port")
	fs.StringVar(&o.group, "group", "", "the consumer group's ID")
	fs.BoolVar(&o.json, "json", false, "print JSON for scripts instead of tables")
	fs.BoolVar(&o.demo, "demo", false, "start an embedded broker (kfake) with a skewed producer and a group of sarama members on count-based sticky, and look at that group")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "how long to wait for the brokers")
	switch cmd {
	case "describe", "whatif":
		fs.DurationVar(&o.window, "window", 5*time.Second, "measure each partition's load (records/s) from two end-offset samples this far apart; 0 to skip")
	}
	switch cmd {
	case "whatif":
		fs.StringVar(&o.assignor, "assignor", "", "the assignor to plan with (see -list)")
		fs.BoolVar(&o.list, "list", false, "list the assignors and exit")
		fs.StringVar(&o.plot, "plot", "", "draw each member's load now and after to this PNG file")
	case "watch":
		fs.DurationVar(&o.interval, "interval", time.Second, "time between two polls")
		fs.DurationVar(&o.duration, "duration", 0, "stop after this long (default: until interrupted; with -demo, a rolling restart of its members and 3 s more)")
		fs.DurationVar(&o.lagEvery, "lag-every", 5*time.Second, "print members' lag at most this often (tables only; -json prints every poll's)")
		fs.StringVar(&o.plot, "plot", "", "draw lag per member over time to this PNG file")
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: assignor %s [flags]\n\n%s\n\n", cmd, commandDoc[cmd])
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "assignor %s: unexpected arguments %q (flags go before nothing else)\n", cmd, fs.Args())
		return o, false
	}
	return o, true
}

var commandDoc = map[string]string{
	"describe": "Describes a consumer group: state, assignor, members with client ID and host, and while it is\nStable each member's subscription, claims, assignment, lag and load (measured, and reported by\nweighted members). " + readOnly,
	"whatif":   "Plans the group's next rebalance with -assignor NAME from its live state (subscriptions,\nassignments, racks, measured loads as weights) and prints what would move, in how many rounds,\nand each member's count and load before and after. " + readOnly,
	"watch":    "Polls the group and prints a timeline: state changes, members joining and leaving, each Stable\nassignment and what moved, partitions in no assignment, generations that came and went between\ntwo polls, lag per member. " + readOnly,
}

// check validates the flags of cmd.
func (o options) check(cmd string) error {
	if !o.demo {
		if o.brokers == "" {
			return errors.New("-brokers is required (or -demo for an embedded broker)")
		}
		if o.group == "" {
			return errors.New("-group is required (or -demo)")
		}
	}
	if cmd == "whatif" {
		if o.assignor == "" {
			return fmt.Errorf("-assignor is required: one of %s", strings.Join(keys(), ", "))
		}
		if _, ok := lookup(o.assignor); !ok {
			return unknownAssignor(o.assignor)
		}
	}
	if o.window < 0 || o.timeout <= 0 || (cmd == "watch" && o.interval <= 0) {
		return errors.New("-window must be 0 or more, -timeout and -interval more than 0")
	}
	return nil
}

// connect starts the demo when asked, then dials the brokers. The
// returned function releases both.
func connect(ctx context.Context, o *options, stderr io.Writer) (*admin, *demo.Cluster, func(), error) {
	var d *demo.Cluster
	if o.demo {
		fmt.Fprintln(stderr, "demo: starting an embedded broker, a skewed producer and 4 sarama members on count-based sticky …")
		var err error
		d, err = demo.Start(ctx, demo.Options{Group: o.group})
		if err != nil {
			return nil, nil, nil, err
		}
		o.brokers, o.group = strings.Join(d.Brokers(), ","), d.Group()
		fmt.Fprintf(stderr, "demo: broker %s, group %s of %d members stable (topics %s, %d records/s skewed, each member handles %.0f records/s)\n",
			o.brokers, o.group, d.Members(), strings.Join(d.Topics(), ", "), d.Rate(), d.Capacity())
	}
	a, err := dial(ctx, strings.Split(o.brokers, ","), o.timeout)
	if err != nil {
		if d != nil {
			_ = d.Close()
		}
		return nil, nil, nil, err
	}
	return a, d, func() {
		a.close()
		if d != nil {
			_ = d.Close()
		}
	}, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runDescribe(ctx context.Context, o options, stdout, stderr io.Writer) error {
	a, _, done, err := connect(ctx, &o, stderr)
	if err != nil {
		return err
	}
	defer done()
	s, err := a.snap(ctx, o.group, o.window, nil)
	if err != nil {
		return err
	}
	d := describe(newView(s))
	if o.json {
		return writeJSON(stdout, d)
	}
	return renderDescribe(stdout, d)
}

func runWhatIf(ctx context.Context, o options, stdout, stderr io.Writer) error {
	e, _ := lookup(o.assignor)
	a, _, done, err := connect(ctx, &o, stderr)
	if err != nil {
		return err
	}
	defer done()
	s, err := a.snap(ctx, o.group, o.window, nil)
	if err != nil {
		return err
	}
	w, err := planWhatIf(newView(s), e)
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := plotWhatIf(o.plot, w); err != nil {
			return fmt.Errorf("-plot %s: %w", o.plot, err)
		}
		fmt.Fprintf(stderr, "plot: %s\n", o.plot)
	}
	if o.json {
		return writeJSON(stdout, w)
	}
	return renderWhatIf(stdout, w)
}

func listAssignors(w io.Writer) {
	t := newTable("assignor", "what it is")
	for _, e := range entries() {
		t.add(e.Key, e.Name)
	}
	_ = t.write(w, "")
}
