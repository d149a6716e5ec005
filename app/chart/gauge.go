package chart

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Gauge is a half-circle dial of a net promoter score, -100 to 100, with
// the score written in its middle.
type Gauge struct {
	ID, Caption string
	Score       int
	Promoters   int
	Passives    int
	Detractors  int
}

// Size of a gauge, in SVG units.
const gaugeW, gaugeH, gaugeR = 220.0, 150.0, 90.0

// Render draws the gauge.
func (g Gauge) Render() app.UI {
	cx, cy := gaugeW/2, gaugeR+16
	arc := func(from, to float64) string { // angles in score units, -100 to 100
		x1, y1 := gaugePoint(cx, cy, from)
		x2, y2 := gaugePoint(cx, cy, to)
		return "M" + num(x1) + " " + num(y1) + " A" + num(gaugeR) + " " + num(gaugeR) + " 0 0 1 " + num(x2) + " " + num(y2)
	}
	score := float64(max(-100, min(100, g.Score)))
	nx, ny := gaugePoint(cx, cy, score)
	label := g.Caption + ": net promoter score " + strconv.Itoa(g.Score) + " (from -100 to 100)."
	svg := drawing("chart-gauge", label, gaugeW, gaugeH,
		el("path").Class("chart-track").Attr("d", arc(-100, 100)),
		el("path").Class("chart-line", "chart-gauge-value").Attr("d", arc(-100, score)),
		el("line").Class("chart-needle").Attr("x1", num(cx)).Attr("y1", num(cy)).Attr("x2", num(nx)).Attr("y2", num(ny)),
		text(cx, cy+34, "middle", "chart-score", strconv.Itoa(g.Score)),
		text(cx-gaugeR, cy+20, "middle", "chart-label", "-100"),
		text(cx+gaugeR, cy+20, "middle", "chart-label", "100"),
	)
	t := Table{Head: []string{"", "Answers"}, Rows: [][]string{
		{"Promoters (9–10)", strconv.Itoa(g.Promoters)},
		{"Passives (7–8)", strconv.Itoa(g.Passives)},
		{"Detractors (0–6)", strconv.Itoa(g.Detractors)},
		{"Net promoter score", strconv.Itoa(g.Score)},
	}}
	return figure(g.ID, g.Caption, svg, t)
}

// gaugePoint returns the point of a score on the dial: -100 on the left,
// 0 at the top, 100 on the right.
func gaugePoint(cx, cy, score float64) (x, y float64) {
	a := math.Pi * (1 - (score+100)/200) // π on the left, 0 on the right
	return cx + gaugeR*math.Cos(a), cy - gaugeR*math.Sin(a)
}
