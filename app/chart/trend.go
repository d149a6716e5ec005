package chart

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Trend is a line over time: its points oldest first, the range of the
// value axis (Min to Max; when both are 0, that of the points) and what
// a value is ("Average rating").
type Trend struct {
	ID, Caption string
	Unit        string // the table's value column, e.g. "Average rating"
	Points      []Point
	Min, Max    float64
	Extra       []string   // more columns of the table, e.g. "Ratings"
	ExtraCells  [][]string // their cells, one row per point
}

// Size of a trend's drawing, in SVG units.
const (
	trendW, trendH = 640.0, 210.0
	padL, padB     = 36.0, 30.0 // room for the value and time labels
	padT, padR     = 14.0, 8.0
)

// Render draws the trend.
func (t Trend) Render() app.UI {
	return figure(t.ID, t.Caption, t.svg(), t.table())
}

func (t Trend) svg() app.UI {
	lo, hi := t.Min, t.Max
	dlo, dhi, ok := span(t.Points) // ok: some point has a value
	if lo == 0 && hi == 0 {
		lo, hi = min(dlo, 0), dhi
	}
	if !ok {
		return drawing("chart-trend", t.Caption+": no data in this period.", trendW, trendH,
			text(trendW/2, trendH/2, "middle", "chart-empty", "No data in this period"))
	}
	w, h := trendW-padL-padR, trendH-padT-padB
	y := scale{lo: lo, hi: hi, size: h}
	pts := downsample(t.Points, MaxPoints)
	var axis []app.UI
	for _, v := range ticks(lo, hi, 4) {
		py := padT + y.at(v)
		axis = append(axis,
			el("line").Class("chart-grid").Attr("x1", num(padL)).Attr("x2", num(padL+w)).Attr("y1", num(py)).Attr("y2", num(py)),
			text(padL-6, py+4, "end", "chart-label", Number(v)))
	}
	for _, i := range spaced(labelIndexes(len(pts), 5), len(pts), w) {
		anchor := "middle" // the first and last labels end at the plot's edges
		if len(pts) > 1 && i == 0 {
			anchor = "start"
		} else if len(pts) > 1 && i == len(pts)-1 {
			anchor = "end"
		}
		axis = append(axis, text(padL+xAt(i, len(pts), w), trendH-6, anchor, "chart-label", pts[i].Label))
	}
	line := el("path").Class("chart-line").Attr("d", linePath(pts, w, y)).
		Attr("transform", "translate("+num(padL)+" "+num(padT)+")")
	return drawing("chart-trend", t.summary(), trendW, trendH, append(axis, line)...)
}

// labelIndexes picks at most n evenly spaced indexes of count points for
// the time axis, counted back from the last (today is always named).
func labelIndexes(count, n int) []int {
	if count == 0 || n < 1 {
		return nil
	}
	step := (count + n - 1) / n
	var out []int
	for i := count - 1; i >= 0; i -= step {
		out = append([]int{i}, out...)
	}
	return out
}

// minLabelGap is the least distance, in SVG units, between the x of two
// time labels: a label such as "Wed 18 Nov" is about 95 units wide at
// the labels' size (17px), and the last one ends at the plot's edge.
const minLabelGap = 150.0

// spaced drops from idx (indexes of count points across width w) each
// label nearer than minLabelGap to the next one kept, so that no two
// time labels overlap; the last (today) is always kept.
func spaced(idx []int, count int, w float64) []int {
	if len(idx) < 2 {
		return idx
	}
	out := []int{idx[len(idx)-1]}
	for k := len(idx) - 2; k >= 0; k-- {
		if xAt(out[0], count, w)-xAt(idx[k], count, w) >= minLabelGap {
			out = append([]int{idx[k]}, out...)
		}
	}
	return out
}

// summary sums the trend up in words: its first and last values.
func (t Trend) summary() string {
	var first, last *Point
	for i := range t.Points {
		if !t.Points[i].Missing {
			if first == nil {
				first = &t.Points[i]
			}
			last = &t.Points[i]
		}
	}
	if first == nil {
		return t.Caption + ": no data in this period."
	}
	return t.Caption + ": " + t.Unit + " " + Number(first.Value) + " on " + first.Label +
		", " + Number(last.Value) + " on " + last.Label + ". The table holds every value."
}

func (t Trend) table() Table {
	tb := Table{Head: append([]string{"Period", t.Unit}, t.Extra...)}
	for i, p := range t.Points {
		v := "—"
		if !p.Missing {
			v = Number(p.Value)
		}
		row := []string{p.Label, v}
		if i < len(t.ExtraCells) {
			row = append(row, t.ExtraCells[i]...)
		}
		tb.Rows = append(tb.Rows, row)
	}
	return tb
}
