// Package chart draws the dashboard's charts as SVG with go-app elements:
// a trend line, bars, a sparkline, a weekday × hour heatmap and an NPS
// gauge. No chart library: the geometry is a few functions here
// (geometry.go), tested without a browser.
//
// Every chart is a figure: a caption, the drawing (role="img" with an
// aria-label that sums it up) and a real table of its numbers behind a
// "Show table" disclosure, which the print styles always show. Colours
// come from classes in web/style.css; no colour alone carries meaning
// (the table and the labels carry the numbers).
package chart
