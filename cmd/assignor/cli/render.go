package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// renderDescribe writes d for people.
func renderDescribe(w io.Writer, d description) error {
	var b strings.Builder
	fmt.Fprintf(&b, "group %s: %s group, state %s", d.Group, d.Type, d.State)
	if d.Protocol != "" {
		fmt.Fprintf(&b, ", assignor %s", d.Protocol)
	}
	b.WriteString("\n")
	switch {
	case d.Type == typeConsumer:
		fmt.Fprintf(&b, "group epoch %d, assignment epoch %d\n", d.Generation, d.AssignmentEpoch)
	case d.Generation >= 0:
		fmt.Fprintf(&b, "generation %d (inferred)\n", d.Generation)
	}
	if d.WindowSeconds > 0 {
		fmt.Fprintf(&b, "load: records/s arriving, from two end-offset samples %.1fs apart\n", d.WindowSeconds)
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	t := memberTable(d)
	if err := t.write(w, ""); err != nil {
		return err
	}
	b.Reset()
	if d.Assignments && len(d.Members) > 0 {
		tt := d.Totals
		fmt.Fprintf(&b, "\ncounts %d to %d (spread %d); loads %s to %s records/s (spread %s, mean %s); heaviest %s at %s the mean\n",
			tt.CountMin, tt.CountMax, tt.CountSpread, fmtLoad(tt.LoadMin), fmtLoad(tt.LoadMax), fmtLoad(tt.LoadSpread),
			fmtLoad(tt.LoadMean), tt.Heaviest, fmtRatio(tt.HeaviestOverMean))
		b.WriteString("\nassignments\n")
		for _, m := range d.Members {
			fmt.Fprintf(&b, "  %s: %s\n", m.Name, orDash(formatJSONTPs(m.Assigned)))
			if d.Type == typeConsumer && !slices.EqualFunc(m.Assigned, m.Target, equalJSONTP) {
				fmt.Fprintf(&b, "  %s target: %s\n", strings.Repeat(" ", len(m.Name)), orDash(formatJSONTPs(m.Target)))
			}
		}
		fmt.Fprintf(&b, "  unassigned: %s\n", orNone(formatJSONTPs(d.Unassigned)))
	}
	if len(d.Members) > 0 {
		b.WriteString("\nmember IDs\n")
		for _, m := range d.Members {
			fmt.Fprintf(&b, "  %s: %s", m.Name, m.ID)
			if m.InstanceID != "" {
				fmt.Fprintf(&b, " (instance %s)", m.InstanceID)
			}
			b.WriteString("\n")
		}
	}
	writeNotes(&b, d.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// memberTable is describe's table: one row per member, then the total.
func memberTable(d description) *table {
	if d.Type == typeConsumer {
		t := newTable("member", "host", "rack", "epoch", "partitions", "target", "lag", "load")
		for _, m := range d.Members {
			t.add(m.Name, m.Host, orDash(m.Rack), fmtGen(m.ClaimGeneration), itoa(m.Count), itoa(countJSONTPs(m.Target)),
				fmtLag(m.Lag), fmtLoad(m.Measured))
		}
		t.rule()
		t.add("total", "", "", "", itoa(d.Totals.Assigned), "", fmtLag(d.Totals.Lag), fmtLoad(d.Totals.Load))
		return t
	}
	t := newTable("member", "host", "sub", "claim gen", "user data", "partitions", "lag", "reported", "load", "")
	for _, m := range d.Members {
		sub := "-"
		if m.SubscriptionVersion >= 0 {
			sub = "v" + itoa(int(m.SubscriptionVersion))
		}
		reported := "-"
		if m.Reported != nil {
			reported = fmtLoad(*m.Reported)
		}
		mark := ""
		if len(m.Problems) > 0 {
			mark = "! " + m.Problems[0]
		}
		count, lag, load := "-", "-", "-"
		if d.Assignments {
			count, lag, load = itoa(m.Count), fmtLag(m.Lag), fmtLoad(m.Measured)
		}
		t.add(m.Name, m.Host, sub, fmtGen(m.ClaimGeneration), m.UserData, count, lag, reported, load, mark)
	}
	if d.Assignments {
		t.rule()
		t.add("total", "", "", "", "", itoa(d.Totals.Assigned), fmtLag(d.Totals.Lag), "", fmtLoad(d.Totals.Load), "")
	}
	return t
}

// renderWhatIf writes w for people.
func renderWhatIf(out io.Writer, w whatIf) error {
	var b strings.Builder
	target := w.Assignor
	if w.Name != w.Assignor {
		target += " (protocol " + w.Name + ")"
	}
	fmt.Fprintf(&b, "group %s: %s now → %s, from generation %s\n", w.Group, orDash(w.Current), target, fmtGen(w.Generation))
	fmt.Fprintf(&b, "weights: %s\n\n", w.Weights)
	if _, err := io.WriteString(out, b.String()); err != nil {
		return err
	}
	t := newTable("member", "partitions now", "after", "load now", "after", "change")
	for _, m := range w.Members {
		t.add(m.Name, itoa(m.CountBefore), itoa(m.CountAfter), fmtLoad(m.LoadBefore), fmtLoad(m.LoadAfter), signed(m.LoadAfter-m.LoadBefore))
	}
	if err := t.write(out, ""); err != nil {
		return err
	}
	b.Reset()
	settle := fmt.Sprintf("%d round(s) to settle", w.Rounds)
	if !w.Settled {
		settle = fmt.Sprintf("not settled after %d rounds", w.Rounds)
	}
	fmt.Fprintf(&b, "\n%s; %d partition(s) move, %d placed, %d withheld in the first round", settle, w.Moved, w.Placed, w.Withheld)
	if w.Returned > 0 {
		fmt.Fprintf(&b, " (%d of them handed back to their holder)", w.Returned)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "heaviest now:   %-12s %s records/s (%s the mean; count spread %d)\n", w.Before.Heaviest, fmtLoad(w.Before.LoadMax), fmtRatio(w.Before.OverMean), w.Before.CountSpread)
	fmt.Fprintf(&b, "heaviest after: %-12s %s records/s (%s the mean; count spread %d)\n", w.After.Heaviest, fmtLoad(w.After.LoadMax), fmtRatio(w.After.OverMean), w.After.CountSpread)
	if len(w.Moves) > 0 {
		names := map[string]string{}
		for _, m := range w.Members {
			names[m.ID] = m.Name
		}
		fmt.Fprintf(&b, "moves: %s\n", formatMoves(w.Moves, names, 12))
	}
	writeNotes(&b, w.Notes)
	_, err := io.WriteString(out, b.String())
	return err
}

// renderEvent writes one timeline line for people. lagLines says whether
// lag events are shown.
func renderEvent(w io.Writer, e event) error {
	var text string
	switch e.Kind {
	case eventState:
		text = fmt.Sprintf("%s; %d member(s): %s", e.State, len(e.Members), orNone(strings.Join(e.Members, " ")))
		if e.State != "Stable" {
			text += "  (assignments not visible until Stable)"
		}
	case eventMembers:
		var parts []string
		if len(e.Joined) > 0 {
			parts = append(parts, "joined "+strings.Join(e.Joined, " "))
		}
		if len(e.Left) > 0 {
			parts = append(parts, "left "+strings.Join(e.Left, " "))
		}
		text = strings.Join(parts, "; ") + fmt.Sprintf(" (%d now)", len(e.Members))
	case eventStable:
		gen := "generation unknown"
		if e.Generation >= 0 {
			gen = fmt.Sprintf("generation %d", e.Generation)
			if !e.Exact {
				gen += " (inferred)"
			}
		}
		text = fmt.Sprintf("%s: %d member(s)", gen, len(e.Members))
		switch {
		case e.First:
			text += ", first assignment seen"
		default:
			text += fmt.Sprintf(", %d moved, %d placed", e.Moved, e.Placed)
			if len(e.Moves) > 0 {
				text += ": " + formatMoves(e.Moves, e.names, 6)
			}
		}
		if len(e.Withheld) > 0 {
			text += "; withheld (in no assignment): " + formatJSONTPs(e.Withheld)
		}
		if e.Text != "" {
			text += "; " + e.Text
		}
	case eventLag:
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range e.Lag {
				if !yield(n) {
					return
				}
			}
		})
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s %s", n, fmtLag(e.Lag[n])))
		}
		text = strings.Join(parts, ", ")
	default:
		text = e.Text
	}
	_, err := fmt.Fprintf(w, "%7.1fs  %-7s %s\n", e.Elapsed, e.Kind, text)
	return err
}

// renderSummary writes the end of a watch for people.
func renderSummary(w io.Writer, s watchSummary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d poll(s): %d stable, %d rebalancing, %d failed\n", s.Polls, s.Stable, s.Rebalance, s.Errors)
	if s.Last >= 0 {
		fmt.Fprintf(&b, "generations %d to %d: %d observed (%s), %d not seen (%s)", s.First, s.Last,
			len(s.Observed), orNone(formatGens(s.Observed)), len(s.Unseen), orNone(formatGens(s.Unseen)))
		if s.Accounted {
			b.WriteString(": every generation accounted for\n")
		} else {
			b.WriteString(": NOT all accounted for\n")
		}
	} else {
		b.WriteString("no generation seen\n")
	}
	if len(s.FinalLag) > 0 {
		var parts []string
		for _, n := range sortedKeys(s.FinalLag) {
			parts = append(parts, n+" "+fmtLag(s.FinalLag[n]))
		}
		fmt.Fprintf(&b, "lag at the last stable poll: %s\n", strings.Join(parts, ", "))
	}
	if s.UnknownPolls > 0 {
		fmt.Fprintf(&b, "%d stable poll(s) with no generation to read (no member claims one)\n", s.UnknownPolls)
	}
	b.WriteString("\nnot visible from outside the group:\n")
	for _, c := range s.Cannot {
		fmt.Fprintf(&b, "  - %s\n", c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\nnotes\n")
	for _, n := range notes {
		fmt.Fprintf(b, "  - %s\n", n)
	}
}

func signed(x float64) string {
	if x > 0 {
		return "+" + fmtLoad(x)
	}
	return fmtLoad(x)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func formatJSONTPs(ts []topicPartition) string {
	tps := make([]assignor.TopicPartitions, len(ts))
	for i, t := range ts {
		tps[i] = assignor.TopicPartitions{Topic: t.Topic, Partitions: t.Partitions}
	}
	return assignor.FormatTopicPartitions(tps)
}

func countJSONTPs(ts []topicPartition) int {
	n := 0
	for _, t := range ts {
		n += len(t.Partitions)
	}
	return n
}

func equalJSONTP(a, b topicPartition) bool {
	return a.Topic == b.Topic && slices.Equal(a.Partitions, b.Partitions)
}
