package feedback

import "strings"

// ValidEmail reports whether s is a plain email address, local@domain:
// at most MaxEmail characters, one @, a local part of printable ASCII
// without spaces, quotes or angle brackets, and a domain of dot-separated
// labels of letters, digits and hyphens with at least one dot. Display
// names ("Ann <ann@example.com>") and quoted local parts are refused: a
// visitor types an address, and net/mail would add 40 KB to the wasm.
func ValidEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || len(s) > MaxEmail || local == "" || len(local) > 64 || strings.Contains(domain, "@") {
		return false
	}
	for _, c := range local {
		if c <= ' ' || c > '~' || strings.ContainsRune(`"(),:;<>[\]`, c) {
			return false
		}
	}
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !validLabel(l) {
			return false
		}
	}
	return true
}

func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, c := range l {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
