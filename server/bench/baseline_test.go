package bench_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
	_ "modernc.org/sqlite"
)

// The bare baseline: a chi router whose handlers run the service's SQL
// straight on the driver, with no middleware, no auth, no validation
// beyond decoding, and no store layer. TestBaselineRunsSameSQL checks
// that its statements are the service's.

// bareDB is the little the baseline needs from a driver.
type bareDB interface {
	queryRow(ctx context.Context, q string, args ...any) interface{ Scan(...any) error }
	query(ctx context.Context, q string, args ...any) (bareRows, error)
	tx(ctx context.Context, fn func(exec func(q string, args ...any) error, row func(q string, args ...any) interface{ Scan(...any) error }) error) error
	// rowID is the dialect's expression of a new row id (a copy of the
	// store's Dialect.RowID).
	rowID() string
	// eventSeq is the dialect's expression of the seq of a
	// transaction's event whose ordinal is the expression ordinal (a
	// copy of the store's Dialect.EventSeq).
	eventSeq(ordinal string) string
	// countShard is the dialect's expression of a list counter's shard
	// (a copy of the store's Dialect.CountShard).
	countShard() string
	// limitParam is the dialect's form of a LIMIT or OFFSET placeholder
	// (a copy of the store's Dialect.LimitParam).
	limitParam() string
}

type bareRows interface {
	Next() bool
	Scan(...any) error
	Err() error
}

// pgxDB runs the baseline on a pgx pool.
type pgxDB struct{ p *pgxpool.Pool }

func (pgxDB) rowID() string {
	return "CAST(%s || substr(CAST(gen_random_uuid() AS text), 20) AS uuid)"
}

func (pgxDB) limitParam() string { return "%s" }

func (pgxDB) eventSeq(ordinal string) string {
	return "pg_current_xact_id()::text::bigint * 1024 + CAST(" + ordinal + " AS bigint)"
}

func (pgxDB) countShard() string { return "pg_backend_pid() % 64" }

func (d pgxDB) queryRow(ctx context.Context, q string, args ...any) interface{ Scan(...any) error } {
	return d.p.QueryRow(ctx, q, args...)
}

func (d pgxDB) query(ctx context.Context, q string, args ...any) (bareRows, error) {
	return d.p.Query(ctx, q, args...)
}

func (d pgxDB) tx(ctx context.Context, fn func(func(string, ...any) error, func(string, ...any) interface{ Scan(...any) error }) error) error {
	return pgx.BeginFunc(ctx, d.p, func(tx pgx.Tx) error {
		return fn(func(q string, args ...any) error { _, err := tx.Exec(ctx, q, args...); return err },
			func(q string, args ...any) interface{ Scan(...any) error } { return tx.QueryRow(ctx, q, args...) })
	})
}

// sqlDB runs the baseline on database/sql with SQLite's one writer and
// a pool of readers, as the service's SQLite store does.
type sqlDB struct{ writer, readers *sql.DB }

func (sqlDB) rowID() string {
	return "%s || substr('89ab', 1 + (random() & 3), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || " +
		"lower(hex(randomblob(6)))"
}

func (sqlDB) limitParam() string { return "(%s + 0)" }

func (sqlDB) eventSeq(string) string {
	return "(SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE workspace_id = $1)"
}

func (sqlDB) countShard() string { return "0" }

func openBareSQLite(tb testing.TB, path string) sqlDB {
	tb.Helper()
	const common = "?_busy_timeout=5000&_foreign_keys=1&_time_integer_format=unix_micro&_inttotime=1"
	w, err := sql.Open("sqlite", path+common+"&_journal_mode=WAL&_txlock=immediate")
	if err != nil {
		tb.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", path+common+"&_query_only=1")
	if err != nil {
		tb.Fatal(err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	tb.Cleanup(func() { r.Close(); w.Close() })
	return sqlDB{w, r}
}

func (d sqlDB) queryRow(ctx context.Context, q string, args ...any) interface{ Scan(...any) error } {
	return d.readers.QueryRowContext(ctx, q, args...)
}

func (d sqlDB) query(ctx context.Context, q string, args ...any) (bareRows, error) {
	return d.readers.QueryContext(ctx, q, args...)
}

func (d sqlDB) tx(ctx context.Context, fn func(func(string, ...any) error, func(string, ...any) interface{ Scan(...any) error }) error) error {
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	err = fn(func(q string, args ...any) error { _, err := tx.ExecContext(ctx, q, args...); return err },
		func(q string, args ...any) interface{ Scan(...any) error } {
			return tx.QueryRowContext(ctx, q, args...)
		})
	if err != nil {
		return err
	}
	return tx.Commit()
}

// bareHandler serves POST /q/{code} and GET /api/v1/hygiene.
func bareHandler(db bareDB) http.Handler {
	r := chi.NewRouter()
	r.Post("/q/{code}", func(w http.ResponseWriter, r *http.Request) {
		if err := bareIngest(w, r, db); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	r.Get("/api/v1/hygiene", func(w http.ResponseWriter, r *http.Request) {
		if err := bareList(w, r, db); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return r
}

// bareSubmission is what the baseline decodes.
type bareSubmission struct {
	ID     string   `json:"id"`
	Rating int      `json:"rating"`
	Tags   []string `json:"tags"`
}

// barePosters caches what the poster's and the location's rows say, as
// the service caches a resolved poster (its INSERT checks revocation).
var barePosters sync.Map // poster id → [2]string{workspace, location}

// barePoster resolves a poster to its workspace and location, reading
// the poster and its location once.
func barePoster(ctx context.Context, db bareDB, posterID string) (ws, loc string, _ error) {
	if v, ok := barePosters.Load(posterID); ok {
		p := v.([2]string)
		return p[0], p[1], nil
	}
	var form, label string
	var review, survey *string
	var created time.Time
	var revoked *time.Time
	if err := db.queryRow(ctx, sqlPosterByID, posterID).Scan(&ws, &posterID, &loc, &form, &review, &survey, &label, &created, &revoked); err != nil {
		return "", "", err
	}
	var l struct {
		id, name, desc   string
		created, updated time.Time
	}
	if err := db.queryRow(ctx, sqlLocation, ws, loc).Scan(&l.id, &l.name, &l.desc, &l.created, &l.updated); err != nil {
		return "", "", err
	}
	barePosters.Store(posterID, [2]string{ws, loc})
	return ws, loc, nil
}

func bareIngest(w http.ResponseWriter, r *http.Request, db bareDB) error {
	posterID, _, _ := secret.ParsePosterCode(chi.URLParam(r, "code"))
	var in bareSubmission
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		return err
	}
	ctx := r.Context()
	ws, loc, err := barePoster(ctx, db, posterID)
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	if in.Tags == nil {
		in.Tags = []string{}
	}
	h := feedback.HygieneSubmission{ID: in.ID, Rating: in.Rating, LocationID: loc, PosterID: posterID, Tags: in.Tags,
		Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(now), CreatedAt: feedback.NewTime(now)}
	tags, _ := json.Marshal(in.Tags)
	hash := sha256.Sum256([]byte(in.ID + strconv.Itoa(in.Rating)))
	data, _ := json.Marshal(h)
	cutoff := now.Add(-feedback.RevokedGrace)
	if _, ok := db.(pgxDB); ok {
		args := []any{ws, h.ID, loc, posterID, h.Rating, string(tags), "", "en", "qr", "", now, now, hash[:], cutoff}
		id := feedback.NewIDAt(now)
		args = append(args, id, feedback.EventHygieneSubmissionCreated, now, string(data), id[:19], now.Truncate(time.Hour),
			hygieneSeries, wholeWorkspace, locationSeries, loc, int64(0))
		var seq, deliveries int64
		if err := db.queryRow(ctx, sqlIngestOne(db), args...).Scan(&seq, &deliveries); err != nil {
			return err
		}
	} else if err := db.tx(ctx, func(exec func(string, ...any) error, row func(string, ...any) interface{ Scan(...any) error }) error {
		if err := exec(sqlInsertHygiene, ws, h.ID, loc, posterID, h.Rating, string(tags), "", "en", "qr", "", now, now, hash[:], cutoff); err != nil {
			return err
		}
		return bareEvent(exec, row, db, ws, feedback.EventHygieneSubmissionCreated, now, data, h)
	}); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_, err = w.Write(data)
	return err
}

// bareEvent appends the *.created event with its webhook deliveries and
// bumps the list counters, as the store does in the same transaction.
func bareEvent(exec func(string, ...any) error, row func(string, ...any) interface{ Scan(...any) error },
	db bareDB, ws, typ string, now time.Time, data []byte, h feedback.HygieneSubmission) error {
	var seq int64
	id := feedback.NewIDAt(now)
	if err := row(sqlInsertEvent(db.eventSeq("0")), ws, id, typ, now, string(data)).Scan(&seq); err != nil {
		return err
	}
	if err := exec(sqlFanOut(db.rowID()), ws, seq, id, typ, now, id[:19]); err != nil {
		return err
	}
	return bareCounters(exec, db, ws, h, now)
}

func bareList(w http.ResponseWriter, r *http.Request, db bareDB) error {
	ctx := r.Context()
	ws := r.URL.Query().Get("ws")
	p := feedback.ListParams{Page: 1, PerPage: 50}
	total, upper, err := bareTotal(ctx, db, ws, p)
	if err != nil {
		return err
	}
	rows, err := db.query(ctx, sqlHygienePage(db.limitParam()), ws, minTime, upper, p.PerPage, p.Offset())
	if err != nil {
		return err
	}
	items := []feedback.HygieneSubmission{}
	for rows.Next() {
		var h feedback.HygieneSubmission
		var poster *string
		var tags string
		var captured, created time.Time
		if err := rows.Scan(&h.ID, &h.LocationID, &poster, &h.Rating, &tags, &h.Comment, &h.Language, &h.Source, &h.DeviceID, &captured, &created); err != nil {
			return err
		}
		if poster != nil {
			h.PosterID = *poster
		}
		_ = json.Unmarshal([]byte(tags), &h.Tags)
		h.CapturedAt, h.CreatedAt = feedback.NewTime(captured), feedback.NewTime(created)
		items = append(items, h)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(feedback.NewPage(items, total, p))
}

// Bounds of created_at when a list has no from or to, as the store uses.
var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)
