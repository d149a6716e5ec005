package chart

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// svgNS is the namespace the browser must create SVG elements in.
const svgNS = "http://www.w3.org/2000/svg"

// el is an SVG element.
func el(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// drawing is the SVG of a chart of w × h units, scaled to its box by
// the styles; label sums it up for those who do not see it.
func drawing(class, label string, w, h float64, body ...app.UI) app.UI {
	return el("svg").Class("chart-svg", class).Attr("viewBox", "0 0 "+num(w)+" "+num(h)).
		Attr("preserveAspectRatio", "xMidYMid meet").Attr("role", "img").Aria("label", label).Body(body...)
}

// text is an SVG text at x, y; anchor is start, middle or end.
func text(x, y float64, anchor, class, s string) app.UI {
	return el("text").Attr("x", num(x)).Attr("y", num(y)).Attr("text-anchor", anchor).Class(class).Text(s)
}

// Table is the numbers behind a chart: a header row and rows of cells,
// the first cell of each row its header.
type Table struct {
	Head []string
	Rows [][]string
}

// figure is a chart with its caption and, behind a "Show table"
// disclosure, its table; id, when not empty, is the figure's id.
func figure(id, caption string, svg app.UI, t Table) app.UI {
	f := app.Figure().Class("chart")
	if id != "" {
		f = f.ID(id)
	}
	return f.Body(
		app.If(caption != "", func() app.UI { return app.FigCaption().Class("chart-caption").Text(caption) }),
		svg,
		app.Details().Class("chart-table").Body(
			app.Summary().Text("Show table"),
			renderTable(caption, t),
		),
	)
}

// renderTable is a table with a caption, its first column row headers.
func renderTable(caption string, t Table) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().Class("records").Body(
		app.If(caption != "", func() app.UI { return app.Caption().Class("sr-only").Text(caption) }),
		app.THead().Body(app.Tr().Body(app.Range(t.Head).Slice(func(i int) app.UI {
			return app.Th().Scope("col").Text(t.Head[i])
		}))),
		app.TBody().Body(app.Range(t.Rows).Slice(func(i int) app.UI {
			row := t.Rows[i]
			return app.Tr().Body(app.Range(row).Slice(func(j int) app.UI {
				if j == 0 {
					return app.Th().Scope("row").Text(row[j])
				}
				td := app.Td()
				if j < len(t.Head) && t.Head[j] != "" {
					td = td.DataSet("label", t.Head[j]) // a phone shows each cell with its column's name
				}
				return td.Text(row[j])
			}))
		})),
	))
}
