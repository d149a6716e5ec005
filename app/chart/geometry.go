package chart

import (
	"math"
	"strconv"
	"strings"
)

// Point is one value of a series, for a trend or a sparkline: Label
// names it in the table and on the axis ("Mon 3"); a Missing point (a
// bucket without data) breaks the line and reads "—" in the table.
type Point struct {
	Label   string
	Value   float64
	Missing bool
}

// MaxPoints is the most points a line draws: a longer series is
// averaged down to it (a year of hours is 8,760), its table keeps all.
const MaxPoints = 400

// scale maps values from [lo, hi] onto [0, size] pixels, upwards: lo is
// at size (the bottom of a plot) and hi at 0.
type scale struct{ lo, hi, size float64 }

// at returns the pixel of v, clamped to the plot.
func (s scale) at(v float64) float64 {
	if s.hi <= s.lo {
		return s.size // no range: everything lies on the base line
	}
	f := (v - s.lo) / (s.hi - s.lo)
	return s.size * (1 - math.Max(0, math.Min(1, f)))
}

// span returns the least and greatest values of the points that are not
// missing, and false when there is none.
func span(pts []Point) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if !p.Missing {
			lo, hi, ok = math.Min(lo, p.Value), math.Max(hi, p.Value), true
		}
	}
	return lo, hi, ok
}

// downsample averages pts into at most n groups of consecutive points;
// a group is missing only when all its points are. Each group keeps the
// label of its first point.
func downsample(pts []Point, n int) []Point {
	if len(pts) <= n || n <= 0 {
		return pts
	}
	out := make([]Point, 0, n)
	for g := range n {
		from, to := g*len(pts)/n, (g+1)*len(pts)/n
		sum, k := 0.0, 0
		for _, p := range pts[from:to] {
			if !p.Missing {
				sum, k = sum+p.Value, k+1
			}
		}
		q := Point{Label: pts[from].Label, Missing: k == 0}
		if k > 0 {
			q.Value = sum / float64(k)
		}
		out = append(out, q)
	}
	return out
}

// xAt returns the x pixel of point i of n across width w (a single point
// sits in the middle).
func xAt(i, n int, w float64) float64 {
	if n <= 1 {
		return w / 2
	}
	return w * float64(i) / float64(n-1)
}

// linePath returns the SVG path of the points across w × y, each run of
// points that are not missing one sub-path ("M x y L x y …"); a lone
// point is a zero-length segment, drawn as a dot by round line caps.
func linePath(pts []Point, w float64, y scale) string {
	var b strings.Builder
	open := false
	for i, p := range pts {
		if p.Missing {
			open = false
			continue
		}
		cmd := "L"
		if !open {
			cmd = "M"
		}
		b.WriteString(cmd + num(xAt(i, len(pts), w)) + " " + num(y.at(p.Value)) + " ")
		if !open && (i+1 == len(pts) || pts[i+1].Missing) {
			b.WriteString("l0 0 ") // a lone point
		}
		open = true
	}
	return strings.TrimSpace(b.String())
}

// ticks returns about n round values from lo to hi for an axis,
// including lo when it is round.
func ticks(lo, hi float64, n int) []float64 {
	if hi <= lo || n < 1 {
		return []float64{lo}
	}
	step := niceStep((hi - lo) / float64(n))
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step/1e6; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// niceStep rounds raw up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// num formats a pixel with at most one decimal, for small SVG markup.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// Number formats a value for people: whole numbers as such, others with
// one decimal ("3.5").
func Number(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
