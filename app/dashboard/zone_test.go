package dashboard

import (
	"testing"
	"time"
)

func TestZoneDays(t *testing.T) {
	berlin := zone("Europe/Berlin")
	now := time.Date(2026, 3, 30, 9, 30, 0, 0, time.UTC) // the day after the switch to summer time
	if got, want := berlin.dayStart(now), time.Date(2026, 3, 29, 22, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("dayStart = %v, want %v", got, want)
	}
	days, from, to := berlin.lastDays(3, now)
	if want := time.Date(2026, 3, 27, 23, 0, 0, 0, time.UTC); !from.Equal(want) {
		t.Errorf("from = %v, want %v (winter time)", from, want)
	}
	if want := time.Date(2026, 3, 30, 22, 0, 0, 0, time.UTC); !to.Equal(want) {
		t.Errorf("to = %v, want %v", to, want)
	}
	var keys []string
	for _, d := range days {
		keys = append(keys, d.key+" "+d.label)
	}
	if want := []string{"2026-03-28 Sat 28 Mar", "2026-03-29 Sun 29 Mar", "2026-03-30 Mon 30 Mar"}; len(keys) != 3 || keys[0] != want[0] || keys[1] != want[1] || keys[2] != want[2] {
		t.Errorf("days = %q, want %q", keys, want)
	}
	kiritimati := zone("Pacific/Kiritimati") // UTC+14
	if got, want := kiritimati.dayStart(now), time.Date(2026, 3, 29, 10, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("dayStart at +14 = %v, want %v", got, want)
	}
	if got := zone("Nowhere/Else").date(now); got != "2026-03-30" {
		t.Errorf("an unknown zone's date = %q, want UTC's", got)
	}
}
