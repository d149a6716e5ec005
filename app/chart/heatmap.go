package chart

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Heatmap is a grid of counts, e.g. weekdays × hours: the darker a cell,
// the higher its count; the table holds the numbers.
type Heatmap struct {
	ID, Caption string
	Rows        []string              // row labels, e.g. "Mon"
	Cols        []string              // column labels, e.g. "0" to "23"
	Counts      [][]int               // Counts[r][c]
	Detail      func(r, c int) string // a cell's text in the table; its count when nil
	Wide        bool                  // the figure takes a whole row of a grid
}

// Size of a heatmap's cells, in SVG units.
const (
	cellW, cellH   = 24.0, 22.0
	heatLabelW     = 40.0
	heatLabelH     = 18.0
	heatLevelCount = 5
)

// Render draws the heatmap.
func (m Heatmap) Render() app.UI {
	f := figure(m.ID, m.Caption, m.svg(), m.table())
	if m.Wide {
		return app.Div().Class("chart-wide").Body(f)
	}
	return f
}

// level returns the shade, 0 (none) to heatLevelCount, of a count.
func level(n, most int) int {
	if n <= 0 || most <= 0 {
		return 0
	}
	return 1 + (n*heatLevelCount-1)/most
}

func (m Heatmap) svg() app.UI {
	most, peak := 0, [2]int{}
	for r, row := range m.Counts {
		for c, n := range row {
			if n > most {
				most, peak = n, [2]int{r, c}
			}
		}
	}
	w := heatLabelW + cellW*float64(len(m.Cols))
	h := heatLabelH + cellH*float64(len(m.Rows))
	body := make([]app.UI, 0, len(m.Rows)*(len(m.Cols)+1)+len(m.Cols))
	for c, l := range m.Cols {
		if c%3 == 0 {
			body = append(body, text(heatLabelW+cellW*(float64(c)+.5), 13, "middle", "chart-label", l))
		}
	}
	for r, l := range m.Rows {
		y := heatLabelH + cellH*float64(r)
		body = append(body, text(heatLabelW-6, y+15, "end", "chart-label", l))
		for c := range m.Cols {
			n := 0
			if r < len(m.Counts) && c < len(m.Counts[r]) {
				n = m.Counts[r][c]
			}
			body = append(body, el("rect").Class("chart-heat", "heat-"+strconv.Itoa(level(n, most))).
				Attr("x", num(heatLabelW+cellW*float64(c)+1)).Attr("y", num(y+1)).
				Attr("width", num(cellW-2)).Attr("height", num(cellH-2)))
		}
	}
	label := m.Caption + ": no data in this period."
	if most > 0 {
		label = m.Caption + ": the most, " + strconv.Itoa(most) + ", on " + m.Rows[peak[0]] + " at " + m.Cols[peak[1]] + ". The table holds every cell."
	}
	return drawing("chart-heatmap", label, w, h, body...)
}

// table lists a row per column of the drawing (24 hours rather than 24
// columns), so that it stays narrow.
func (m Heatmap) table() Table {
	t := Table{Head: append([]string{""}, m.Rows...)}
	for c, l := range m.Cols {
		row := []string{l}
		for r := range m.Rows {
			switch {
			case m.Detail != nil:
				row = append(row, m.Detail(r, c))
			case r < len(m.Counts) && c < len(m.Counts[r]):
				row = append(row, strconv.Itoa(m.Counts[r][c]))
			default:
				row = append(row, "0")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
