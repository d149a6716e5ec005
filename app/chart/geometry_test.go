package chart

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestScale(t *testing.T) {
	s := scale{lo: 1, hi: 5, size: 100}
	for v, want := range map[float64]float64{1: 100, 5: 0, 3: 50, 0: 100, 9: 0} {
		if got := s.at(v); got != want {
			t.Errorf("at(%v) = %v, want %v", v, got, want)
		}
	}
	if got := (scale{lo: 2, hi: 2, size: 40}).at(2); got != 40 {
		t.Errorf("an empty range puts %v at %v, want the base line 40", 2, got)
	}
}

func TestLinePath(t *testing.T) {
	y := scale{lo: 0, hi: 10, size: 100}
	for _, c := range []struct {
		name string
		pts  []Point
		want string
	}{
		{"Empty", nil, ""},
		{"OnePoint", []Point{{Value: 5}}, "M50 50 l0 0"},
		{"Line", []Point{{Value: 0}, {Value: 10}, {Value: 5}}, "M0 100 L50 0 L100 50"},
		{"Gap", []Point{{Value: 0}, {Missing: true}, {Value: 5}, {Value: 10}}, "M0 100 l0 0 M66.7 50 L100 0"},
		{"AllMissing", []Point{{Missing: true}, {Missing: true}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := linePath(c.pts, 100, y); got != c.want {
				t.Errorf("linePath = %q, want %q", got, c.want)
			}
		})
	}
}

func TestDownsample(t *testing.T) {
	pts := make([]Point, 8760) // a year of hours
	for i := range pts {
		pts[i] = Point{Label: "h" + Number(float64(i)), Value: float64(i % 2), Missing: i >= 8000}
	}
	got := downsample(pts, MaxPoints)
	if len(got) != MaxPoints {
		t.Fatalf("%d points became %d, want %d", len(pts), len(got), MaxPoints)
	}
	if got[0].Label != "h0" || got[0].Missing || math.Abs(got[0].Value-0.5) > 0.05 {
		t.Errorf("the first group is %+v, want the average 0.5 labelled h0", got[0])
	}
	if !got[len(got)-1].Missing {
		t.Errorf("the last group, all missing, is %+v", got[len(got)-1])
	}
	if short := downsample(pts[:3], MaxPoints); len(short) != 3 {
		t.Errorf("a short series changed: %d points", len(short))
	}
	if path := linePath(got, 600, scale{hi: 1, size: 100}); strings.Count(path, "L")+strings.Count(path, "M") > MaxPoints {
		t.Errorf("the path of a year has more than %d points", MaxPoints)
	}
}

func TestTicks(t *testing.T) {
	if got := ticks(1, 5, 4); len(got) != 5 || got[0] != 1 || got[4] != 5 {
		t.Errorf("ticks(1, 5) = %v, want 1 to 5 by 1", got)
	}
	if got := ticks(0, 5, 4); len(got) != 3 || got[1] != 2 {
		t.Errorf("ticks(0, 5) = %v, want 0, 2, 4", got)
	}
	if got := ticks(0, 1, 4); len(got) != 3 || got[1] != 0.5 {
		t.Errorf("ticks(0, 1) = %v, want 0, 0.5, 1", got)
	}
	if got := ticks(3, 3, 4); len(got) != 1 || got[0] != 3 {
		t.Errorf("ticks of an empty range = %v, want [3]", got)
	}
	if got := ticks(0, 130, 4); got[len(got)-1] > 130 || got[1]-got[0] != 50 {
		t.Errorf("ticks(0, 130) = %v, want steps of 50", got)
	}
}

func TestLevelAndGauge(t *testing.T) {
	if level(0, 10) != 0 || level(1, 10) != 1 || level(10, 10) != heatLevelCount || level(3, 0) != 0 {
		t.Errorf("levels: 0→%d 1→%d 10→%d", level(0, 10), level(1, 10), level(10, 10))
	}
	cx, cy := 110.0, 106.0
	for score, want := range map[float64][2]float64{-100: {cx - gaugeR, cy}, 0: {cx, cy - gaugeR}, 100: {cx + gaugeR, cy}} {
		x, y := gaugePoint(cx, cy, score)
		if math.Abs(x-want[0]) > 1e-9 || math.Abs(y-want[1]) > 1e-9 {
			t.Errorf("score %v at (%v, %v), want %v", score, x, y, want)
		}
	}
}

func TestLabelsAndNumbers(t *testing.T) {
	if got := labelIndexes(30, 6); len(got) != 6 || got[0] != 4 || got[5] != 29 {
		t.Errorf("labelIndexes(30, 6) = %v, want 4 to 29 by 5", got)
	}
	if got := labelIndexes(7, 6); len(got) != 4 || got[0] != 0 || got[3] != 6 {
		t.Errorf("labelIndexes(7, 6) = %v, want 0 to 6 by 2", got)
	}
	if got := labelIndexes(1, 6); len(got) != 1 {
		t.Errorf("labelIndexes(1, 6) = %v", got)
	}
	if Number(4) != "4" || Number(3.46) != "3.5" || Percent(0.333) != "33%" || countShare(1, 3) != "1 (33%)" {
		t.Errorf("formats: %s %s %s %s", Number(4), Number(3.46), Percent(0.333), countShare(1, 3))
	}
	if clip("Reception hall, ground floor", 10) != "Reception…" {
		t.Errorf("clip = %q", clip("Reception hall, ground floor", 10))
	}
}

func TestSpacedLabels(t *testing.T) {
	w := trendW - padL - padR
	for _, tt := range []struct {
		count int
		want  []int
	}{
		{7, []int{0, 2, 4, 6}}, // 199 units apart: all kept
		{30, []int{5, 17, 29}}, // 123 apart: every other dropped, today kept
		{1, []int{0}},          // one point
		{2, []int{0, 1}},       // the two ends
		{0, nil},               // nothing
	} {
		got := spaced(labelIndexes(tt.count, 5), tt.count, w)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%d points: labels at %v, want %v", tt.count, got, tt.want)
		}
		for k := 1; k < len(got); k++ {
			if gap := xAt(got[k], tt.count, w) - xAt(got[k-1], tt.count, w); gap < minLabelGap {
				t.Errorf("%d points: labels %d and %d are %.0f units apart", tt.count, got[k-1], got[k], gap)
			}
		}
	}
}
