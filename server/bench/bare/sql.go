package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	insertSQL = `INSERT INTO hygiene_submissions (workspace_id, id, location_id, poster_id, rating, tags,
		comment, language, source, device_id, captured_at, created_at, body_hash)
		VALUES ($1, $2, $3, $4, $5, $6, '', 'en', 'qr', '', $7, $7, $8) ON CONFLICT (workspace_id, id) DO NOTHING`
	pageSQL = `SELECT id, location_id, poster_id, rating, tags, comment, language, source, device_id,
		captured_at, created_at FROM hygiene_submissions
		WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`
	// litePageSQL is pageSQL for SQLite, which plans a statement again at
	// every execution that binds a new value to a bare LIMIT or OFFSET
	// placeholder; "+ 0" keeps the values out of the plan, as the store
	// does (Dialect.LimitParam).
	litePageSQL = `SELECT id, location_id, poster_id, rating, tags, comment, language, source, device_id,
		captured_at, created_at FROM hygiene_submissions
		WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT ($2 + 0) OFFSET ($3 + 0)`
)

func hash(id string) []byte {
	h := sha256.Sum256([]byte(id))
	return h[:]
}

// pg runs the bare SQL on a pgx pool.
type pg struct{ p *pgxpool.Pool }

func openPostgres(ctx context.Context, dsn string) (database, error) {
	p, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return pg{p}, p.Ping(ctx)
}

func (d pg) insert(r *http.Request, ws, id, loc, poster string, rating int, tags []byte, now time.Time) error {
	_, err := d.p.Exec(r.Context(), insertSQL, ws, id, loc, poster, rating, string(tags), now, hash(id))
	return err
}

func (d pg) page(r *http.Request, ws string, limit, offset int) ([]row, error) {
	rows, err := d.p.Query(r.Context(), pageSQL, ws, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanPage(rows)
}

// rows is what both drivers' results offer.
type rows interface {
	Next() bool
	Scan(...any) error
	Err() error
}

// scanPage reads the page's rows; tags come as JSON text from either driver.
func scanPage(rs rows) ([]row, error) {
	var out []row
	for rs.Next() {
		var x row
		var tags string
		var poster *string
		if err := rs.Scan(&x.ID, &x.LocationID, &poster, &x.Rating, &tags, &x.Comment, &x.Language, &x.Source,
			&x.DeviceID, &x.CapturedAt, &x.CreatedAt); err != nil {
			return nil, err
		}
		if poster != nil {
			x.PosterID = *poster
		}
		x.Tags = []byte(tags)
		out = append(out, x)
	}
	return out, rs.Err()
}

// lite runs the bare SQL on SQLite as the service's store opens it: one
// writer in WAL mode and a pool of readers, times as INTEGER µs.
type lite struct{ w, r *sql.DB }

func openSQLite(path string) (database, error) {
	const common = "?_busy_timeout=5000&_foreign_keys=1&_time_integer_format=unix_micro&_inttotime=1"
	w, err := sql.Open("sqlite", path+common+"&_journal_mode=WAL&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", path+common+"&_query_only=1")
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(4)
	return lite{w, r}, w.Ping()
}

func (d lite) insert(r *http.Request, ws, id, loc, poster string, rating int, tags []byte, now time.Time) error {
	_, err := d.w.ExecContext(r.Context(), insertSQL, ws, id, loc, poster, rating, string(tags), now, hash(id))
	return err
}

func (d lite) page(r *http.Request, ws string, limit, offset int) ([]row, error) {
	rows, err := d.r.QueryContext(r.Context(), litePageSQL, ws, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanPage(rows)
}

// export runs COPY … TO STDOUT into w; the workspace id, a UUID the bare
// server was started with, is written into the statement (COPY takes no
// parameters).
func (d pg) export(r *http.Request, ws string, w io.Writer) error {
	if _, ok := feedback.ParseUUID(ws); !ok {
		return fmt.Errorf("workspace %q is not a UUID", ws)
	}
	c, err := d.p.Acquire(r.Context())
	if err != nil {
		return err
	}
	defer c.Release()
	_, err = c.Conn().PgConn().CopyTo(r.Context(), w,
		"COPY ("+fmt.Sprintf(exportSQL, "'"+ws+"'")+") TO STDOUT WITH (FORMAT csv, HEADER)")
	return err
}

func (d lite) export(r *http.Request, ws string, w io.Writer) error {
	rs, err := d.r.QueryContext(r.Context(), fmt.Sprintf(exportSQL, "?"), ws)
	if err != nil {
		return err
	}
	defer rs.Close()
	return writeCSV(w, rs)
}
