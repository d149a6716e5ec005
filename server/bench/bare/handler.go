package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
)

var netListen = func(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// database is the SQL the bare handlers run, in the dialect at hand.
type database interface {
	// insert stores one hygiene submission.
	insert(r *http.Request, ws, id, loc, poster string, rating int, tags []byte, now time.Time) error
	// page returns the rows of one list page as JSON objects.
	page(r *http.Request, ws string, limit, offset int) ([]row, error)
	// export writes the whole list as CSV.
	export(r *http.Request, ws string, w io.Writer) error
}

// row is one listed submission, with the fields the API answers.
type row struct {
	ID         string          `json:"id"`
	Rating     int             `json:"rating"`
	LocationID string          `json:"location_id"`
	PosterID   string          `json:"poster_id,omitempty"`
	Tags       json.RawMessage `json:"tags"`
	Comment    string          `json:"comment"`
	Language   string          `json:"language"`
	Source     string          `json:"source"`
	DeviceID   string          `json:"device_id,omitempty"`
	CapturedAt time.Time       `json:"captured_at"`
	CreatedAt  time.Time       `json:"created_at"`
}

// handler serves the two bare routes for one workspace.
type handler struct {
	db              database
	ws, loc, poster string
}

func (h *handler) routes() http.Handler {
	r := chi.NewRouter()
	r.Post("/q/{code}", h.ingest)
	r.Get("/api/v1/hygiene", h.list)
	r.Get("/api/v1/hygiene/export", h.export)
	return r
}

// submission is what ingest decodes.
type submission struct {
	ID     string   `json:"id"`
	Rating int      `json:"rating"`
	Tags   []string `json:"tags"`
}

func (h *handler) ingest(w http.ResponseWriter, r *http.Request) {
	var in submission
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if in.Tags == nil {
		in.Tags = []string{}
	}
	tags, _ := json.Marshal(in.Tags)
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := h.db.insert(r, h.ws, in.ID, h.loc, h.poster, in.Rating, tags, now); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]string{"id": in.ID})
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) {
	const perPage = 50
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	rows, err := h.db.page(r, h.ws, perPage, (page-1)*perPage)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": rows})
}
