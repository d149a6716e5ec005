package chart

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Bar is one bar: its label and count; Low marks a bar of bad news
// (ratings 1 and 2), drawn in another colour and hatched, so that the
// difference does not rest on colour alone.
type Bar struct {
	Label string
	Count int
	Low   bool
}

// Bars is a horizontal bar chart of counts, with each bar's share of
// the total in its label and table.
type Bars struct {
	ID, Caption string
	Unit        string // the table's count column, e.g. "Ratings"
	Bars        []Bar
}

// Size of a bar chart's rows, in SVG units.
const (
	barsW, barRowH = 480.0, 26.0
	barLabelW      = 150.0
	barValueW      = 90.0
)

// Render draws the bars.
func (b Bars) Render() app.UI {
	return figure(b.ID, b.Caption, b.svg(), b.table())
}

func (b Bars) total() (total, most int) {
	for _, x := range b.Bars {
		total, most = total+x.Count, max(most, x.Count)
	}
	return total, most
}

func (b Bars) svg() app.UI {
	total, most := b.total()
	h := barRowH*float64(len(b.Bars)) + 4
	w := barsW - barLabelW - barValueW
	rows := make([]app.UI, 0, len(b.Bars))
	for i, x := range b.Bars {
		y := float64(i)*barRowH + 2
		bw := 0.0
		if most > 0 {
			bw = w * float64(x.Count) / float64(most)
		}
		class := "chart-bar"
		if x.Low {
			class = "chart-bar chart-low"
		}
		rows = append(rows, el("g").Body(
			text(barLabelW-8, y+17, "end", "chart-label", clip(x.Label, 18)),
			el("rect").Class(class).Attr("x", num(barLabelW)).Attr("y", num(y+4)).Attr("width", num(max(bw, 1))).Attr("height", num(barRowH-8)),
			text(barLabelW+bw+6, y+17, "start", "chart-value", countShare(x.Count, total)),
		))
	}
	return drawing("chart-bars", b.summary(total), barsW, h, rows...)
}

// summary names each bar's count.
func (b Bars) summary(total int) string {
	s := b.Caption + ": "
	if total == 0 {
		return s + "none yet."
	}
	for i, x := range b.Bars {
		if i > 0 {
			s += ", "
		}
		s += x.Label + " " + strconv.Itoa(x.Count)
	}
	return s + "."
}

func (b Bars) table() Table {
	total, _ := b.total()
	t := Table{Head: []string{"", b.Unit, "Share"}}
	for _, x := range b.Bars {
		t.Rows = append(t.Rows, []string{x.Label, strconv.Itoa(x.Count), Percent(share(x.Count, total))})
	}
	return t
}

// countShare is "12 (40%)".
func countShare(n, total int) string {
	if total == 0 {
		return "0"
	}
	return strconv.Itoa(n) + " (" + Percent(share(n, total)) + ")"
}

func share(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// Percent formats a share from 0 to 1 as a whole percentage ("40%").
func Percent(f float64) string {
	return strconv.Itoa(int(f*100+0.5)) + "%"
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
