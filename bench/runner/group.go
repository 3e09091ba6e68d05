package runner

import (
	"fmt"
	"time"

	ibm "github.com/IBM/sarama"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/e2e"
)

// groupScripts are the real-group scripts -group runs, from the sarama
// adapter's end-to-end harness (package bench/internal/e2e): members of one kind
// on franz-go's in-process kfake broker, records produced throughout.
var groupScripts = []string{"rolling-restart", "scale-out-in"}

// groupKinds are the member kinds -group compares: sarama members with our
// cooperative-sticky (through the adapter), with sarama's own
// cooperative-sticky and eager sticky, and franz-go members with its
// cooperative-sticky.
func groupKinds() []e2e.Kind {
	ours := e2e.Kind{Name: "ours", Sarama: func() []ibm.BalanceStrategy {
		return []ibm.BalanceStrategy{contender.OursSaramaStrategy()}
	}}
	return []e2e.Kind{ours, e2e.SaramaCooperativeSticky, e2e.SaramaSticky, e2e.KgoCooperativeSticky}
}

// groupCap bounds one real-group script run.
const groupCap = 3 * time.Minute

// groupStats is what one real-group script measured (see e2e.Report).
type groupStats struct {
	Window         time.Duration `json:"window"`
	Rebalances     int           `json:"rebalances"`
	Moved          int           `json:"moved"`
	Withheld       int           `json:"withheld"`
	UnownedSeconds float64       `json:"unowned_seconds"`
	MedianPause    time.Duration `json:"median_pause"`
	MaxPause       time.Duration `json:"max_pause"`
	Produced       int           `json:"produced"`
	Consumed       int           `json:"consumed"`
	Duplicates     int           `json:"duplicates"`
	Lost           int           `json:"lost"`
	Overlaps       int           `json:"overlaps"`
}

// runGroup runs one real-group script with one member kind.
func runGroup(j job, w *watchdog) (result, error) {
	s, ok := e2e.ScriptNamed(j.Group)
	if !ok {
		return result{}, fmt.Errorf("bench: unknown group script %q", j.Group)
	}
	var kind e2e.Kind
	for _, k := range groupKinds() {
		if k.Name == j.Kind {
			kind = k
		}
	}
	if kind.Name == "" {
		return result{}, fmt.Errorf("bench: unknown member kind %q", j.Kind)
	}
	var rep e2e.Report
	err := w.within(j.Cap, "group", func() error {
		var err error
		rep, err = e2e.RunScript(s, kind, e2e.Options{}, time.Minute)
		return err
	})
	if err != nil {
		return result{}, err
	}
	return result{Group: &groupStats{
		Window: rep.Window, Rebalances: rep.Rebalances, Moved: rep.Moved, Withheld: rep.Withheld,
		UnownedSeconds: rep.UnownedSeconds, MedianPause: rep.MedianPause(), MaxPause: rep.MaxPause(),
		Produced: rep.Produced, Consumed: rep.Consumed, Duplicates: rep.Duplicates, Lost: rep.Lost, Overlaps: len(rep.Overlaps),
	}}, nil
}

// groupRow is one real-group script run.
type groupRow struct {
	Script, Kind string
	Status, Note string
	Stats        *groupStats
}

// runGroups runs every group script with every kind, one child each.
func runGroups(spawn spawner, seed uint64, add func()) []*groupRow {
	var rows []*groupRow
	for _, s := range groupScripts {
		for _, k := range groupKinds() {
			gr := &groupRow{Script: s, Kind: k.Name, Status: statusOK}
			out := spawn(job{Group: s, Kind: k.Name, Seed: seed, Cap: groupCap})
			add()
			switch {
			case out.Capped:
				gr.Status, gr.Note = statusCapped, "> cap "+groupCap.String()
			case out.Err != "":
				gr.Status, gr.Note = statusError, out.Err
			default:
				gr.Stats = out.Group
			}
			rows = append(rows, gr)
		}
	}
	return rows
}

var groupHeader = []string{"script", "members", "window", "rebalances", "moved", "withheld", "unowned partition-s", "median pause", "max pause", "produced", "lost", "duplicates", "overlapping claims"}

func (gr *groupRow) cells() []string {
	out := []string{gr.Script, gr.Kind}
	if gr.Stats == nil {
		note := gr.Note
		if gr.Status == statusError {
			note = "ERROR: " + note
		}
		return append(out, note, "", "", "", "", "", "", "", "", "", "")
	}
	g := gr.Stats
	return append(out, dur(g.Window), fmt.Sprint(g.Rebalances), fmt.Sprint(g.Moved), fmt.Sprint(g.Withheld),
		fmt.Sprintf("%.1f", g.UnownedSeconds), dur(g.MedianPause), dur(g.MaxPause), fmt.Sprint(g.Produced),
		fmt.Sprint(g.Lost), fmt.Sprint(g.Duplicates), fmt.Sprint(g.Overlaps))
}
