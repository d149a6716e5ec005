package main

import (
	"bufio"
	"encoding/csv"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// exportSQL is the whole list, as the export's CSV has it, without the
// location's name.
const exportSQL = `SELECT id, created_at, captured_at, location_id, poster_id, rating, tags, comment, language,
	source, device_id FROM hygiene_submissions WHERE workspace_id = %s ORDER BY created_at DESC, id DESC`

// export streams the workspace's whole list as CSV: on PostgreSQL its
// own COPY … TO STDOUT (the physical limit of a CSV export), on SQLite
// one query written by encoding/csv.
func (h *handler) export(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(10 * time.Minute))
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := h.db.export(r, h.ws, bw); err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = bw.Flush()
}

// writeCSV writes rs as CSV with a header, as the SQLite export does.
func writeCSV(w io.Writer, rs rows) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"id", "created_at", "captured_at", "location_id", "poster_id", "rating", "tags", "comment",
		"language", "source", "device_id"})
	rec := make([]string, 11)
	for rs.Next() {
		var rating int
		var created, captured time.Time
		var poster *string
		if err := rs.Scan(&rec[0], &created, &captured, &rec[3], &poster, &rating, &rec[6], &rec[7], &rec[8],
			&rec[9], &rec[10]); err != nil {
			return err
		}
		rec[1], rec[2] = feedback.NewTime(created).String(), feedback.NewTime(captured).String()
		rec[4], rec[5] = "", strconv.Itoa(rating)
		if poster != nil {
			rec[4] = *poster
		}
		if err := c.Write(rec); err != nil {
			return err
		}
	}
	c.Flush()
	if err := c.Error(); err != nil {
		return err
	}
	return rs.Err()
}
