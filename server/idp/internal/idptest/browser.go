package idptest

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"
)

// Get fetches u in browser c.
func Get(t *testing.T, c *http.Client, u string) Page {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return Page{Status: resp.StatusCode, URL: resp.Request.URL, Header: resp.Header, Body: string(b)}
}

// federationButtonRE finds the form of a "Sign in with" button.
var federationButtonRE = regexp.MustCompile(`(?s)<form method="post" class="federation">.*?</form>`)

// Button posts the form of the login page's first "Sign in with" button.
func (f *Flow) Button() Page {
	f.Env.T.Helper()
	m := federationButtonRE.FindString(f.Last.Body)
	if m == "" {
		f.Env.T.Fatalf("no federation button on %s: %s", f.Last.URL, f.Last.Body)
	}
	f.Last = SubmitForm(f.Env.T, f.Browser, Page{URL: f.Last.URL, Body: m}, nil)
	return f.Last
}

// StopAt makes the browser stop before it follows a redirect to path.
func (f *Flow) StopAt(path string) {
	f.Browser.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if req.URL.Path == path {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// Location returns where the last page redirects.
func (f *Flow) Location() *url.URL {
	f.Env.T.Helper()
	u, err := f.Last.URL.Parse(f.Last.Header.Get("Location"))
	if err != nil || f.Last.Status != http.StatusFound && f.Last.Status != http.StatusSeeOther {
		f.Env.T.Fatalf("%d at %s does not redirect: %v", f.Last.Status, f.Last.URL, err)
	}
	return u
}

// Get opens u in the browser, following redirects again.
func (f *Flow) Get(u *url.URL) Page {
	f.Env.T.Helper()
	f.Browser.CheckRedirect = nil
	f.Last = f.Do(http.NewRequest(http.MethodGet, u.String(), nil))
	return f.Last
}
