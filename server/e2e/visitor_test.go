package e2e_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// submitButton is the visitor form's submit button.
const submitButton = `#feedback-form button[type=submit]`

// fillHygiene types comment and picks rating on the hygiene form.
func fillHygiene(b *browser, rating int, comment string) {
	b.t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID("field-comment"), comment),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`label[for="rating-%d"]`, rating))))
}

// TestSubmitWithoutWasm posts the prerendered form as plain HTML: app.js
// never loads the wasm with ?wasm=false.
func TestSubmitWithoutWasm(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	before := s.hygieneIDs()

	b.openWithoutWasm(s.visitorURL(feedback.FormHygiene))
	comment := "posted without the wasm"
	fillHygiene(b, 4, comment)
	// Before the post, not after: the thank-you page that the 303 leads
	// to has no ?wasm=false, and the wasm that the service worker cached
	// may start there before a check could run.
	if eval[bool](b, `typeof window.onpopstate === "function"`) {
		t.Error("go-app ran although the page asked for no wasm")
	}

	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	sent := chromedp.Events(ctx, network.RequestWillBeSent) // subscribe before the click
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(submitButton))); err != nil {
		t.Fatalf("submit: %v", err)
	}
	var redirect *network.Response
	for ev, err := range sent {
		if err != nil {
			t.Fatalf("no redirect to the thank-you page: %v", err)
		}
		if ev.RedirectResponse != nil && strings.HasSuffix(urlPath(t, ev.Request.URL), "/thanks") {
			redirect = ev.RedirectResponse
			break
		}
	}
	if redirect.Status != 303 || urlPath(t, redirect.URL) != "/q/"+s.codes[feedback.FormHygiene] {
		t.Errorf("the post answered %d from %s, want 303 from the form's URL", redirect.Status, redirect.URL)
	}
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if want := "/q/" + s.codes[feedback.FormHygiene] + "/thanks"; urlPath(t, loc) != want {
		t.Errorf("landed on %s, want %s", loc, want)
	}
	if text := b.text(); !strings.Contains(text, i18n.T("en", "thanks_body")) {
		t.Errorf("the thank-you page says %q", text)
	}

	got := s.waitNewHygiene(before, 1, 10*time.Second)[0]
	if got.Rating != 4 || got.Comment != comment || got.Source != feedback.SourceQR {
		t.Errorf("stored %+v, want rating 4, comment %q, source qr", got, comment)
	}
}

func urlPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// holdWasm makes the page's download of app.wasm pause (CDP Fetch
// domain) and returns release, which waits until the page has asked for
// the file and lets the download go on.
func holdWasm(b *browser) (release func()) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	paused := chromedp.Events(ctx, fetch.RequestPaused) // subscribe before enabling
	_, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/app.wasm*"}}})
	if err != nil {
		b.t.Fatalf("Fetch.enable: %v", err)
	}
	return func() {
		b.t.Helper()
		defer cancel()
		for ev, err := range paused {
			if err != nil {
				b.t.Fatalf("the page never asked for app.wasm: %v", err)
			}
			if _, err := chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID}); err != nil {
				b.t.Fatalf("Fetch.continueRequest: %v", err)
			}
			break
		}
		if _, err := chromedp.Call(b.ctx, fetch.Disable, cdp.Empty{}); err != nil {
			b.t.Fatalf("Fetch.disable: %v", err)
		}
	}
}

// TestInputTypedBeforeWasmIsKept types into the prerendered form while
// app.wasm is held back: the wasm replaces the DOM, and must carry the
// typed comment and the chosen rating over, then send them as JSON.
func TestInputTypedBeforeWasmIsKept(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	before := s.hygieneIDs()

	release := holdWasm(b)
	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene)))
	comment := "typed before the wasm arrived"
	fillHygiene(b, 2, comment)
	if eval[bool](b, wasmRunning) {
		t.Fatal("the wasm runs although its download is held back")
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("field-comment").prerendered = true`))
	release()

	b.waitWasm()
	b.waitFor("the wasm to replace the prerendered textarea",
		`(() => { const el = document.getElementById("field-comment"); return !!el && el.prerendered !== true })()`, 10*time.Second)
	if got := eval[string](b, `document.getElementById("field-comment").value`); got != comment {
		t.Errorf("comment after the wasm loaded = %q, want %q", got, comment)
	}
	if !eval[bool](b, `document.getElementById("rating-2").checked`) {
		t.Error("rating 2 is no longer chosen after the wasm loaded")
	}

	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "sent"), 20*time.Second)
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if p := urlPath(t, loc); p != "/q/"+s.codes[feedback.FormHygiene] {
		t.Errorf("the app left the form for %s; it must send JSON and stay", p)
	}
	got := s.waitNewHygiene(before, 1, 10*time.Second)[0]
	if got.Rating != 2 || got.Comment != comment || got.Source != feedback.SourceQR {
		t.Errorf("stored %+v, want rating 2, comment %q, source qr", got, comment)
	}
}

// TestLanguageSwitchKeepsInput switches the language through the links
// once the wasm runs: the page changes language in place, and what the
// visitor typed stays and is submitted in the new language.
func TestLanguageSwitchKeepsInput(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	before := s.hygieneIDs()
	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene) + "?lang=en"))
	b.waitWasm()
	fillHygiene(b, 5, "gleich bleibt")
	b.do(chromedp.Click(chromedp.CSS(`a[lang="de"]`)))
	b.waitText(i18n.T("de", "hygiene_title"), 10*time.Second)
	if lang := eval[string](b, `document.documentElement.lang`); lang != "de" {
		t.Errorf("<html lang> = %q after switching to German", lang)
	}
	if v := eval[string](b, `document.getElementById("field-comment").value`); v != "gleich bleibt" {
		t.Errorf("the comment is %q after the switch", v)
	}
	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	got := s.waitNewHygiene(before, 1, 20*time.Second)[0]
	if got.Language != "de" || got.Comment != "gleich bleibt" || got.Rating != 5 {
		t.Errorf("stored %+v, want German, the comment and rating 5", got)
	}
}

// TestOptionalQuestionsCanBeSkipped answers only the demo survey's one
// required question, without and with the wasm: the browser lets the
// form go both times, and both responses arrive.
func TestOptionalQuestionsCanBeSkipped(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	before := s.surveyResponses()

	b.openWithoutWasm(s.visitorURL(feedback.FormSurvey))
	b.do(chromedp.Click(chromedp.CSS(`label[for="q-overall-4"]`)), chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "thanks_body"), 10*time.Second)

	b.do(chromedp.Navigate(s.visitorURL(feedback.FormSurvey)))
	b.waitWasm()
	b.do(chromedp.Click(chromedp.CSS(`label[for="q-overall-2"]`)), chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "sent"), 20*time.Second)

	var ratings []float64
	waitUntil(t, "two new survey responses", 20*time.Second, func() bool {
		ratings = nil
		for id, r := range s.surveyResponses() {
			if _, old := before[id]; !old {
				if len(r.Answers) != 1 {
					t.Fatalf("response %s answers %v; want only the required question", id, r.Answers)
				}
				n, _ := r.Answers["overall"].(float64)
				ratings = append(ratings, n)
			}
		}
		return len(ratings) == 2
	})
	if slices.Sort(ratings); !slices.Equal(ratings, []float64{2, 4}) {
		t.Errorf("stored ratings %v, want 2 and 4", ratings)
	}
}

// TestFormsFitNarrowScreen opens each form in each language on a phone
// 390 px wide, with the wasm and a rating chosen: nothing reaches past
// the screen's edges, nothing spills out of its box, and the page never
// scrolls sideways.
func TestFormsFitNarrowScreen(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	b.phone()
	for _, form := range []feedback.FormKind{feedback.FormHygiene, feedback.FormReview, feedback.FormSurvey} {
		choice := `label[for="rating-2"]`
		if form == feedback.FormSurvey {
			choice = `label[for="q-overall-2"]`
		}
		for _, lang := range i18n.Languages {
			b.do(chromedp.Navigate(s.visitorURL(form) + "?lang=" + lang))
			b.waitWasm()
			b.do(chromedp.Click(chromedp.CSS(choice)))
			checkFits(t, b, string(form)+" form in "+lang)
		}
	}
}

// TestRefusalInPageLanguage posts a comment that is too long from the
// German page without the wasm, in a browser that prefers English: the
// refusal comes back in German, field name and reason included, and
// stays German, with the comment, when the wasm takes the page over.
func TestRefusalInPageLanguage(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	before := s.hygieneIDs()
	b.openWithoutWasm(s.visitorURL(feedback.FormHygiene) + "?lang=de")
	if accept := eval[string](b, `navigator.languages.join(",")`); strings.HasPrefix(accept, "de") {
		t.Fatalf("the browser prefers %s; the test needs one that prefers English", accept)
	}
	long := strings.Repeat("x", feedback.MaxHygieneComment+101)
	b.do(chromedp.Evaluate[chromedp.Void](`const c = document.getElementById("field-comment"); c.removeAttribute("maxlength"); c.value = `+jsString(long)),
		chromedp.Click(chromedp.CSS(`label[for="rating-2"]`)))
	release := holdWasm(b) // the refusal page is checked before the wasm takes it over
	b.do(chromedp.Click(chromedp.CSS(submitButton)))

	reason := "Kommentar: darf höchstens 500 Zeichen lang sein (jetzt 601)"
	b.waitText(i18n.T("de", "error_title"), 10*time.Second)
	checkGerman := func(when string) {
		t.Helper()
		text := b.text()
		if !strings.Contains(text, reason) || strings.Contains(text, "must be") || eval[string](b, `document.documentElement.lang`) != "de" {
			t.Errorf("%s, the refusal reads:\n%s", when, text)
		}
	}
	checkGerman("without the wasm")
	release()
	b.waitWasm()
	checkGerman("once the wasm runs")
	if got := eval[string](b, `document.getElementById("field-comment").value`); got != long {
		t.Errorf("the comment is %d characters after the refusal, want the %d typed", len(got), len(long))
	}

	// The wasm's own check refuses a longer one, in the language chosen now.
	b.do(chromedp.Click(chromedp.CSS(`a[lang="fr"]`)))
	french := "Commentaire: doit comporter au plus 500 caractères (actuellement 601)"
	b.waitText(french, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("field-comment").removeAttribute("maxlength")`),
		chromedp.SendKeys(chromedp.ID("field-comment"), "y"), chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText("Commentaire: doit comporter au plus 500 caractères (actuellement 602)", 10*time.Second)
	s.checkNewHygiene(before, 0, "after the refusals")
}

// TestKeyboardOnly fills and sends the hygiene form with the keyboard
// alone: Tab reaches the faces, whose focus is visible, arrows choose
// one, Space ticks a tag, and Enter on the button sends it.
func TestKeyboardOnly(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b, before := openHygieneForm(t)
	tabTo := func(selector string) {
		t.Helper()
		for range 15 {
			if eval[bool](b, `document.activeElement === document.querySelector(`+jsString(selector)+`)`) {
				return
			}
			b.do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", selector)
	}
	tabTo("#rating-1")
	if style := eval[string](b, `getComputedStyle(document.querySelector('label[for="rating-1"]')).outlineStyle`); style == "none" {
		t.Error("the focused face shows no focus")
	}
	b.do(chromedp.KeyEvent(kb.ArrowRight + kb.ArrowRight + kb.ArrowRight)) // quickly: a render must not undo a key
	b.waitFor("the arrows to choose the fourth face",
		`document.getElementById("rating-4").checked && document.activeElement.id === "rating-4"`, 5*time.Second)
	tabTo("#tag-no_soap")
	b.do(chromedp.KeyEvent(" "))
	tabTo("#field-comment")
	b.do(chromedp.KeyEvent("typed with the keyboard"))
	tabTo(submitButton)
	b.do(chromedp.KeyEvent(kb.Enter))
	b.waitText(i18n.T("en", "sent"), 20*time.Second)

	got := s.waitNewHygiene(before, 1, 10*time.Second)[0]
	if got.Rating != 4 || got.Comment != "typed with the keyboard" || !slices.Equal(got.Tags, []string{feedback.TagNoSoap}) {
		t.Errorf("stored %+v, want rating 4, the no_soap tag and the typed comment", got)
	}
}
