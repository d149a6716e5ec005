package chart

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Sparkline is a small line without axes, for a row of a table that
// holds its numbers elsewhere; label sums it up. Values are drawn on
// the scale lo to hi.
func Sparkline(label string, pts []Point, lo, hi float64) app.UI {
	const w, h = 120.0, 28.0
	y := scale{lo: lo, hi: hi, size: h - 4}
	return drawing("chart-spark", label, w, h,
		el("line").Class("chart-grid").Attr("x1", "2").Attr("x2", num(w-2)).Attr("y1", num(h-2)).Attr("y2", num(h-2)),
		el("path").Class("chart-line").Attr("d", linePath(downsample(pts, MaxPoints), w-4, y)).Attr("transform", "translate(2 2)"))
}
