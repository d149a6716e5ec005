package client

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The calls of the dashboard's locations, posters and kiosks pages.

// UpdateLocation renames a location or changes its description; a nil
// field of in is left unchanged.
func (c *Client) UpdateLocation(ctx context.Context, id string, in feedback.LocationInput) (*feedback.Location, error) {
	return call[feedback.Location](ctx, c, "PATCH", "/locations/"+url.PathEscape(id), in)
}

// Posters lists a location's posters, revoked ones included, newest first.
func (c *Client) Posters(ctx context.Context, locationID string, p feedback.ListParams) (*feedback.Page[feedback.Poster], error) {
	return list[feedback.Poster](ctx, c, "/locations/"+url.PathEscape(locationID)+"/posters", p)
}

// RevokeKiosk revokes a kiosk's device credential: the kiosk is unpaired.
func (c *Client) RevokeKiosk(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/kiosks/"+url.PathEscape(id)), nil, nil)
	return err
}

// PosterPDFPath returns the path of a poster's printable PDF.
func (c *Client) PosterPDFPath(id string) string {
	return c.api("/posters/" + url.PathEscape(id) + "/poster.pdf")
}

// PosterQRPath returns the path of a poster's QR code as a PNG image of
// size by size pixels (64 to 2048).
func (c *Client) PosterQRPath(id string, size int) string {
	return withQuery(c.api("/posters/"+url.PathEscape(id)+"/qr.png"), url.Values{"size": {strconv.Itoa(size)}})
}

// PosterQRSVGPath returns the path of a poster's QR code as an SVG image
// whose width and height are size pixels (64 to 2048); it scales.
func (c *Client) PosterQRSVGPath(id string, size int) string {
	return withQuery(c.api("/posters/"+url.PathEscape(id)+"/qr.svg"), url.Values{"size": {strconv.Itoa(size)}})
}

// PostersPrintPath returns the path of one PDF with a page per poster
// of ids (1 to 50), in their order.
func (c *Client) PostersPrintPath(ids []string) string {
	return withQuery(c.api("/posters/print.pdf"), url.Values{"ids": {strings.Join(ids, ",")}})
}

// File gets the file at path (a path PosterPDFPath, PosterQRPath or
// PosterQRSVGPath returned): its bytes and content type.
func (c *Client) File(ctx context.Context, path string) ([]byte, string, error) {
	r, err := c.Do(ctx, "GET", path, nil, nil)
	if err != nil {
		return nil, "", err
	}
	return r.Body, r.Header.Get("Content-Type"), nil
}
