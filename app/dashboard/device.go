package dashboard

import "strings"

// A token of a User-Agent header and the name people know it by. The
// first match wins, so more specific tokens come first: Edge and Opera
// also say Chrome, Chrome also says Safari, and Android also says Linux.
type uaToken struct{ token, name string }

var browsers = []uaToken{
	{"Edg/", "Edge"}, {"EdgA/", "Edge"}, {"EdgiOS/", "Edge"},
	{"OPR/", "Opera"}, {"SamsungBrowser/", "Samsung Internet"},
	{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
	{"HeadlessChrome/", "Headless Chrome"}, {"CriOS/", "Chrome"}, {"Chromium/", "Chromium"}, {"Chrome/", "Chrome"},
	{"Safari/", "Safari"}, {"curl/", "curl"},
}

var systems = []uaToken{
	{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
	{"Windows", "Windows"}, {"Macintosh", "macOS"}, {"Linux", "Linux"},
}

// deviceName summarises a User-Agent header for people: "Firefox on
// Windows", "Safari on iPhone". An agent it does not know is shown as it
// is, shortened.
func deviceName(ua string) string {
	b, s := match(ua, browsers), match(ua, systems)
	switch {
	case b != "" && s != "":
		return b + " on " + s
	case b != "":
		return b
	case s != "":
		return "A browser on " + s
	case strings.TrimSpace(ua) == "":
		return "Unknown device"
	}
	return shorten(strings.TrimSpace(ua), 60)
}

func match(ua string, tokens []uaToken) string {
	for _, t := range tokens {
		if strings.Contains(ua, t.token) {
			return t.name
		}
	}
	return ""
}

// shorten cuts s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
