package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/poster"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerPosterRoutes(r chi.Router) {
	r.Get("/locations/{id}/posters", s.handle(s.handlePosterList))
	r.Post("/locations/{id}/posters", s.handle(s.handlePosterCreate))
	r.Get("/posters/{id}", s.handle(s.handlePosterGet))
	r.Post("/posters/{id}/revoke", s.handle(s.handlePosterRevoke))
	r.Get("/posters/{id}/qr.png", s.handle(s.handlePosterQR(poster.QRPNG, "image/png")))
	r.Get("/posters/{id}/qr.svg", s.handle(s.handlePosterQR(poster.QRSVG, "image/svg+xml")))
	r.Get("/posters/{id}/poster.pdf", s.handle(s.handlePosterPDF))
	r.Get("/posters/print.pdf", s.handle(s.handlePostersPDF))
}

// handlePosterList handles "GET /locations/{id}/posters".
func (s *Server) handlePosterList(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	p, err := request.ListParams(r)
	if err != nil {
		return err
	}
	items, total, err := s.store.Posters(r.Context(), request.WorkspaceID(r.Context()), id, p)
	if err != nil {
		return err
	}
	out := make([]feedback.Poster, len(items))
	for i := range items {
		if out[i], err = s.posterWire(r.Context(), &items[i]); err != nil {
			return err
		}
	}
	return response.Page(w, out, total, p)
}

// handlePosterCreate handles "POST /locations/{id}/posters".
func (s *Server) handlePosterCreate(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	var in feedback.PosterInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	p := &server.Poster{WorkspaceID: request.WorkspaceID(r.Context())}
	p.LocationID, p.FormRef, p.Label = id, in.FormRef, in.Label
	if err := s.store.CreatePoster(r.Context(), p); err != nil {
		return err
	}
	out, err := s.posterWire(r.Context(), p)
	if err != nil {
		return err
	}
	return writeCreated(w, r, "/posters/"+p.ID, out)
}

// handlePosterGet handles "GET /posters/{id}".
func (s *Server) handlePosterGet(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	p, err := s.pathPoster(r)
	return s.writePoster(w, r, p, err)
}

// handlePosterRevoke handles "POST /posters/{id}/revoke".
func (s *Server) handlePosterRevoke(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	p, err := s.store.RevokePoster(r.Context(), request.WorkspaceID(r.Context()), id)
	return s.writePoster(w, r, p, err)
}

// writePoster answers p with its code and URL, or err.
func (s *Server) writePoster(w http.ResponseWriter, r *http.Request, p *server.Poster, err error) error {
	if err != nil {
		return err
	}
	out, err := s.posterWire(r.Context(), p)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, out)
}

// handlePosterQR handles "GET /posters/{id}/qr.png" and ".../qr.svg":
// draw makes the image of the poster's URL at the size asked for.
func (s *Server) handlePosterQR(draw func(url string, size int) ([]byte, error), contentType string) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		size, err := qrSize(r)
		if err != nil {
			return err
		}
		_, out, err := s.pathPosterWire(r)
		if err != nil {
			return err
		}
		img, err := draw(out.URL, size)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "private, max-age=3600")
		_, _ = w.Write(img)
		return nil
	}
}

func qrSize(r *http.Request) (int, error) {
	q := r.URL.Query()
	var v feedback.Validator
	for name, vals := range q {
		v.Check(name == "size", name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	n := 512
	if q.Has("size") {
		var err error
		n, err = strconv.Atoi(q.Get("size"))
		v.Check(err == nil && n >= 64 && n <= 2048, "size", "must be an integer from 64 to 2048")
	}
	return n, v.ParamErr()
}

// pathPoster loads the poster named by the id URL parameter.
func (s *Server) pathPoster(r *http.Request) (*server.Poster, error) {
	id, err := request.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	return s.store.Poster(r.Context(), request.WorkspaceID(r.Context()), id)
}

// pathPosterWire loads the poster named by the id URL parameter with its
// signed code and URL.
func (s *Server) pathPosterWire(r *http.Request) (*server.Poster, feedback.Poster, error) {
	p, err := s.pathPoster(r)
	if err != nil {
		return nil, feedback.Poster{}, err
	}
	out, err := s.posterWire(r.Context(), p)
	return p, out, err
}

// posterWire returns the poster with its signed code and visitor URL.
func (s *Server) posterWire(ctx context.Context, p *server.Poster) (feedback.Poster, error) {
	key, err := s.posters.Key(ctx, p.WorkspaceID)
	if err != nil {
		return feedback.Poster{}, err
	}
	out := p.Poster
	out.Code = secret.SignPoster(key, p.ID)
	out.URL = s.cfg.BaseURL + "/q/" + out.Code
	return out, nil
}
