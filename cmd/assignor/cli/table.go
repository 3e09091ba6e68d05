package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// table is an aligned text table: a header row, then rows; columns are as
// wide as their widest cell, two spaces apart; a column whose every body
// cell reads as a number (or "-") is aligned right, others left.
type table struct {
	header []string
	rows   [][]string
	// rules are the indices of rows that a rule line precedes.
	rules []int
}

func newTable(header ...string) *table { return &table{header: header} }

// add appends a row; missing cells are empty, extra cells are dropped.
func (t *table) add(cells ...string) {
	row := make([]string, len(t.header))
	copy(row, cells)
	t.rows = append(t.rows, row)
}

// rule puts a rule line before the next row added.
func (t *table) rule() { t.rules = append(t.rules, len(t.rows)) }

// write renders the table to w, each line indented by indent.
func (t *table) write(w io.Writer, indent string) error {
	n := len(t.header)
	width := make([]int, n)
	numeric := make([]bool, n)
	for c := range n {
		width[c] = utf8.RuneCountInString(t.header[c])
		filled := false
		numeric[c] = true
		for _, r := range t.rows {
			width[c] = max(width[c], utf8.RuneCountInString(r[c]))
			if r[c] != "" {
				filled = true
				numeric[c] = numeric[c] && isNumber(r[c])
			}
		}
		numeric[c] = numeric[c] && filled
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString(indent)
		for c, cell := range cells {
			pad := width[c] - utf8.RuneCountInString(cell)
			last := c == n-1
			switch {
			case numeric[c]:
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(cell)
			case last:
				b.WriteString(cell)
			default:
				b.WriteString(cell)
				b.WriteString(strings.Repeat(" ", pad))
			}
			if !last {
				b.WriteString("  ")
			}
		}
		trimmed := strings.TrimRight(b.String(), " ")
		b.Reset()
		b.WriteString(trimmed)
		b.WriteString("\n")
	}
	line(t.header)
	total := 0
	for c := range n {
		total += width[c]
	}
	total += 2 * (n - 1)
	ri := 0
	for i, r := range t.rows {
		for ri < len(t.rules) && t.rules[ri] == i {
			b.WriteString(indent + strings.Repeat("-", total) + "\n")
			ri++
		}
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// isNumber reports whether s reads as a number as the tables print them:
// digits with an optional sign, decimal point, "×" or "%" suffix, or "-".
func isNumber(s string) bool {
	if s == "-" || s == "?" {
		return true
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "×"), "%")
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Number formats for tables.

func itoa(n int) string { return strconv.Itoa(n) }

// fmtLoad renders a load in records/s with one decimal.
func fmtLoad(l float64) string { return strconv.FormatFloat(l, 'f', 1, 64) }

// fmtLag renders a lag; -1 (unknown) is "?".
func fmtLag(l int64) string {
	if l < 0 {
		return "?"
	}
	return strconv.FormatInt(l, 10)
}

// fmtGen renders a generation; a negative one is "-".
func fmtGen(g int32) string {
	if g < 0 {
		return "-"
	}
	return strconv.Itoa(int(g))
}

// fmtRatio renders a ratio as "1.34×", 0 as "-".
func fmtRatio(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", r)
}

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
