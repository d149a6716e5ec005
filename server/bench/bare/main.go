// Command bare is the physical limit that make bench compares feedbackd
// against: a chi server that does only the essential SQL of each
// request, with no authentication, no validation beyond decoding, no
// events, counters or webhooks, and no store layer.
//
//	POST /q/{code}       decodes {"id","rating","tags"} and runs the
//	                     submission's INSERT (201)
//	GET  /api/v1/hygiene runs the page's SELECT (?page=, per_page 50)
//	                     and writes the rows as JSON, with the fields
//	                     of the API's answer (no meta.total)
//
// It serves the rows of one workspace and location, given by flags, on
// the database feedbackd uses (DATABASE_URL: a postgres:// URL or an
// SQLite file).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	ws := flag.String("workspace", "", "workspace id")
	loc := flag.String("location", "", "location id")
	poster := flag.String("poster", "", "poster id")
	flag.Parse()
	dsn := os.Getenv("DATABASE_URL")
	if *ws == "" || *loc == "" || *poster == "" || dsn == "" {
		log.Fatal("bare: set DATABASE_URL, -workspace, -location and -poster")
	}
	db, err := open(context.Background(), dsn)
	if err != nil {
		log.Fatal(err)
	}
	h := &handler{db: db, ws: *ws, loc: *loc, poster: *poster}
	log.Fatal(listen(*addr, h.routes()))
}

// open returns the dialect of dsn.
func open(ctx context.Context, dsn string) (database, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return openPostgres(ctx, dsn)
	}
	return openSQLite(dsn)
}

// listen serves h on addr and prints the address it listens on first.
func listen(addr string, h http.Handler) error {
	srv := &http.Server{Handler: h}
	ln, err := netListen(addr)
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	return srv.Serve(ln)
}
